import { type InstanceUsage, instanceStats } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/** How long the usage figures of `/nodeinfo` are reused (Forgejo caches them for 180 s). */
const USAGE_TTL_MS = 180_000;

/** Facts about the instance as a whole: what `/nodeinfo` shares. */
export class InstanceService {
  #usage: { at: number; value: Promise<InstanceUsage> } | undefined;

  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Users, recently active users, issues and comments, counted at most once per 180 s per process
   * (concurrent callers share one count).
   */
  usage(now = Date.now()): Promise<InstanceUsage> {
    const cached = this.#usage;
    if (cached && now - cached.at < USAGE_TTL_MS) return cached.value;
    const value = instanceStats.instanceUsage(this.ctx.db, new Date(now));
    this.#usage = { at: now, value };
    value.catch(() => {
      if (this.#usage?.value === value) this.#usage = undefined;
    });
    return value;
  }
}
