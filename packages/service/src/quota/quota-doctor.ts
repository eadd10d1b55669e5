import { USAGE_COUNTER_SUBJECTS, USAGE_COUNTERS, type UsageCounter } from "@kiln/quota";
import { quotaRecount, quotaUsage, type UsageCounters } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/**
 * The ledger's counters: the engine's leaf counters and `wiki`, which the ledger counts (per
 * repository wiki) though the engine, by the specification, never limits `size:wiki`.
 */
type LedgerCounter = UsageCounter | "wiki";
const LEDGER_COUNTERS: readonly LedgerCounter[] = [...USAGE_COUNTERS, "wiki"];
const SUBJECT_OF: Readonly<Record<LedgerCounter, string>> = { ...USAGE_COUNTER_SUBJECTS, wiki: "size:wiki" };

/** One counter of the ledger that disagrees with a recount of what it counts. */
export interface UsageDrift {
  readonly ownerId: number;
  readonly ownerName: string;
  readonly counter: LedgerCounter;
  /** The leaf subject the counter is (`size:repos:public`, …). */
  readonly subject: string;
  /** Bytes the ledger holds. */
  readonly ledger: number;
  /** Bytes the source tables hold. */
  readonly recount: number;
}

/** How to run the doctor. */
export interface DoctorOptions {
  /** Repair each drift by writing the recount into the ledger. */
  readonly fix: boolean;
  /** Owners per batch (default 500). */
  readonly batchSize?: number;
  /** Called after each batch with the owners checked so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Called for each drift as it is found (with `fix`, after it was repaired). */
  readonly onDrift?: (drift: UsageDrift) => void;
}

/** What a run found. */
export interface DoctorReport {
  readonly owners: number;
  readonly drifts: readonly UsageDrift[];
  /** Number of owners with at least one drifted counter. */
  readonly driftedOwners: number;
  /** Whether the drifts were repaired. */
  readonly fixed: boolean;
}

/**
 * `kiln doctor quota`: recounts every owner's usage from the source tables and compares it with
 * the ledger (decision 7, docs/decisions.md). Each batch is read in one snapshot, so writes running meanwhile
 * (which change data and ledger in one transaction) never show as drift. A repair locks the
 * owner's counters, recounts under the lock and overwrites them, so no concurrent change is lost.
 */
export class QuotaDoctor {
  constructor(private readonly ctx: ServiceContext) {}

  async run(options: DoctorOptions): Promise<DoctorReport> {
    const batchSize = options.batchSize ?? 500;
    let total = await quotaRecount.countOwners(this.ctx.db);
    const drifts: UsageDrift[] = [];
    const driftedOwners = new Set<number>();
    let done = 0;
    options.onProgress?.(done, total);
    for (let after = 0; ; ) {
      const owners = await quotaRecount.listOwnersAfter(this.ctx.db, after, batchSize);
      if (owners.length === 0) break;
      after = owners.at(-1)!.id;
      const ids = owners.map((o) => o.id);
      const { ledger, recount } = await this.ctx.db
        .transaction()
        .setIsolationLevel("repeatable read")
        .execute(async (trx) => ({
          ledger: await quotaUsage.getUsages(trx, ids),
          recount: await quotaRecount.recountUsage(trx, ids),
        }));
      for (const owner of owners) {
        let found = compare(owner, ledger.get(owner.id) ?? quotaUsage.NO_USAGE, recount.get(owner.id)!);
        if (found.length > 0 && options.fix) found = await this.repair(owner);
        for (const drift of found) {
          drifts.push(drift);
          driftedOwners.add(owner.id);
          options.onDrift?.(drift);
        }
      }
      done += owners.length;
      total = Math.max(total, done);
      options.onProgress?.(done, total);
    }
    return { owners: done, drifts, driftedOwners: driftedOwners.size, fixed: options.fix };
  }

  /** Recounts one owner under a lock on its counters and writes the recount; returns what differed. */
  private repair(owner: { id: number; name: string }): Promise<UsageDrift[]> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const ledger = await quotaUsage.lockUsage(trx, owner.id);
      const recount = (await quotaRecount.recountUsage(trx, [owner.id])).get(owner.id)!;
      const found = compare(owner, ledger, recount);
      if (found.length > 0) await quotaUsage.setUsage(trx, owner.id, recount);
      return found;
    });
  }
}

function compare(
  owner: { id: number; name: string },
  ledger: UsageCounters,
  recount: UsageCounters,
): UsageDrift[] {
  return LEDGER_COUNTERS.filter((c) => ledger[c] !== recount[c]).map((counter) => ({
    ownerId: owner.id,
    ownerName: owner.name,
    counter,
    subject: SUBJECT_OF[counter],
    ledger: ledger[counter],
    recount: recount[counter],
  }));
}
