import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { emails, gpgKeys, repositories, signers, sshKeys, users } from "./index.js";

describe.each(DIALECTS)("SSH, deploy and GPG keys on %s", (dialect) => {
  let t: TestDatabase;
  let ownerId: number;
  let otherId: number;
  let repoIds: number[];
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const make = async () => {
      const name = uniqueName("keys");
      return users.insertUser(t.db, { name, lowerName: name });
    };
    const owner = await make();
    ownerId = owner.id;
    otherId = (await make()).id;
    repoIds = [];
    for (const name of ["a", "b"]) {
      const repo = await repositories.insertRepository(t.db, {
        ownerId,
        ownerName: owner.name,
        name,
        lowerName: name,
        defaultBranch: "main",
      });
      repoIds.push(repo.id);
    }
  });
  afterAll(() => t?.close());

  it("shares one public key between deployments and removes it with the last one", async () => {
    const [a = 0, b = 0] = repoIds;
    const values = {
      name: "ci",
      fingerprint: `SHA256:${uniqueName("fp")}`,
      content: "ssh-ed25519 AAAA x",
      mode: 1,
    };
    const inA = await sshKeys.insertDeployKey(t.db, { ...values, repoId: a });
    const inB = await sshKeys.insertDeployKey(t.db, { ...values, repoId: b });
    expect(inB.keyId).toBe(inA.keyId);
    expect(await sshKeys.deployKeyClash(t.db, a, "other", values.fingerprint)).toBe("key");
    expect(await sshKeys.deployKeyClash(t.db, a, "ci", "SHA256:else")).toBe("name");
    expect((await sshKeys.listDeployKeys(t.db, a, { page: 1, limit: 10 }, { keyId: inA.keyId })).total).toBe(
      1,
    );
    expect(await sshKeys.deleteDeployKey(t.db, a, inB.id)).toBe(false);
    expect(await sshKeys.deleteDeployKey(t.db, a, inA.id)).toBe(true);
    expect(await sshKeys.findKeyByFingerprint(t.db, values.fingerprint)).toBeDefined();
    expect(await sshKeys.deleteDeployKey(t.db, b, inB.id)).toBe(true);
    expect(await sshKeys.findKeyByFingerprint(t.db, values.fingerprint)).toBeUndefined();
  });

  it("finds the keys a commit list needs by owner and by primary or subkey id, in one call", async () => {
    const part = (keyId: string) => ({
      ownerId,
      keyId,
      content: "AA==",
      createdAt: new Date("2026-01-01T00:00:00Z"),
      expiresAt: null,
      canSign: true,
      canEncryptComms: false,
      canEncryptStorage: false,
      canCertify: true,
    });
    const primary = uniqueName("P").toUpperCase().slice(0, 16);
    const sub = uniqueName("S").toUpperCase().slice(0, 16);
    const stored = await gpgKeys.insertGpgKey(t.db, {
      ...part(primary),
      emails: "[]",
      verified: false,
      armored: "armored text",
      subkeys: [part(sub)],
    });
    expect(stored.subkeys.map((s) => s.primaryKeyId)).toEqual([primary]);
    const bySub = await gpgKeys.gpgKeysForVerification(t.db, [], [sub]);
    expect(bySub.map((k) => [k.keyId, k.armored, k.subkeys.length])).toEqual([[primary, "armored text", 1]]);
    expect((await gpgKeys.gpgKeysForVerification(t.db, [ownerId], [])).map((k) => k.keyId)).toContain(
      primary,
    );
    expect(await gpgKeys.gpgKeysForVerification(t.db, [otherId], ["0000000000000000"])).toEqual([]);
    expect(await gpgKeys.primaryKeyIdUsed(t.db, primary)).toBe(true);
    expect(await gpgKeys.primaryKeyIdUsed(t.db, sub)).toBe(false);
    expect(await gpgKeys.deleteGpgKey(t.db, otherId, stored.id)).toBe(false);
    expect(await gpgKeys.deleteGpgKey(t.db, ownerId, stored.id)).toBe(true);
    expect(await gpgKeys.gpgKeysForVerification(t.db, [], [sub])).toEqual([]);
  });

  it("finds committers by activated address only, in any case", async () => {
    const on = `${uniqueName("on")}@Example.com`;
    const off = `${uniqueName("off")}@example.com`;
    await emails.insertEmail(t.db, { userId: ownerId, email: on, isPrimary: false });
    await emails.insertEmail(t.db, { userId: ownerId, email: off, isPrimary: false, isActivated: false });
    const found = await signers.activatedEmailOwners(t.db, [on.toUpperCase(), off, ""]);
    expect(found.map((f) => [f.userId, f.email])).toEqual([[ownerId, on]]);
    expect((await signers.activatedEmailsOf(t.db, [ownerId])).map((e) => e.email)).toEqual([on]);
    expect((await signers.accountNames(t.db, [ownerId])).size).toBe(1);
  });
});
