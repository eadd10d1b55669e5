import type { RefUpdate } from "./push-policy.js";

const SHA = /^[0-9a-f]{40}$/;

/** Parses the `<old> <new> <ref>` lines git feeds pre- and post-receive hooks. Malformed lines are skipped. */
export function parseRefUpdateLines(text: string): RefUpdate[] {
  const updates: RefUpdate[] = [];
  for (const line of text.split("\n")) {
    const [oldSha, newSha, ref] = line.trim().split(" ");
    if (oldSha && newSha && ref && SHA.test(oldSha) && SHA.test(newSha)) {
      updates.push({ oldSha, newSha, ref });
    }
  }
  return updates;
}
