import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Real keys made at test time: a GnuPG home with keys from `gpg --batch --quick-gen-key`, and SSH
 * keys from `ssh-keygen`. Nothing is checked in; each helper lives in its own temporary directory.
 */
export interface GpgHome {
  readonly home: string;
  /** Generates an ed25519 signing key (with an encryption subkey) for `Name <email>`; returns its 16-hex id. */
  generate(name: string, email: string): string;
  /** The armored public keys of the given ids (one keyring holding them all). */
  exportArmored(...keyIds: string[]): string;
  /** An armored detached signature of `data` by a key. */
  sign(keyId: string, data: string): string;
  /** The environment that makes `gpg` and `git` use this home. */
  readonly env: NodeJS.ProcessEnv;
  close(): void;
}

export function gpgHome(): GpgHome {
  const home = mkdtempSync(join(tmpdir(), "kiln-gnupg-"));
  const env = { ...process.env, GNUPGHOME: home };
  const gpg = (args: string[], input?: string) =>
    execFileSync("gpg", ["--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase", "", ...args], {
      env,
      encoding: "utf8",
      ...(input !== undefined ? { input } : {}),
      stdio: ["pipe", "pipe", "ignore"],
    });
  return {
    home,
    env,
    generate(name, email) {
      const uid = `${name} <${email}>`;
      gpg(["--quick-gen-key", uid, "ed25519", "sign", "never"]);
      const listing = gpg(["--with-colons", "--list-keys", `=${uid}`]);
      const fingerprint =
        listing
          .split("\n")
          .find((l) => l.startsWith("fpr:"))
          ?.split(":")[9] ?? "";
      gpg(["--quick-add-key", fingerprint, "cv25519", "encr", "never"]);
      return fingerprint.slice(-16);
    },
    exportArmored(...keyIds) {
      return gpg(["--armor", "--export", ...keyIds]);
    },
    sign(keyId, data) {
      const file = join(home, "data.txt");
      writeFileSync(file, data);
      return gpg(["--armor", "--local-user", keyId, "--output", "-", "--detach-sign", file]);
    },
    close() {
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** An SSH key pair from `ssh-keygen`: the private key's path, the public key line and its SHA256 fingerprint. */
export interface SshKeyPair {
  readonly privateKey: string;
  readonly publicKey: string;
  readonly fingerprint: string;
}

/** Generates an SSH key pair in a fresh temporary directory (removed by `rmSync` of its parent by the caller). */
export function sshKeyPair(
  type: "ed25519" | "ecdsa" | "rsa" = "ed25519",
  comment = "kiln@test",
  bits?: number,
): SshKeyPair {
  const dir = mkdtempSync(join(tmpdir(), "kiln-ssh-"));
  const privateKey = join(dir, "id");
  execFileSync("ssh-keygen", [
    "-q",
    "-t",
    type,
    ...(bits ? ["-b", String(bits)] : []),
    "-N",
    "",
    "-C",
    comment,
    "-f",
    privateKey,
  ]);
  const publicKey = readFileSync(`${privateKey}.pub`, "utf8").trim();
  const listed = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${privateKey}.pub`], {
    encoding: "utf8",
  });
  return { privateKey, publicKey, fingerprint: listed.split(" ")[1] ?? "" };
}
