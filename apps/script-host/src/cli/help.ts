/** The text `kiln-run --help` prints. */
export const helpText = `kiln-run: run a TypeScript or JavaScript module in its own V8 isolate

Usage: kiln-run [flags] script.ts [args...]

Flags (only before the script; everything after it goes to the script):
  --allow-net          allow fetch() to reach the network
  --reload             download remote modules again instead of using the cache
  --cachedir DIR       cache directory for remote modules and compiled output
                       (default ~/.cache/kiln)
  --memory-limit MB    stop the script when its heap grows past MB megabytes (default 256)
  --timeout S          stop the script after S seconds
  --debug              log every protocol message with its channel to stderr
  -h, --help           print this help

The script reads its arguments with: import { args, exit } from "kiln";
`;
