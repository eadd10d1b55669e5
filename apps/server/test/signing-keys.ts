import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Keys made at test time for the signature tests: a GnuPG home (`gpg --batch --quick-gen-key`,
 * no passphrase) and SSH keys from `ssh-keygen`, all under a directory the caller owns.
 */
export function gpgGenerate(home: string, uid: string): string {
  const run = (args: string[]) =>
    execFileSync("gpg", ["--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase", "", ...args], {
      env: { ...process.env, GNUPGHOME: home },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  run(["--quick-gen-key", uid, "ed25519", "sign", "never"]);
  const listing = run(["--with-colons", "--list-keys", `=${uid}`]);
  return (
    listing
      .split("\n")
      .find((l) => l.startsWith("fpr:"))
      ?.split(":")[9] ?? ""
  ).slice(-16);
}

/** The armored public keys of `ids` from a GnuPG home, as one keyring. */
export function gpgExport(home: string, ...ids: string[]): string {
  return execFileSync("gpg", ["--batch", "--armor", "--export", ...ids], {
    env: { ...process.env, GNUPGHOME: home },
    encoding: "utf8",
  });
}

/** An ed25519 SSH key pair in `dir`: the private key's path and the public key line. */
export function sshGenerate(dir: string, name: string): { privateKey: string; publicKey: string } {
  const privateKey = join(dir, name);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", privateKey]);
  return { privateKey, publicKey: readFileSync(`${privateKey}.pub`, "utf8").trim() };
}
