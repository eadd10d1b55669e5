import { repositories } from "@kiln/storage";
import type { DialectName } from "@kiln/storage/testing";
import { afterAll, beforeAll, expect } from "vitest";
import { type CallResult, openTestApp, type TestApp, type TestUser } from "./support.js";

/** Who looks at the organizations of the organization and team tests. */
export type Viewer = "admin" | "owner" | "reader" | "writer" | "outsider" | "anonymous";
export const VIEWERS: Viewer[] = ["admin", "owner", "reader", "writer", "outsider", "anonymous"];
export const VISIBILITIES = ["public", "limited", "private"] as const;

/** Three organizations (one per visibility) with readers and writers teams, members and repositories. */
export interface OrgWorld {
  readonly who: Record<Exclude<Viewer, "anonymous">, TestUser>;
  /** The organization's name per visibility. */
  readonly org: Record<(typeof VISIBILITIES)[number], string>;
  /** The team ids per organization name. */
  readonly teamIds: Record<string, { readers: number; writers: number; owners: number }>;
  /** Calls the API as a viewer (its token; none for anonymous). */
  as(viewer: Viewer, method: string, path: string, body?: unknown): Promise<CallResult>;
}

/**
 * Builds the world over a real HTTP socket before the tests of the calling `describe` (and closes
 * it after them); the tests read it once `beforeAll` has run.
 */
export function orgWorld(dialect: DialectName): OrgWorld {
  let t: TestApp;
  const who = {} as OrgWorld["who"];
  const org = {} as OrgWorld["org"];
  const teamIds = {} as OrgWorld["teamIds"];

  const as = (viewer: Viewer, method: string, path: string, body?: unknown) =>
    t.call(method, path, {
      ...(viewer === "anonymous" ? {} : { token: who[viewer].token }),
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    t = await openTestApp(dialect, {}, { listen: true });
    who.admin = await t.user({ admin: true, name: "site-admin" });
    for (const n of ["owner", "reader", "writer", "outsider"] as const)
      who[n] = await t.user({ name: `the-${n}` });
    for (const visibility of VISIBILITIES) {
      const name = `org-${visibility}`;
      org[visibility] = name;
      const created = await as("owner", "POST", "/orgs", {
        username: name,
        full_name: `Org ${visibility}`,
        visibility,
      });
      expect(created.status).toBe(201);
      const readers = await as("owner", "POST", `/orgs/${name}/teams`, {
        name: "readers",
        permission: "read",
        units: ["repo.code", "repo.issues"],
      });
      expect(readers.status).toBe(201);
      const writers = await as("owner", "POST", `/orgs/${name}/teams`, {
        name: "writers",
        units_map: { "repo.code": "write", "repo.pulls": "write", "repo.issues": "read" },
        includes_all_repositories: true,
      });
      expect(writers.status).toBe(201);
      const teams = await as("owner", "GET", `/orgs/${name}/teams`);
      teamIds[name] = {
        readers: readers.json.id,
        writers: writers.json.id,
        owners: teams.json.find((x: { name: string }) => x.name === "Owners").id,
      };
      expect((await as("owner", "PUT", `/teams/${readers.json.id}/members/${who.reader.name}`)).status).toBe(
        204,
      );
      expect((await as("owner", "PUT", `/teams/${writers.json.id}/members/${who.writer.name}`)).status).toBe(
        204,
      );
      expect((await as("reader", "PUT", `/orgs/${name}/public_members/${who.reader.name}`)).status).toBe(204);
      // Repositories come from the repository API; here they are stored directly.
      const owner = await t.services.users.getByName(name);
      const repo = (n: string, isPrivate: boolean) =>
        repositories.insertRepository(t.services.ctx.db, {
          ownerId: owner.id,
          ownerName: name,
          name: n,
          lowerName: n,
          isPrivate,
        });
      await repo("public-repo", false);
      await repo("private-repo", true);
      await repo("team-repo", true);
      expect((await as("owner", "PUT", `/teams/${readers.json.id}/repos/${name}/team-repo`)).status).toBe(
        204,
      );
    }
  });
  afterAll(() => t?.close());
  return { who, org, teamIds, as };
}
