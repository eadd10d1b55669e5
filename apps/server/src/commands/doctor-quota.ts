import type { UsageDrift } from "@kiln/service";
import type { CommandContext } from "./instance-commands.js";

/**
 * Exit code of `kiln doctor quota` when it found drift and did not repair it (without `--fix`):
 * distinct from 1 (the command failed) and 2 (bad arguments), so scripts can tell them apart.
 */
export const EXIT_DRIFT = 3;

const LABEL = "Recounting quota usage";

/**
 * `kiln doctor quota [--fix]`: recounts every owner's usage from the stored data, reports each
 * counter of the ledger that differs, and with `--fix` writes the recount into the ledger.
 * Exit 0 when the ledger is consistent or was repaired; EXIT_DRIFT when drift was left as it is.
 */
export async function doctorQuota(
  { services, io }: CommandContext,
  args: { fix?: boolean },
): Promise<number> {
  const fix = args.fix ?? false;
  const report = await services.quotaDoctor.run({
    fix,
    onProgress: (done, total) => io.progress({ label: LABEL, done, total }),
    onDrift: (drift) => io.out(describeDrift(drift, fix)),
  });
  const owners = plural(report.owners, "owner");
  if (report.drifts.length === 0) {
    io.out(`Checked ${owners}: the quota ledger matches the stored data.`);
    return 0;
  }
  const counters = `${plural(report.drifts.length, "counter")} of ${plural(report.driftedOwners, "owner")}`;
  if (fix) {
    io.out(`Checked ${owners}: repaired ${counters}.`);
    return 0;
  }
  const verb = report.drifts.length === 1 ? "differs" : "differ";
  io.out(
    `Checked ${owners}: ${counters} ${verb} from the stored data. Run 'kiln doctor quota --fix' to repair.`,
  );
  return EXIT_DRIFT;
}

/** One line per drifted counter: owner, counter (and its subject), ledger vs recount. */
export function describeDrift(d: UsageDrift, fixed: boolean): string {
  const delta = d.recount - d.ledger;
  return (
    `${fixed ? "repaired" : "drift"}: owner ${d.ownerName} (id ${d.ownerId}), ${d.counter} (${d.subject}): ` +
    `ledger ${d.ledger} bytes, recount ${d.recount} bytes (${delta > 0 ? "+" : ""}${delta})`
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
