import { describe, expect, it } from "vitest";
import { normalizeValue, secretName, variableName } from "./action-names.js";
import { parseWorkflow } from "./workflow-file.js";

describe("Actions names and workflow files", () => {
  it("takes Forgejo's secret names, upper-cased, and refuses the rest", () => {
    expect(secretName("deploy_key")).toBe("DEPLOY_KEY");
    expect(secretName("_x1")).toBe("_X1");
    for (const bad of ["", "1A", "A-B", "GITHUB_X", "gitea_x", "Forgejo_x", "A B", "é", "A".repeat(256)])
      expect(() => secretName(bad), bad).toThrow("invalid secret name");
  });

  it("refuses variables starting with CI, as Forgejo", () => {
    expect(variableName("my_var")).toBe("MY_VAR");
    expect(() => variableName("ci_thing")).toThrow("env name cannot be ci");
    expect(() => variableName("CIRCLE")).toThrow("env name cannot be ci");
  });

  it("keeps line breaks as a textarea sends them", () => {
    expect(normalizeValue("a\r\nb\nc")).toBe("a\nb\nc");
  });

  it("reads a workflow's name, jobs and dispatch inputs", () => {
    const parsed = parseWorkflow(
      "name: W\non:\n  workflow_dispatch:\n    inputs:\n      a: {required: true}\n      b: {default: 2}\njobs:\n  j1: {runs-on: x}\n  j2: {name: Second, runs-on: [x, y], needs: [j1]}\n",
    );
    expect(parsed.name).toBe("W");
    expect(parsed.jobs).toEqual([
      { id: "j1", name: "j1", needs: [], runsOn: ["x"] },
      { id: "j2", name: "Second", needs: ["j1"], runsOn: ["x", "y"] },
    ]);
    expect(parsed.inputs.get("a")).toEqual({ default: "", required: true, label: "a", boolean: false });
    expect(parsed.inputs.get("b")).toEqual({ default: "2", required: false, label: "b", boolean: false });
    // More than Forgejo's LIMIT_DISPATCH_INPUTS (100) inputs is refused.
    const many = Array.from({ length: 101 }, (_, i) => `      i${i}: {}`).join("\n");
    expect(() => parseWorkflow(`on:\n  workflow_dispatch:\n    inputs:\n${many}\njobs: {}\n`)).toThrow(
      /more than 100 inputs/,
    );
    expect(() => parseWorkflow("jobs: [unclosed")).toThrow(/invalid workflow/);
    expect(parseWorkflow("just text").jobs).toEqual([]);
  });
});
