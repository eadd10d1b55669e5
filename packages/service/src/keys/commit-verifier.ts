import {
  type CommitInfo,
  type CommitSignature,
  type PushedCommit,
  readCommitSignatures,
  splitSignedCommit,
} from "@kiln/git";
import {
  type ActivatedEmail,
  type GpgKeyForVerification,
  gpgKeys,
  type PublicKeyRow,
  signers,
  sshKeys,
} from "@kiln/storage";
import type * as openpgp from "openpgp";
import type { ServiceContext } from "../context.js";
import {
  BAD_SIGNATURE,
  Bounded,
  type CommitVerification,
  EXTRACT_SIGN,
  emailsOf,
  NO_COMMITTER_ACCOUNT,
  NO_KEY_FOUND,
  UNSIGNED,
} from "./commit-verification.js";
import { readArmoredSignature, readStoredKey, signingKeyIds, verifyDetached } from "./gpg-key-parse.js";
import { parseSshSignature, type SshSignature, verifySshSignature } from "./sshsig.js";

/** A signed commit: its id, committer address and signature with the signed bytes. */
interface SignedCommit {
  readonly sha: string;
  readonly committer: { readonly email: string };
  readonly raw: CommitSignature;
}

interface Committer {
  readonly userId: number;
  readonly name: string;
  readonly email: string;
}

/** What verifying one list of commits needs, loaded with a fixed number of queries. */
interface Keyring {
  readonly committers: ReadonlyMap<string, Committer>;
  readonly gpg: readonly GpgKeyForVerification[];
  readonly ssh: ReadonlyMap<number, readonly PublicKeyRow[]>;
  readonly ownerEmails: ReadonlyMap<number, readonly ActivatedEmail[]>;
  readonly ownerNames: ReadonlyMap<number, string>;
}

/**
 * Verifies commit signatures as Forgejo's services/asymkey ParseCommitWithSignature does: GPG
 * signatures against the key the signature names (if any account registered it) and then the
 * committer's keys, SSH signatures (`-----BEGIN SSH SIGNATURE-----`, namespace `git`) against the
 * committer's SSH keys; the committer is the account with an activated address equal to the
 * commit's committer e-mail. A list of commits costs one `git cat-file` and a handful of queries
 * whatever its length; the cryptographic checks are remembered per commit and key.
 */
export class CommitVerifier {
  private readonly parsedKeys = new Bounded<string, openpgp.PublicKey | null>(512);
  private readonly gpgResults = new Bounded<string, string | null>(20_000);
  private readonly sshResults = new Bounded<string, boolean>(20_000);
  private readonly gpgSignatures = new Bounded<string, openpgp.Signature | null>(4096);

  constructor(private readonly ctx: ServiceContext) {}

  /** The verification of each commit, by sha. */
  async verify(gitdir: string, commits: readonly CommitInfo[]): Promise<Map<string, CommitVerification>> {
    const result = new Map<string, CommitVerification>();
    const signed = commits.filter((c) => c.signed);
    for (const c of commits) if (!c.signed) result.set(c.sha, UNSIGNED);
    if (signed.length === 0) return result;
    const signatures = await readCommitSignatures(
      gitdir,
      signed.map((c) => c.sha),
    );
    const found: SignedCommit[] = [];
    for (const commit of signed) {
      const raw = signatures.get(commit.sha);
      if (raw) found.push({ sha: commit.sha, committer: commit.committer, raw });
      else result.set(commit.sha, UNSIGNED);
    }
    for (const [sha, checked] of await this.verifySigned(found)) result.set(sha, checked);
    return result;
  }

  /**
   * The first of `commits` (raw objects, in order) that is unsigned or whose signature does not
   * verify: what a branch requiring signed commits refuses at push (Forgejo's pre-receive
   * verifyCommits), or whose verified signer is not the committer's account (Kiln is stricter than
   * display here). The objects come from the push's quarantine, so nothing is read from disk.
   */
  async firstUnverified(commits: readonly PushedCommit[]): Promise<string | undefined> {
    const found: SignedCommit[] = [];
    for (const commit of commits) {
      const raw = splitSignedCommit(commit.object);
      if (!raw) return commit.sha;
      const line = /^committer (.*) <([^>]*)> /m.exec(raw.payload.slice(0, raw.payload.indexOf("\n\n")));
      found.push({ sha: commit.sha, committer: { email: line?.[2] ?? "" }, raw });
    }
    const committers = new Map<string, string>();
    const checked = await this.verifySigned(found, committers);
    // Enforcement asks more than display: the signer must be the committer's own account, so a
    // key registered by one user cannot vouch for a commit made in another's name.
    return found.find((c) => {
      const v = checked.get(c.sha);
      return v?.verified !== true || v.signer?.name === undefined || v.signer.name !== committers.get(c.sha);
    })?.sha;
  }

