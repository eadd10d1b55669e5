import { countUnreferenced, SWEEP_GRACE_MS, type UsageDrift } from "@kiln/service";
import type { CommandContext } from "./command-context.js";
import { doctorDisk } from "./doctor-disk.js";
import { EXIT_DRIFT } from "./exit-codes.js";

const LABEL = "Recounting quota usage";

/**
 * `kiln doctor quota [--fix]`: looks at the disk first (leftovers of pushes and uploads cut short,
 * repository sizes that differ from the disk, the LFS store: see doctorDisk), then recounts every
 * owner's usage from the stored data, reports each counter of the ledger that differs, and with
 * `--fix` repairs all of it. Exit 0 when everything is consistent or was repaired; EXIT_DRIFT when
 * something was left as it is.
 */
export async function doctorQuota(ctx: CommandContext, args: { fix?: boolean }): Promise<number> {
  const { services, io } = ctx;
  const fix = args.fix ?? false;
  const disk = await doctorDisk(ctx, fix);
  const report = await services.quotaDoctor.run({
    fix,
    onProgress: (done, total) => io.progress({ label: LABEL, done, total }),
    onDrift: (drift) => io.out(describeDrift(drift, fix)),
  });
  const orphans = await orphanFiles(ctx, fix);
  const owners = plural(report.owners, "owner");
  if (report.drifts.length === 0) {
    io.out(`Checked ${owners}: the quota ledger matches the stored data.`);
    return (orphans > 0 && !fix) || disk > 0 ? EXIT_DRIFT : 0;
  }
  const counters = `${plural(report.drifts.length, "counter")} of ${plural(report.driftedOwners, "owner")}`;
  if (fix) {
    io.out(`Checked ${owners}: repaired ${counters}.`);
    return disk > 0 ? EXIT_DRIFT : 0;
  }
  const verb = report.drifts.length === 1 ? "differs" : "differ";
  io.out(
    `Checked ${owners}: ${counters} ${verb} from the stored data. Run 'kiln doctor quota --fix' to repair.`,
  );
  return EXIT_DRIFT;
}

/**
 * The stored files of each kind (attachments, packages, artifacts) that no row refers to: left
 * by an upload cut short after its bytes were stored, or by deletions the sweep has not reached.
 * They count against nobody; `--fix` sweeps those older than an hour (younger ones may belong to
 * an upload about to be recorded), the rest go with the next `sweep_<kind>`. Returns how many
 * are left.
 */
async function orphanFiles({ services, io }: CommandContext, fix: boolean): Promise<number> {
  let left = 0;
  for (const kind of services.cron.blobKinds()) {
    let orphans = await countUnreferenced(kind);
    if (orphans > 0 && fix) {
      await kind.store.sweep(kind.referenced, SWEEP_GRACE_MS);
      orphans = await countUnreferenced(kind);
    }
    left += orphans;
    io.out(
      orphans === 0
        ? `Checked the stored ${kind.name}: no orphan file.`
        : `orphan: ${plural(orphans, "stored file")} of ${kind.name} no row refers to${fix ? " (younger than an hour: left for the sweep)" : ""}; run 'kiln doctor quota --fix' or 'kiln admin cron run sweep_${kind.name}'.`,
    );
  }
  return left;
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
