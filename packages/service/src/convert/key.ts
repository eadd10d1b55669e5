import {
  type api,
  type DeployKeyEntry,
  formatTime,
  type GpgKeyEntry,
  type Repository,
  type Settings,
  type SshKey,
  type User,
} from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import { toApiUser } from "./user.js";

/** Go's zero time, which Forgejo shows as the expiry of a GPG key that never expires. */
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * A user's SSH key as Forgejo's `PublicKey`. `owner` is given only when the viewer is the key's
 * owner or a site admin (Forgejo's appendPrivateInformation adds `key_type` and `user` then).
 */
export function toApiPublicKey(
  key: SshKey,
  settings: Settings,
  owner?: { readonly user: User; readonly sight: AccountSight },
): v.InferOutput<typeof api.PublicKey> {
  return {
    id: key.id,
    key: key.content,
    url: `${settings.server.rootUrl}api/v1/user/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: formatTime(key.createdAt),
    ...(owner
      ? { key_type: key.type === 2 ? "deploy" : "user", user: toApiUser(owner.user, owner.sight, settings) }
      : {}),
  };
}

/** A deploy key as Forgejo's `DeployKey`; `repository` only for site admins and the owner. */
export function toApiDeployKey(
  key: DeployKeyEntry,
  repo: Repository,
  settings: Settings,
  repository?: v.InferOutput<typeof api.Repository>,
): v.InferOutput<typeof api.DeployKey> {
  const base = `${settings.server.rootUrl}api/v1/repos/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}/keys/`;
  return {
    id: key.id,
    key_id: key.keyId,
    key: key.content,
    url: `${base}${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: formatTime(key.createdAt),
    read_only: key.mode === 1,
    ...(repository ? { repository } : {}),
  };
}

type ApiGpgKey = v.InferOutput<typeof api.GPGKey>;

function gpgFields(key: GpgKeyEntry) {
  return {
    id: key.id,
    primary_key_id: key.primaryKeyId ?? "",
    key_id: key.keyId,
    public_key: key.content,
    can_sign: key.canSign,
    can_encrypt_comms: key.canEncryptComms,
    can_encrypt_storage: key.canEncryptStorage,
    can_certify: key.canSign,
    verified: key.verified,
    created_at: formatTime(key.createdAt),
    expires_at: key.expiresAt ? formatTime(key.expiresAt) : GO_ZERO_TIME,
  };
}

/** A GPG key as Forgejo's `GPGKey` (convert.ToGPGKey): subkeys have no e-mails and no subkeys. */
export function toApiGpgKey(key: GpgKeyEntry): ApiGpgKey {
  return {
    ...gpgFields(key),
    emails: key.emails.map((e) => ({ email: e.email, verified: e.verified })),
    subkeys: key.subkeys.map((s) => ({ ...gpgFields(s), emails: null, subkeys: null, verified: s.verified })),
  };
}
