import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("[ssh] settings", () => {
  it("defaults to Forgejo's minimum key sizes, checked", () => {
    expect(load("").ssh).toEqual({
      minimumKeySizeCheck: true,
      minimumKeySizes: { ed25519: 256, "ed25519-sk": 256, ecdsa: 256, "ecdsa-sk": 256, rsa: 3071 },
    });
  });

  it("reads [ssh.minimum_key_sizes]: a size replaces the default, -1 refuses the type, new types are added", () => {
    const ssh = load(
      "[ssh]\nMINIMUM_KEY_SIZE_CHECK = false\n[ssh.minimum_key_sizes]\nRSA = 4096\nECDSA = -1\nDSA = 1024",
    ).ssh;
    expect(ssh.minimumKeySizeCheck).toBe(false);
    expect(ssh.minimumKeySizes).toEqual({
      ed25519: 256,
      "ed25519-sk": 256,
      "ecdsa-sk": 256,
      rsa: 4096,
      dsa: 1024,
    });
  });

  it("refuses a size that is not a number", () => {
    expect(() => load("[ssh.minimum_key_sizes]\nRSA = big")).toThrow(ConfigError);
  });
});
