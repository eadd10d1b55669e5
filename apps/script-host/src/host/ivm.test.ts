import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import ivm, { ivmPackage } from "./ivm.js";

describe("the isolated-vm build for this Node", () => {
  it("is isolated-vm 5 on Node 20 and 6 on Node 22 and later, and runs code", () => {
    const nodeMajor = Number(process.versions.node.split(".")[0]);
    const { version } = createRequire(import.meta.url)(`${ivmPackage}/package.json`) as { version: string };
    expect(Number(version.split(".")[0])).toBe(nodeMajor >= 22 ? 6 : 5);
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    try {
      expect(isolate.createContextSync().evalSync("[1, 2, 3].map((n) => n * 2).join()")).toBe("2,4,6");
    } finally {
      isolate.dispose();
    }
  });
});
