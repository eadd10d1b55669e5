import { PUSH_HOOK_ENV } from "../hooks/hook-channel.js";
import { PUSH_REPORT_ENV } from "../hooks/push-policy.js";

/**
 * The hook files Kiln installs in a repository, by name, both plain `sh` (a push starts no
 * interpreter). pre-receive has the server judge the push only when the server asked for it
 * (pushes from other tools are not Kiln's to police): it hands its quarantine variables and ref
 * updates to the server through the FIFOs of `KILN_PUSH_HOOK` (see hook-channel.ts), prints the
 * messages of the verdict (git shows them as `remote: …`) and accepts only on `ok`.
 * post-receive records the applied ref updates where the transport asked.
 */
export function hookScripts(): Record<string, string> {
  const dir = `"$${PUSH_HOOK_ENV}"`;
  return {
    "pre-receive": [
      "#!/bin/sh",
      "# Installed by Kiln: has the server judge this push against its push policy.",
      `if [ -z "$${PUSH_HOOK_ENV}" ]; then cat >/dev/null; exit 0; fi`,
      `exec 3<${dir}/verdict || exit 1`,
      "{",
      `  printf '%s\\0%s\\0%s\\0' "$GIT_OBJECT_DIRECTORY" "$GIT_ALTERNATE_OBJECT_DIRECTORIES" "$GIT_QUARANTINE_PATH"`,
      "  cat",
      `  printf '\\0'`,
      `} >${dir}/request || exit 1`,
      "IFS= read -r verdict <&3",
      "cat <&3 >&2",
      `[ "$verdict" = ok ] && exit 0`,
      `[ -n "$verdict" ] || echo "push refused: the server did not answer the pre-receive hook" >&2`,
      "exit 1",
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
