/**
 * What the host holds for one script at most, beyond the isolate's own heap (`--memory-limit`):
 * every piece of host-side state a script can cause has a bound here, so a hostile script meets
 * a clear error instead of growing the host until it crashes.
 */
export interface HostLimits {
  /** Largest module source, local or downloaded (`--max-module-size`, MiB on the command line). */
  readonly maxModuleBytes: number;
  /** Bytes of remote modules one run may download in all (`--max-download-size`). */
  readonly maxDownloadBytes: number;
  /** Timers pending at once (`--max-timers`); one more ends the run with an error. */
  readonly maxTimers: number;
  /** Largest `fetch` response body (`--max-fetch-size`). */
  readonly maxFetchBytes: number;
  /** `fetch` calls in flight at once; more are refused until one settles. */
  readonly maxFetchesInFlight: number;
  /** Response bytes all fetches in flight may hold together; past it the fetch that grows fails. */
  readonly maxFetchBufferedBytes: number;
  /** Bytes waiting to be handed to a runtime that is busy; past it the run ends. */
  readonly maxOutboxBytes: number;
  /** Largest batch of messages the runtime may hand the host in one call. */
  readonly maxBatchBytes: number;
  /** Largest single message (frame) from the runtime, requests included. */
  readonly maxMessageBytes: number;
}

const MiB = 1024 * 1024;

/** The limits a run gets unless its flags say otherwise. */
export const DEFAULT_LIMITS: HostLimits = {
  maxModuleBytes: 10 * MiB,
  maxDownloadBytes: 100 * MiB,
  maxTimers: 100_000,
  maxFetchBytes: 32 * MiB,
  maxFetchesInFlight: 64,
  maxFetchBufferedBytes: 64 * MiB,
  maxOutboxBytes: 128 * MiB,
  maxBatchBytes: 16 * MiB,
  maxMessageBytes: 1 * MiB,
};
