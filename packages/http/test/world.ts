import type { SettingsOverrides } from "@kiln/domain";
import type { DialectName } from "@kiln/storage/testing";
import { expect } from "vitest";
import { type CallResult, openTestApp, type TestApp, type TestUser } from "./support.js";

/** Calls the world's repository (`sub` is appended to its API path) as `user`, or anonymously. */
export type AsCaller = (
  user: TestUser | null,
  method: string,
  sub: string,
  body?: unknown,
) => Promise<CallResult>;

/** What a test's world is made of, in the order the setup builds it. */
export interface WorldSpec<Names extends readonly string[] = readonly string[]> {
  readonly settings?: SettingsOverrides;
  /** Accounts to create, by name; the first one owns the organization and the repository. */
  readonly users: Names;
  /** Which of those accounts are site admins. */
  readonly admins?: readonly string[];
  /** An organization the first user creates; the repository then belongs to it. */
  readonly org?: string;
  /** A repository (with a README commit on `main` unless `empty`). */
  readonly repo?: { readonly name: string; readonly private?: boolean; readonly empty?: boolean };
  /** Collaborators of the repository, by user name. */
  readonly collaborators?: Readonly<Record<string, "read" | "write" | "admin">>;
}

/** The app, the accounts in the spec's order, the repository's API path, and a caller for it. */
export interface World<Names extends readonly string[] = readonly string[]> {
  readonly t: TestApp;
  /** One account per name of the spec, in its order, so a test can destructure them. */
  readonly users: { -readonly [K in keyof Names]: TestUser };
  /** `/repos/{owner}/{name}` of the spec's repository ("" when it has none). */
  readonly path: string;
  readonly as: AsCaller;
}

/**
 * Opens a test app over a fresh database and builds the usual cast of a repository test through
 * the API, as a Forgejo client would: accounts with tokens, an optional organization, a
 * repository and its collaborators. Every step is asserted, so a broken setup fails where it breaks.
 */
export async function openWorld<const Names extends readonly string[]>(
  dialect: DialectName,
  spec: WorldSpec<Names>,
): Promise<World<Names>> {
  const t = await openTestApp(dialect, spec.settings);
  const users: TestUser[] = [];
  for (const name of spec.users)
    users.push(await t.user({ name, admin: spec.admins?.includes(name) ?? false }));
  const owner = users[0];
  const path = spec.repo ? `/repos/${spec.org ?? owner?.name}/${spec.repo.name}` : "";
  const as: AsCaller = (user, method, sub, body) =>
    t.call(method, `${path}${sub}`, {
      ...(user ? { token: user.token } : {}),
      ...(body !== undefined ? { body } : {}),
    });
  const world = { t, users: users as World<Names>["users"], path, as };
  if (!owner) return world;
  const call = (method: string, p: string, body: unknown) => t.call(method, p, { token: owner.token, body });
  if (spec.org) expect((await call("POST", "/orgs", { username: spec.org })).status).toBe(201);
  if (spec.repo) {
    const created = await call("POST", spec.org ? `/orgs/${spec.org}/repos` : "/user/repos", {
      name: spec.repo.name,
      auto_init: !spec.repo.empty,
      private: spec.repo.private ?? false,
    });
    expect(created.status).toBe(201);
  }
  for (const [name, permission] of Object.entries(spec.collaborators ?? {})) {
    expect((await call("PUT", `${path}/collaborators/${name}`, { permission })).status).toBe(204);
  }
  return world;
}
