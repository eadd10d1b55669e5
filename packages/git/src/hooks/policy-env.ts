import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { PushPolicy } from "./push-policy.js";

/**
 * Policies longer than this many bytes travel in a file: Linux caps one environment string at
 * 128 KiB (of bytes, whatever the characters), and a repository with many rules or Git LFS locks
 * would otherwise make git fail to start the hook.
 */
const INLINE_LIMIT = 64 * 1024;

/**
 * The value of `KILN_PUSH_POLICY` for `policy`: its JSON, or `@<file>` with the JSON written to
 * `spillPath` (readable by this user only; the caller removes it when the push ends).
 */
export async function policyEnvValue(policy: PushPolicy, spillPath: string): Promise<string> {
  const json = JSON.stringify(policy);
  if (Buffer.byteLength(json) <= INLINE_LIMIT) return json;
  await writeFile(spillPath, json, { mode: 0o600 });
  return `@${spillPath}`;
}

/** The policy JSON a `KILN_PUSH_POLICY` value carries (JSON never starts with `@`). */
export function policyJsonOf(value: string): string {
  return value.startsWith("@") ? readFileSync(value.slice(1), "utf8") : value;
}
