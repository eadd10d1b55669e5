import { createRequire } from "node:module";
import type Sshpk from "sshpk";

let loaded: typeof Sshpk | undefined;

/**
 * sshpk, required on first use: only SSH keys and SSH-signed commits need it, and loading it
 * costs about 1.2 MiB of heap at start-up. It is CommonJS, so the callers stay synchronous.
 */
export function sshpk(): typeof Sshpk {
  loaded ??= createRequire(import.meta.url)("sshpk") as typeof Sshpk;
  return loaded;
}
