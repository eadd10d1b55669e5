import { describe, expect, it } from "vitest";
import { KeyedMutex } from "./keyed-mutex.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("KeyedMutex", () => {
  it("runs tasks on one key one at a time, in order", async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([mutex.run("k", task("a")), mutex.run("k", task("b"))]);
    expect(results).toEqual(["a", "b"]);
    expect(log).toEqual(["a start", "a end", "b start", "b end"]);
    expect(mutex.isLocked("k")).toBe(false);
  });

  it("does not make different keys wait, and survives a failing task", async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const failing = mutex.run("k", async () => {
      await tick();
      throw new Error("boom");
    });
    const other = mutex.run("j", async () => log.push("j"));
    const after = mutex.run("k", async () => log.push("k"));
    await expect(failing).rejects.toThrow("boom");
    await Promise.all([other, after]);
    expect(log).toEqual(["j", "k"]);
  });

  it("takes several keys without deadlocking against the reverse order", async () => {
    const mutex = new KeyedMutex();
    const done = await Promise.all([
      mutex.runAll(["a", "b"], async () => "ab"),
      mutex.runAll(["b", "a"], async () => "ba"),
    ]);
    expect(done).toEqual(["ab", "ba"]);
  });
});
