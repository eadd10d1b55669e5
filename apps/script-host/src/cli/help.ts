/** The text `kiln-run --help` prints. */
export const helpText = `kiln-run: run a TypeScript or JavaScript module in its own V8 isolate

Usage: kiln-run [flags] script.ts [args...]

Permissions (a script reaches nothing else; see docs/protocol.md):
  --allow-read[=PATHS]     load local modules outside the script's folder (all, or these
                           comma-separated paths)
  --allow-import[=HOSTS]   load remote modules (from any host, or these: host or host:port)
  --allow-net[=HOSTS]      fetch() (and load remote modules) from any host, or these
  -A, --allow-all          all three

Limits:
  --memory-limit MB        stop the script when its heap grows past MB megabytes (default 256)
  --timeout S              stop the script after S seconds
  --max-module-size MB     largest module, local or remote (default 10)
  --max-download-size MB   remote modules downloaded per run in all (default 100)
  --max-fetch-size MB      largest fetch() response body (default 32)
  --max-timers N           timers pending at once (default 100000)

Other flags (only before the script; everything after it goes to the script):
  --reload                 download remote modules again instead of using the cache
  --cachedir DIR           cache directory for remote modules, compiled output and the
                           startup snapshot (default ~/.cache/kiln)
  --debug                  log every protocol message with its channel to stderr
  -h, --help               print this help

The script reads its arguments with: import { args, exit } from "kiln";
`;
