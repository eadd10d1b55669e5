import { describe, expect, it } from "vitest";
import { EventRecorder } from "./recorder.js";

/** A promise and the function that resolves it, so a test decides when work ends. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("EventRecorder's after-commit stage", () => {
  it("settles only once queued work, and work it queued in turn, has finished", async () => {
    const recorder = new EventRecorder();
    const first = gate();
    const done: string[] = [];
    recorder.afterCommit({
      name: "first",
      run: async () => {
        await first.promise;
        done.push("first");
        recorder.afterCommit({ name: "second", run: async () => void done.push("second") });
      },
    });
    let settled = false;
    const waiting = recorder.settled().then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    first.open();
    await waiting;
    expect(done).toEqual(["first", "second"]);
  });

  it("reports a failed task instead of throwing it, and still settles", async () => {
    const recorder = new EventRecorder();
    const failures: string[] = [];
    recorder.onAfterCommitFailure((task, error) => failures.push(`${task}: ${(error as Error).message}`));
    recorder.afterCommit({
      name: "pull re-check",
      run: async () => {
        throw new Error("gone");
      },
    });
    await recorder.settled();
    expect(failures).toEqual(["pull re-check: gone"]);
  });

  it("settles at once when nothing was queued", async () => {
    await expect(new EventRecorder().settled()).resolves.toBeUndefined();
  });
});
