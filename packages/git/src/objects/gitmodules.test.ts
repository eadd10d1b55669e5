import { describe, expect, it } from "vitest";
import { parseGitmodules } from "./gitmodules.js";

describe("parseGitmodules", () => {
  it("reads path and url per submodule section", () => {
    const text =
      '[submodule "a"]\n\tpath = libs/a\n\turl = https://x/a.git\n[core]\n\tpath = no\n[submodule "b"]\n  url=../b.git\n  path=b\n[submodule "c"]\n\tpath = c\n';
    expect(parseGitmodules(text)).toEqual([
      { name: "a", path: "libs/a", url: "https://x/a.git" },
      { name: "b", path: "b", url: "../b.git" },
    ]);
  });
});
