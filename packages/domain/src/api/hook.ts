import * as v from "valibot";
import { dateTime, int64, optionalField } from "./primitives.js";

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
/** A hook's `config`: string values by name (url, content_type, http_method, secret, …). */
const HookConfig = v.pipe(v.record(text(64), text(4096)), v.maxEntries(32));
/** Event names a hook may choose; each bounded, the list too. */
const HookEvents = v.pipe(v.array(text(64)), v.maxLength(64));

/** A webhook (Forgejo's `Hook`); the secret is never shown. */
export const Hook = v.object({
  id: int64(),
  type: v.string(),
  url: v.string(),
  branch_filter: v.string(),
  config: v.record(v.string(), v.string()),
  events: v.array(v.string()),
  authorization_header: v.string(),
  content_type: v.string(),
  metadata: v.unknown(),
  active: v.boolean(),
  updated_at: dateTime(),
  created_at: dateTime(),
});

/** Body of `POST …/hooks` (Forgejo's `CreateHookOption`): `config` needs `url` and `content_type`. */
export const CreateHookOption = v.object({
  type: text(64),
  config: HookConfig,
  events: optionalField(HookEvents),
  branch_filter: optionalField(text(4096)),
  active: optionalField(v.boolean()),
  authorization_header: optionalField(text(4096)),
  is_system_webhook: optionalField(v.boolean()),
});

/** Body of `PATCH …/hooks/{id}` (Forgejo's `EditHookOption`). */
export const EditHookOption = v.object({
  config: optionalField(HookConfig),
  events: optionalField(HookEvents),
  branch_filter: optionalField(text(4096)),
  active: optionalField(v.boolean()),
  authorization_header: optionalField(text(4096)),
});

/** One delivery of a hook (a Kiln extension: Forgejo shows deliveries only in its web UI). */
export const HookDelivery = v.object({
  id: int64(),
  uuid: v.string(),
  event: v.string(),
  delivered: v.boolean(),
  succeeded: v.boolean(),
  attempts: int64(),
  next_attempt_at: v.nullable(dateTime()),
  delivered_at: v.nullable(dateTime()),
  created_at: dateTime(),
  request: v.nullable(
    v.object({ url: v.string(), http_method: v.string(), headers: v.record(v.string(), v.string()) }),
  ),
  response: v.nullable(
    v.object({ status: int64(), headers: v.record(v.string(), v.string()), body: v.string() }),
  ),
  payload: v.string(),
});
