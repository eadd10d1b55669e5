/**
 * What the host answers a batch from `__kiln_send` with when it refused some of its messages:
 * pairs of a frame index and the reason (`"ProtocolError: …"`). An index `i ≥ 0` is that frame
 * alone; a negative index `-(i + 1)` is frame `i` and every frame after it (`-1`: the whole batch,
 * whose framing is broken). Nothing (undefined) when every message was taken. The runtime fails
 * the requests it made in the refused frames with the reason, so a script sees the error instead
 * of waiting for an answer that cannot come.
 */
export type Refusals = (number | string)[];

/** Refused messages in one batch beyond which the rest of the batch is refused unread. */
export const MAX_REFUSALS_PER_BATCH = 16;

/** Longest reason kept for the note that closes a run. */
const MAX_REASON_CHARS = 300;

/**
 * Counts what the host refused from the runtime over a run, so that however the run ends, its
 * last words name the cause: a refused message may have carried the request a script still
 * waits for.
 */
export class RefusalLog {
  #count = 0;
  #first = "";

  /** Notes one refused message (or request, or batch). */
  add(reason: string): void {
    if (this.#count++ === 0) {
      this.#first = reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason;
    }
  }

  /** The line to print when the run ends, or "" when nothing was refused. */
  note(): string {
    if (this.#count === 0) return "";
    const what = this.#count === 1 ? "1 message" : `${this.#count} messages`;
    return `note: the host refused ${what} from the runtime during this run, the first with ${this.#first}\n`;
  }
}
