import { sep } from "node:path";
import { fileURLToPath } from "node:url";
import { PUSH_POLICY_ENV, PUSH_REPORT_ENV } from "../hooks/push-policy.js";

/** Where the compiled pre-receive entry point lives; from sources (tests) it maps to the package's dist/. */
export function preReceiveEntryPath(): string {
  const here = fileURLToPath(import.meta.url);
  const path = fileURLToPath(new URL("../hooks/pre-receive-main.js", import.meta.url));
  if (!here.endsWith(".ts")) return path;
  const marker = `${sep}src${sep}`;
  const at = path.lastIndexOf(marker);
  return `${path.slice(0, at)}${sep}dist${sep}${path.slice(at + marker.length)}`;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The hook files Kiln installs in a repository, by name. pre-receive starts Node only when the
 * server passed a push policy (pushes from other tools are not Kiln's to police); post-receive
 * records the applied ref updates where the transport asked.
 */
export function hookScripts(nodePath: string, entryPath = preReceiveEntryPath()): Record<string, string> {
  return {
    "pre-receive": [
      "#!/bin/sh",
      "# Installed by Kiln: enforces the push policy the server passes for this push.",
      `if [ -z "$${PUSH_POLICY_ENV}" ]; then cat >/dev/null; exit 0; fi`,
      `exec ${shellQuote(nodePath)} ${shellQuote(entryPath)}`,
      "",
    ].join("\n"),
    "post-receive": [
      "#!/bin/sh",
      "# Installed by Kiln: hands the applied ref updates of this push to the server.",
      `if [ -n "$${PUSH_REPORT_ENV}" ]; then cat >"$${PUSH_REPORT_ENV}"; else cat >/dev/null; fi`,
      "",
    ].join("\n"),
  };
}
