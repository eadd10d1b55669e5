import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SSH_MINIMUM_KEY_SIZES } from "@kiln/domain";
import { afterAll, describe, expect, it } from "vitest";
import { parseSshPublicKey } from "./ssh-key-parse.js";
import { parseSshSignature, verifySshSignature } from "./sshsig.js";

const settings = { minimumKeySizeCheck: true, minimumKeySizes: DEFAULT_SSH_MINIMUM_KEY_SIZES };
const dir = mkdtempSync(join(tmpdir(), "kiln-ssh-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Generates a key with ssh-keygen and signs `message` with it in the `git` namespace. */
function generate(name: string, args: string[], message: string) {
  const file = join(dir, name);
  execFileSync("ssh-keygen", ["-q", "-N", "", "-C", `${name}@example.com`, "-f", file, ...args]);
  writeFileSync(join(dir, `${name}.msg`), message);
  execFileSync("ssh-keygen", ["-Y", "sign", "-n", "git", "-f", file, join(dir, `${name}.msg`)], {
    stdio: "ignore",
  });
  const fingerprint = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`], {
    encoding: "utf8",
  });
  return {
    pub: readFileSync(`${file}.pub`, "utf8"),
    sig: readFileSync(join(dir, `${name}.msg.sig`), "utf8"),
    fingerprint: fingerprint.split(" ")[1],
  };
}

describe.each([
  ["ed25519", ["-t", "ed25519"]],
  ["ecdsa", ["-t", "ecdsa", "-b", "256"]],
  ["rsa", ["-t", "rsa", "-b", "3072"]],
])("an %s key from ssh-keygen", (name, args) => {
  const key = generate(name, args, "tree abc\n\nmessage\n");

  it("parses with ssh-keygen's fingerprint and keeps its comment", () => {
    const parsed = parseSshPublicKey(key.pub, settings);
    expect(parsed.fingerprint).toBe(key.fingerprint);
    expect(parsed.content).toBe(key.pub.trim());
  });

  it("verifies its own signature of the message and nothing else", () => {
    const parsed = parseSshPublicKey(key.pub, settings);
    const sig = parseSshSignature(key.sig);
    expect(sig).toBeDefined();
    if (!sig) return;
    expect(verifySshSignature("tree abc\n\nmessage\n", sig, parsed.blob, "git")).toBe(true);
    expect(verifySshSignature("tree abc\n\nmessagE\n", sig, parsed.blob, "git")).toBe(false);
    expect(verifySshSignature("tree abc\n\nmessage\n", sig, parsed.blob, "file")).toBe(false);
    const other = parseSshPublicKey(generate(`${name}-other`, args, "x").pub, settings);
    expect(verifySshSignature("tree abc\n\nmessage\n", sig, other.blob, "git")).toBe(false);
  });
});

describe("refused keys (Forgejo's messages)", () => {
  it.each([
    ["garbage", "not a key", /^Invalid key content: extractTypeFromBase64Key: invalid key format/],
    [
      "short blob",
      "ssh-ed25519 AAAAEHNzaA==",
      /^Invalid key content: extractTypeFromBase64Key: invalid key format: not enough length/,
    ],
    [
      "mismatched type",
      "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIAbcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS",
      /^Invalid key content: key type and content does not match: ssh-rsa - ssh-ed25519/,
    ],
    ["empty", "   ", /^Invalid key content: empty key$/],
  ])("%s", (_, text, message) => {
    expect(() => parseSshPublicKey(text, settings)).toThrow(message);
  });

  it("a 2048-bit RSA key is below Forgejo's default minimum", () => {
    const key = generate("rsa-small", ["-t", "rsa", "-b", "2048"], "x");
    expect(() => parseSshPublicKey(key.pub, settings)).toThrow(
      "Invalid key content: key length is not enough: got 2048, needs 3071",
    );
    expect(parseSshPublicKey(key.pub, { ...settings, minimumKeySizeCheck: false }).fingerprint).toBe(
      key.fingerprint,
    );
  });

  it("a type absent from [ssh.minimum_key_sizes] is refused", () => {
    const key = generate("ecdsa-refused", ["-t", "ecdsa"], "x");
    expect(() => parseSshPublicKey(key.pub, { ...settings, minimumKeySizes: { ed25519: 256 } })).toThrow(
      "key type is not allowed: ecdsa",
    );
  });
});
