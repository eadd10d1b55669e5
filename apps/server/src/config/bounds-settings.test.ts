import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("the keys that bound work", () => {
  it("default to the documented values", () => {
    const s = load("");
    expect(s.api).toMatchObject({ maxDirectoryEntries: 1000, maxChangeFiles: 100 });
    expect(s.repository).toMatchObject({ maxRefs: 50_000, maxFiles: 500_000 });
    expect(s.git).toEqual({
      maxProcesses: 32,
      maxStreams: 64,
      maxPerRepository: 8,
      maxOpenFiles: 256,
      queueTimeout: 30_000,
    });
  });

  it("are read from [api], [repository] and [git]", () => {
    const s = load(`
[api]
MAX_DIRECTORY_ENTRIES = 200
MAX_CHANGE_FILES = 10
[repository]
MAX_REFS = 1000
MAX_FILES = 20000
[git]
MAX_PROCESSES = 4
MAX_STREAMS = 6
MAX_PROCESSES_PER_REPO = 2
MAX_OPEN_FILES = 64
QUEUE_TIMEOUT = 5s
`);
    expect(s.api).toMatchObject({ maxDirectoryEntries: 200, maxChangeFiles: 10 });
    expect(s.repository).toMatchObject({ maxRefs: 1000, maxFiles: 20_000 });
    expect(s.git).toEqual({
      maxProcesses: 4,
      maxStreams: 6,
      maxPerRepository: 2,
      maxOpenFiles: 64,
      queueTimeout: 5000,
    });
  });

  it("stop on a value that would remove the bound, naming the key", () => {
    expect(() => load("[api]\nMAX_DIRECTORY_ENTRIES = 0\n")).toThrow("[api] MAX_DIRECTORY_ENTRIES");
    expect(() => load("[repository]\nMAX_REFS = -1\n")).toThrow("[repository] MAX_REFS");
    expect(() => load("[git]\nMAX_PROCESSES = 0\n")).toThrow("[git] MAX_PROCESSES");
    expect(() => load("[git]\nQUEUE_TIMEOUT = soon\n")).toThrow("[git] QUEUE_TIMEOUT");
  });
});
