import { describe, expect, it } from "vitest";
import { PushTracker } from "./push-tracker.js";

describe("PushTracker", () => {
  it("credits the one user pushing to a repository, and nobody when two are", () => {
    const tracker = new PushTracker();
    const endAlice = tracker.begin(1, 10);
    expect(tracker.pusher(1)).toBe(10);
    tracker.begin(1, 20);
    endAlice();
    expect(tracker.pusher(1)).toBeNull();
    expect(tracker.pusher(2)).toBeNull();
  });

  it("credits the user whose recorded move touched the branch, even while others push", () => {
    const tracker = new PushTracker();
    tracker.begin(1, 10)();
    tracker.begin(1, 20)();
    tracker.moved(1, 20, ["topic"]);
    tracker.moved(1, 10, ["main"]);
    expect(tracker.pusher(1, "topic")).toBe(20);
    expect(tracker.pusher(1, "main")).toBe(10);
    // A branch nobody was seen moving falls back to the repository's pushers: two, so nobody.
    expect(tracker.pusher(1, "other")).toBeNull();
    // Another repository's branch of the same name is not credited.
    expect(tracker.pusher(2, "topic")).toBeNull();
  });
});
