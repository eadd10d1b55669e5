import { randomBytes } from "node:crypto";
import { actionSettings } from "@kiln/storage";
import type { Actor } from "../access/actor.js";
import { openSecret, sealSecret } from "../auth/secret-box.js";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { ServiceContext } from "../context.js";
import { refusePublicOnly } from "./action-scope.js";

/** The scope of a runner registration token: the instance, an owner, or a repository. */
export type RunnerScope =
  | { readonly global: true }
  | { readonly ownerId: number }
  | { readonly repoId: number };

function scopeKey(scope: RunnerScope): string {
  if ("ownerId" in scope) return `owner:${scope.ownerId}`;
  if ("repoId" in scope) return `repo:${scope.repoId}`;
  return "global";
}

/**
 * Runner registration tokens (Forgejo's GetLatestRunnerToken / NewRunnerToken): one per scope,
 * made on first request and shown again to whoever may manage that scope until it is reset.
 * The token is sealed at rest (it must be shown again) and its hash kept for a runner's lookup.
 */
export class RunnerTokenService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The scope's registration token, made now if it has none. */
  async token(actor: Actor, scope: RunnerScope): Promise<string> {
    refusePublicOnly(actor);
    const key = this.ctx.settings.security.secretKey;
    const found = await actionSettings.findRunnerToken(this.ctx.db, scopeKey(scope));
    if (found) {
      try {
        return openSecret(key, found.token);
      } catch {
        // Sealed under another SECRET_KEY (or damaged): it can never be shown again, so the scope
        // gets a new token, as Forgejo makes one when the old is no longer usable.
        await actionSettings.deleteRunnerToken(this.ctx.db, found.id);
      }
    }
    // Forgejo's tokens are 40 hex digits.
    const token = randomBytes(20).toString("hex");
    const row = await actionSettings.insertRunnerToken(this.ctx.db, {
      scopeKey: scopeKey(scope),
      ownerId: "ownerId" in scope ? scope.ownerId : null,
      repoId: "repoId" in scope ? scope.repoId : null,
      token: sealSecret(key, token),
      tokenHash: hashTokenSecret(token),
    });
    return openSecret(key, row.token);
  }
}
