import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { orgWorld, VISIBILITIES, type Viewer } from "../../../test/org-world.js";

describe.each(DIALECTS)("organization members over a real HTTP socket on %s", (dialect) => {
  const { who, org, teamIds, as } = orgWorld(dialect);

  it("shows the member list to members and admins, public members to others, nothing to anonymous callers", async () => {
    const members = async (viewer: Viewer, visibility: (typeof VISIBILITIES)[number]) => {
      const res = await as(viewer, "GET", `/orgs/${org[visibility]}/members`);
      return res.status === 200 ? (res.json as { login: string }[]).map((u) => u.login).sort() : res.status;
    };
    const all = [who.owner.name, who.reader.name, who.writer.name].sort();
    for (const visibility of VISIBILITIES) {
      for (const viewer of ["admin", "owner", "reader", "writer"] as const)
        expect(await members(viewer, visibility)).toEqual(all);
      expect(await members("anonymous", visibility)).toBe(401);
    }
    expect(await members("outsider", "public")).toEqual([who.reader.name]);
    expect(await members("outsider", "limited")).toEqual([who.reader.name]);
    expect(await members("outsider", "private")).toBe(404);
    const pub = await as("anonymous", "GET", `/orgs/${org.public}/public_members`);
    expect(pub.json.map((u: { login: string }) => u.login)).toEqual([who.reader.name]);
  });

  it("answers membership checks as Forgejo: 204/404 to members and admins, a redirect to the public check for others", async () => {
    const check = (viewer: Viewer, target: string, visibility: (typeof VISIBILITIES)[number] = "public") =>
      as(viewer, "GET", `/orgs/${org[visibility]}/members/${target}`);
    for (const viewer of ["admin", "owner", "reader", "writer"] as const) {
      expect((await check(viewer, who.writer.name)).status).toBe(204);
      expect((await check(viewer, who.outsider.name)).status).toBe(404);
    }
    const redirected = await check("outsider", who.writer.name);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get("Location")).toBe(
      `/api/v1/orgs/${org.public}/public_members/${who.writer.name}`,
    );
    expect((await check("outsider", who.outsider.name)).status).toBe(404);
    expect((await check("anonymous", who.writer.name)).status).toBe(401);
    expect((await check("admin", who.writer.name, "private")).status).toBe(204);
    expect((await check("outsider", who.writer.name, "private")).status).toBe(404);
    expect(
      (await as("anonymous", "GET", `/orgs/${org.public}/public_members/${who.reader.name}`)).status,
    ).toBe(204);
    expect(
      (await as("anonymous", "GET", `/orgs/${org.public}/public_members/${who.writer.name}`)).status,
    ).toBe(404);
    expect((await as("reader", "PUT", `/orgs/${org.public}/public_members/${who.writer.name}`)).status).toBe(
      403,
    );
  });

  it("removes members, who then lose what membership gave them", async () => {
    expect((await as("owner", "DELETE", `/orgs/${org.private}/members/${who.writer.name}`)).status).toBe(204);
    expect((await as("owner", "GET", `/orgs/${org.private}/members/${who.writer.name}`)).status).toBe(404);
    expect((await as("writer", "GET", `/orgs/${org.private}`)).status).toBe(404);
    expect((await as("owner", "GET", `/teams/${teamIds[org.private]!.writers}/members`)).json).toEqual([]);
    expect(
      (await as("owner", "DELETE", `/teams/${teamIds[org.private]!.readers}/members/${who.reader.name}`))
        .status,
    ).toBe(204);
    expect((await as("reader", "GET", `/orgs/${org.private}`)).status).toBe(404);
  });
});