  /** Verifies signed commits; `committers`, when given, gets each commit's committer account name. */
  private async verifySigned(
    signed: readonly SignedCommit[],
    committers?: Map<string, string>,
  ): Promise<Map<string, CommitVerification>> {
    const result = new Map<string, CommitVerification>();
    if (signed.length === 0) return result;
    const parsed = new Map<string, { gpg?: openpgp.Signature; ssh?: SshSignature; raw: CommitSignature }>();
    const keyIds = new Set<string>();
    for (const { sha, raw } of signed) {
      if (raw.signature.startsWith("-----BEGIN SSH SIGNATURE-----")) {
        const ssh = parseSshSignature(raw.signature);
        parsed.set(sha, { raw, ...(ssh ? { ssh } : {}) });
      } else {
        const gpg = await this.gpgSignature(sha, raw.signature);
        if (gpg) for (const id of signingKeyIds(gpg)) keyIds.add(id);
        parsed.set(sha, { raw, ...(gpg ? { gpg } : {}) });
      }
    }
    const keyring = await this.keyring(
      signed.map((c) => c.committer.email),
      [...keyIds],
      [...parsed.values()].some((p) => p.raw.signature.startsWith("-----BEGIN SSH")),
    );
    for (const commit of signed) {
      const entry = parsed.get(commit.sha);
      if (!entry) continue;
      const base = { signature: entry.raw.signature, payload: entry.raw.payload };
      const committer = keyring.committers.get(commit.committer.email.toLowerCase());
      if (committer) committers?.set(commit.sha, committer.name);
      let outcome: Omit<CommitVerification, "signature" | "payload">;
      if (entry.raw.signature.startsWith("-----BEGIN SSH SIGNATURE-----")) {
        outcome = entry.ssh
          ? this.checkSsh(commit, entry.ssh, entry.raw.payload, committer, keyring)
          : { verified: false, reason: NO_KEY_FOUND };
      } else if (!entry.gpg) {
        outcome = { verified: false, reason: EXTRACT_SIGN };
      } else {
        outcome = await this.checkGpg(commit, entry.gpg, entry.raw.payload, committer, keyring);
      }
      result.set(commit.sha, { ...outcome, ...base });
    }
    return result;
  }

  private async gpgSignature(sha: string, armored: string): Promise<openpgp.Signature | undefined> {
    if (!this.gpgSignatures.has(sha))
      this.gpgSignatures.set(sha, (await readArmoredSignature(armored)) ?? null);
    return this.gpgSignatures.get(sha) ?? undefined;
  }

  private async keyring(
    emails: readonly string[],
    keyIds: readonly string[],
    wantSsh: boolean,
  ): Promise<Keyring> {
    const db = this.ctx.db;
    const owners = await signers.activatedEmailOwners(db, emails);
    const committers = new Map<string, Committer>(
      owners.map((o) => [o.lowerEmail, { userId: o.userId, name: o.userName, email: o.email }]),
    );
    const committerIds = [...new Set(owners.map((o) => o.userId))];
    const gpg = await gpgKeys.gpgKeysForVerification(db, committerIds, keyIds);
    const sshRows = wantSsh ? await sshKeys.userKeysOf(db, committerIds) : [];
    const ssh = new Map<number, PublicKeyRow[]>();
    for (const row of sshRows) {
      if (row.ownerId === null) continue;
      ssh.set(row.ownerId, [...(ssh.get(row.ownerId) ?? []), row]);
    }
    const keyOwners = [...new Set(gpg.map((k) => k.ownerId))];
    const verifiedOwners = [...new Set(gpg.filter((k) => k.verified).map((k) => k.ownerId))];
    const ownerEmails = new Map<number, ActivatedEmail[]>();
    for (const e of await signers.activatedEmailsOf(db, verifiedOwners)) {
      ownerEmails.set(e.userId, [...(ownerEmails.get(e.userId) ?? []), e]);
    }
    return { committers, gpg, ssh, ownerEmails, ownerNames: await signers.accountNames(db, keyOwners) };
  }

