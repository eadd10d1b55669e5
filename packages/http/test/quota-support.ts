import type { UsageDelta } from "@kiln/service";
import { repositories } from "@kiln/storage";
import type { DialectName } from "@kiln/storage/testing";
import { uniqueName } from "@kiln/storage/testing";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type CallResult, openTestApp, type TestApp, type TestUser } from "./support.js";

/**
 * Stores a repository for an owner and records it in the quota ledger, in one transaction, as the
 * repository API will (it is built separately; quota tests store repositories directly).
 */
export async function addRepository(
  t: TestApp,
  owner: { id: number; name: string },
  opts: { isPrivate?: boolean; gitSize: number; lfsSize?: number },
): Promise<void> {
  await t.services.ctx.db.transaction().execute(async (trx) => {
    const name = uniqueName("repo");
    const repo = await repositories.insertRepository(trx, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
      isPrivate: opts.isPrivate ?? false,
      gitSize: opts.gitSize,
      lfsSize: opts.lfsSize ?? 0,
    });
    await t.services.ledger.recordRepositoryChange(trx, undefined, repo);
  });
}

/**
 * Records usage of kinds Kiln does not store yet (attachments, packages, artifacts) straight
 * through the ledger, the one writer of the counters those features will call.
 */
export async function recordUsage(t: TestApp, ownerId: number, delta: UsageDelta): Promise<void> {
  await t.services.ctx.db.transaction().execute((trx) => t.services.ledger.record(trx, ownerId, delta));
}

/** The site admin's side of the quota administration tests: an app, an admin and cleanup. */
export interface QuotaAdminContext {
  /** The app, once `beforeAll` has run. */
  readonly t: TestApp;
  /** A site admin, once `beforeAll` has run. */
  readonly admin: TestUser;
  /** Calls the API as the site admin. */
  as(method: string, path: string, body?: unknown): Promise<CallResult>;
  /** Creates a quota rule (201 expected). */
  createRule(rule: object): Promise<void>;
  /** Creates an empty quota group (201 expected). */
  createGroup(name: string): Promise<void>;
}

/**
 * Opens an app with a site admin before the tests of the calling `describe` and closes it after
 * them; each test deletes the groups and rules it created, as each of Forgejo's tests does.
 */
export function quotaAdminContext(dialect: DialectName): QuotaAdminContext {
  const q = {} as { t: TestApp; admin: TestUser };
  const as = (method: string, path: string, body?: unknown) =>
    q.t.call(method, path, { token: q.admin.token, ...(body !== undefined ? { body } : {}) });
  beforeAll(async () => {
    q.t = await openTestApp(dialect);
    q.admin = await q.t.user({ admin: true });
  });
  afterAll(() => q.t?.close());
  afterEach(async () => {
    for (const g of (await as("GET", "/admin/quota/groups")).json)
      expect((await as("DELETE", `/admin/quota/groups/${g.name}`)).status).toBe(204);
    for (const r of (await as("GET", "/admin/quota/rules")).json)
      expect((await as("DELETE", `/admin/quota/rules/${r.name}`)).status).toBe(204);
  });
  return {
    get t() {
      return q.t;
    },
    get admin() {
      return q.admin;
    },
    as,
    createRule: async (rule) => {
      expect((await as("POST", "/admin/quota/rules", rule)).status).toBe(201);
    },
    createGroup: async (name) => {
      expect((await as("POST", "/admin/quota/groups", { name })).status).toBe(201);
    },
  };
}

/** A rule that denies everything. */
export const ruleDenyAll = { name: "deny-all", limit: 0, subjects: ["size:all"] };
