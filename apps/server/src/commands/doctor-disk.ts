import { type LeftoverFinding, type RepoSizeDrift, SWEEP_GRACE_MS } from "@kiln/service";
import type { CommandContext } from "./command-context.js";

/**
 * The disk part of `kiln doctor quota`: leftovers of pushes and uploads cut short (removed with
 * `--fix` once untouched for an hour), repositories whose stored sizes differ from the disk
 * (corrected with `--fix`, with their owner's usage), and the LFS store against what the
 * repositories reference. Returns how many findings are left unrepaired.
 */
export async function doctorDisk({ services, io }: CommandContext, fix: boolean): Promise<number> {
  const report = await services.diskDoctor.run({
    fix,
    graceMs: SWEEP_GRACE_MS,
    onProgress: (done, total) => io.progress({ label: "Measuring repositories on disk", done, total }),
    onLeftover: (l) => io.out(describeLeftover(l, fix)),
    onDrift: (d) => io.out(describeSizeDrift(d, fix)),
    onUnreadable: (repo, problem) => io.out(`unreadable: repository ${repo}: ${problem}`),
  });
  const stale = report.leftovers.filter((l) => l.stale && !l.removed).length;
  const repos = plural(report.repositories, "repository", "repositories");
  const sizes = plural(report.drifts.length, "size");
  io.out(
    report.drifts.length === 0
      ? `Checked ${repos} on disk: their stored sizes match the disk.`
      : fix
        ? `Checked ${repos} on disk: repaired ${sizes}.`
        : `Checked ${repos} on disk: ${sizes} ${report.drifts.length === 1 ? "differs" : "differ"} from the disk. Run 'kiln doctor quota --fix' to repair.`,
  );
  const { referenced, onDisk, unreferenced, missingBytes } = report.lfs;
  io.out(
    `Checked the LFS store: ${plural(onDisk.objects, "object")} (${onDisk.bytes} bytes) on disk; ` +
      `the repositories reference ${plural(referenced.objects, "object")} (${referenced.bytes} bytes).`,
  );
  if (unreferenced.objects > 0)
    io.out(
      `unreferenced: ${plural(unreferenced.objects, "LFS object")} (${unreferenced.bytes} bytes) no repository references; they count against nobody and are kept.`,
    );
  if (missingBytes > 0)
    io.out(`missing: ${missingBytes} bytes of LFS objects the repositories reference are not in the store.`);
  return stale + (fix ? 0 : report.drifts.length);
}

/** One line per leftover: what left it, where, its bytes and age, and what became of it. */
export function describeLeftover(l: LeftoverFinding, fix: boolean): string {
  const what = `${l.kind} ${l.path} (${l.bytes} bytes, last written ${l.modified.toISOString()})`;
  if (!l.stale) return `in use: ${what}: younger than an hour, left alone.`;
  if (l.removed) return `removed: ${what}.`;
  return fix
    ? `leftover: ${what}: could not be removed.`
    : `leftover: ${what}. Run 'kiln doctor quota --fix' to remove it.`;
}

/** One line per repository size that differs from the disk: stored vs measured. */
export function describeSizeDrift(d: RepoSizeDrift, fixed: boolean): string {
  const delta = d.measured - d.stored;
  const measured = d.size === "lfs" ? "its LFS objects" : "on disk";
  return (
    `${fixed ? "repaired" : "drift"}: repository ${d.repo} (id ${d.repoId}), ${d.size} size: ` +
    `stored ${d.stored} bytes, ${measured} ${d.measured} bytes (${delta > 0 ? "+" : ""}${delta})`
  );
}

function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}
