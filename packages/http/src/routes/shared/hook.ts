import type { api } from "@kiln/domain";
import type { CreateHookInput, EditHookInput } from "@kiln/service";
import type * as v from "valibot";

/** The service's input from Forgejo's CreateHookOption (`is_system_webhook` also read from config). */
export function createHookInput(body: v.InferOutput<typeof api.CreateHookOption>): CreateHookInput {
  const fromConfig = body.config.is_system_webhook;
  return {
    type: body.type,
    config: body.config,
    events: body.events,
    branchFilter: body.branch_filter,
    active: body.active,
    authorizationHeader: body.authorization_header,
    isSystemWebhook: body.is_system_webhook ?? (fromConfig !== undefined ? parseBool(fromConfig) : undefined),
  };
}

/** The service's input from Forgejo's EditHookOption (an absent body edits as an empty one). */
export function editHookInput(body: v.InferOutput<typeof api.EditHookOption> | undefined): EditHookInput {
  return {
    config: body?.config,
    events: body?.events,
    branchFilter: body?.branch_filter,
    active: body?.active,
    authorizationHeader: body?.authorization_header,
  };
}

function parseBool(text: string): boolean | undefined {
  if (["1", "t", "T", "true", "TRUE", "True"].includes(text)) return true;
  if (["0", "f", "F", "false", "FALSE", "False"].includes(text)) return false;
  return undefined;
}
