/**
 * Entry point of the pre-receive hook installed in every repository. git runs it with the ref
 * updates on stdin; it applies the push policy from the environment and exits non-zero with a
 * message per refused update, which the git client prints as `remote: …`.
 */
import { evaluatePush } from "./evaluate-push.js";
import { gitRefUpdateFacts } from "./git-facts.js";
import { announceUpdates, PUSH_INTENT_ENV } from "./intent-channel.js";
import { parsePushPolicy, parseRefUpdateLines } from "./parse-push.js";
import { policyJsonOf } from "./policy-env.js";
import { gitPushSizeFacts, pushLimitRefusals } from "./push-limits.js";
import { PUSH_POLICY_ENV } from "./push-policy.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main(): Promise<number> {
  const input = await readStdin();
  const json = process.env[PUSH_POLICY_ENV];
  if (!json) return 0;
  let policy: ReturnType<typeof parsePushPolicy>;
  try {
    policy = parsePushPolicy(policyJsonOf(json));
  } catch {
    process.stderr.write("push refused: the server sent an unreadable push policy\n");
    return 1;
  }
  const updates = parseRefUpdateLines(input);
  const messages = await evaluatePush(policy, updates, gitRefUpdateFacts(process.cwd()));
  if (messages.length === 0) {
    messages.push(...(await pushLimitRefusals(policy.limits, updates, gitPushSizeFacts(process.cwd()))));
  }
  // Accepted: the server journals the updates before git applies them (a crash after is finished).
  const channel = process.env[PUSH_INTENT_ENV];
  if (messages.length === 0 && channel && !(await announceUpdates(channel, updates))) {
    messages.push("push refused: the server could not record the push; try again");
  }
  for (const message of messages) process.stderr.write(`${message}\n`);
  return messages.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`push refused: internal error in pre-receive hook: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