  private checkSsh(
    commit: SignedCommit,
    signature: SshSignature,
    payload: string,
    committer: Committer | undefined,
    keyring: Keyring,
  ): Omit<CommitVerification, "signature" | "payload"> {
    if (committer) {
      for (const key of keyring.ssh.get(committer.userId) ?? []) {
        const cacheKey = `${commit.sha}:${key.id}`;
        let ok = this.sshResults.get(cacheKey);
        if (ok === undefined) {
          const blob = Buffer.from(key.content.split(" ")[1] ?? "", "base64");
          ok = verifySshSignature(payload, signature, blob, "git");
          this.sshResults.set(cacheKey, ok);
        }
        if (ok) {
          return {
            verified: true,
            reason: `${committer.name} / ${key.fingerprint}`,
            signer: { name: committer.name, email: commit.committer.email },
          };
        }
      }
    }
    return { verified: false, reason: NO_KEY_FOUND };
  }

  private async checkGpg(
    commit: SignedCommit,
    signature: openpgp.Signature,
    payload: string,
    committer: Committer | undefined,
    keyring: Keyring,
  ): Promise<Omit<CommitVerification, "signature" | "payload">> {
    let defaultReason = NO_KEY_FOUND;
    const keyId = signingKeyIds(signature)[0] ?? "";
    // Forgejo's HashAndVerifyForKeyID: the key the signature names, whoever registered it.
    const named = keyId
      ? keyring.gpg.filter((k) => k.keyId === keyId || k.subkeys.some((s) => s.keyId === keyId))
      : [];
    if (named.length > 0) {
      for (const key of named) {
        const email = this.acceptedEmail(key, keyring);
        if (email === undefined) continue;
        const owner = keyring.ownerNames.get(key.ownerId);
        if (owner === undefined) return { verified: false, reason: NO_COMMITTER_ACCOUNT };
        const signer = await this.signerKey(commit.sha, signature, payload, key);
        if (signer) return { verified: true, reason: `${owner} / ${signer}`, signer: { name: owner, email } };
      }
      defaultReason = BAD_SIGNATURE;
    }
    // Then the committer's own keys that can vouch for the committer address.
    if (committer) {
      const lower = commit.committer.email.toLowerCase();
      for (const key of keyring.gpg) {
        if (key.ownerId !== committer.userId) continue;
        const listed = emailsOf(key).find((e) => e.toLowerCase() === lower);
        const email = key.verified ? commit.committer.email : listed;
        if (email === undefined) continue;
        const signer = await this.signerKey(commit.sha, signature, payload, key);
        if (signer) {
          return {
            verified: true,
            reason: `${committer.name} / ${signer}`,
            signer: { name: committer.name, email },
          };
        }
      }
    }
    return { verified: false, reason: defaultReason };
  }

  /** Forgejo's checkKeyEmails with no e-mail asked for: an activated address the key may speak for. */
  private acceptedEmail(key: GpgKeyForVerification, keyring: Keyring): string | undefined {
    const [listed] = emailsOf(key);
    if (listed !== undefined) return listed;
    if (key.verified) return keyring.ownerEmails.get(key.ownerId)?.[0]?.email;
    return undefined;
  }

  /** The id of the key or subkey of `key` that made the signature, remembered per commit and key. */
  private async signerKey(
    sha: string,
    signature: openpgp.Signature,
    payload: string,
    key: GpgKeyForVerification,
  ): Promise<string | undefined> {
    const cacheKey = `${sha}:${key.id}`;
    if (!this.gpgResults.has(cacheKey)) {
      const parsed = await this.publicKey(key);
      const signer = parsed ? await verifyDetached(payload, signature, [parsed]) : undefined;
      this.gpgResults.set(cacheKey, signer ?? null);
    }
    return this.gpgResults.get(cacheKey) ?? undefined;
  }

  private async publicKey(key: GpgKeyForVerification): Promise<openpgp.PublicKey | undefined> {
    const cacheKey = String(key.id);
    if (!this.parsedKeys.has(cacheKey))
      this.parsedKeys.set(cacheKey, (await readStoredKey(key.armored)) ?? null);
    return this.parsedKeys.get(cacheKey) ?? undefined;
  }
}

export {
  BAD_SIGNATURE,
  type CommitVerification,
  EXTRACT_SIGN,
  NO_COMMITTER_ACCOUNT,
  NO_KEY_FOUND,
  NOT_SIGNED,
} from "./commit-verification.js";
