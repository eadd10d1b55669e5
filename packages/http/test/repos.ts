import { existsSync } from "node:fs";
import { join } from "node:path";
import { quotaUsage } from "@kiln/storage";
import { expect } from "vitest";
import type { TestApp, TestUser } from "./support.js";

/** A repository created over the API, with where its bare repository lives on disk. */
export interface TestRepo {
  readonly name: string;
  readonly path: string;
  readonly gitdir: string;
  readonly id: number;
}

/** Creates a repository for `user` through `POST /user/repos` (with a README commit unless `empty`). */
export async function createRepo(
  t: TestApp,
  user: TestUser,
  name: string,
  opts: { empty?: boolean; private?: boolean; defaultBranch?: string } = {},
): Promise<TestRepo> {
  const res = await t.call("POST", "/user/repos", {
    token: user.token,
    body: {
      name,
      auto_init: !opts.empty,
      private: opts.private ?? false,
      ...(opts.defaultBranch ? { default_branch: opts.defaultBranch } : {}),
    },
  });
  expect(res.status).toBe(201);
  const owner = await t.services.users.getByName(user.name);
  const repo = await t.services.repositories.findByName(owner, name);
  if (!repo) throw new Error(`repository ${name} was not created`);
  const git = await t.services.repositories.git(repo);
  return { name, path: `/repos/${user.name}/${name}`, gitdir: git.gitdir, id: repo.id };
}

/** Re-reads size and emptiness after writing to the repository behind the API's back. */
export async function refresh(t: TestApp, repo: TestRepo): Promise<void> {
  await t.services.repositories.refreshSize(repo.id);
}

/** Base64 of a UTF-8 string, as the contents API takes file content. */
export function b64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

/** The quota ledger's usage of an account, by name. */
export async function usageOf(t: TestApp, name: string) {
  return quotaUsage.getUsage(t.services.ctx.db, (await t.services.users.getByName(name)).id);
}

/** Whether the bare repository `owner/name` exists on disk. */
export function repoOnDisk(t: TestApp, owner: string, name: string): boolean {
  return existsSync(join(t.settings.repository.root, owner.toLowerCase(), `${name.toLowerCase()}.git`));
}
