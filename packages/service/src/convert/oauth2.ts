import type { OAuth2ApplicationRecord } from "@kiln/domain";
import { type api, formatTime } from "@kiln/domain";
import type * as v from "valibot";

/** Forgejo's convert.ToOAuth2Application; `client_secret` is empty unless just generated. */
export function toApiOAuth2Application(
  app: OAuth2ApplicationRecord,
  secret = "",
): v.InferOutput<typeof api.OAuth2Application> {
  return {
    id: app.id,
    name: app.name,
    client_id: app.clientId,
    client_secret: secret,
    redirect_uris: [...app.redirectUris],
    confidential_client: app.confidentialClient,
    created: formatTime(app.createdAt),
  };
}
