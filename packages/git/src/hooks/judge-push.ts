import { isolatedEnv } from "../util/git-env.js";
import { evaluatePush } from "./evaluate-push.js";
import { type CommitSignatureCheck, gitRefUpdateFacts } from "./git-facts.js";
import type { HookRequest } from "./hook-channel.js";
import { gitPushSizeFacts, pushLimitRefusals } from "./push-limits.js";
import type { PushPolicy, RefUpdate } from "./push-policy.js";

/** What the server brings to judging a push besides its policy. */
export interface JudgeOptions {
  /** Verifies the signatures of pushed commits where a rule requires signed commits. */
  readonly verifyCommits?: CommitSignatureCheck;
  /** Records the accepted updates before git applies them; a throw refuses the push. */
  readonly beforeUpdate?: (updates: readonly RefUpdate[]) => Promise<void>;
}

/**
 * The refusals of a push into the repository at `gitdir` under `policy`, judged by the server for
 * the pre-receive hook (none: accepted): the rules first, then the size limits, with git looking
 * into the hook's quarantine. An accepted push is recorded by `beforeUpdate` before the answer,
 * so a crash after git moved the refs leaves the journal to finish the push.
 */
export async function judgePush(
  gitdir: string,
  policy: PushPolicy,
  request: HookRequest,
  options: JudgeOptions = {},
): Promise<string[]> {
  const env = isolatedEnv(request.objectEnv);
  const { updates } = request;
  const facts = gitRefUpdateFacts(gitdir, {
    env,
    ...(options.verifyCommits ? { verifyCommits: options.verifyCommits } : {}),
  });
  const messages = await evaluatePush(policy, updates, facts);
  if (messages.length === 0) {
    messages.push(...(await pushLimitRefusals(policy.limits, updates, gitPushSizeFacts(gitdir, env))));
  }
  if (messages.length === 0 && options.beforeUpdate) {
    try {
      await options.beforeUpdate(updates);
    } catch {
      messages.push("push refused: the server could not record the push; try again");
    }
  }
  return messages;
}
