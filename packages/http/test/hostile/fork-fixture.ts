import { randomBytes } from "node:crypto";
import type { TestApp, TestUser } from "../support.js";
import type { ActorName, Secret, WorldFork } from "./world-model.js";

/**
 * A fork the outsider owns of the victim's private repository, whose parent then moved on: the
 * outsider may read and write the fork but not the parent (as a collaborator removed after
 * forking), so `/sync_fork` must show nothing of the parent. The parent's new tip is a secret:
 * its sha appears nowhere the outsider may look.
 */
export async function seedHiddenParentFork(
  t: TestApp,
  admin: TestUser,
  victim: TestUser,
  outsider: TestUser,
  parentName: string,
  hiddenFrom: ReadonlySet<ActorName>,
): Promise<{ fork: WorldFork; secret: Secret }> {
  const s = t.services;
  const victimRow = await s.users.getByName(victim.name);
  const parent = await s.repositories.findByName(victimRow, parentName);
  if (!parent) throw new Error(`fixture: no repository ${victim.name}/${parentName}`);
  const name = `kept-fork-${randomBytes(4).toString("hex")}`;
  await s.forks.fork(
    await s.users.getByName(admin.name),
    parent,
    victimRow,
    await s.users.getByName(outsider.name),
    name,
  );
  // The fixture's protection of main (push disabled) steps aside for this one commit.
  const parentPath = `/repos/${victim.name}/${parentName}`;
  const step = async (method: string, path: string, body: unknown, status: number) => {
    const res = await t.call(method, path, { token: admin.token, body });
    if (res.status !== status)
      throw new Error(`fixture: ${method} ${path} answered ${res.status}: ${res.text}`);
    return res;
  };
  await step("DELETE", `${parentPath}/branch_protections/main`, undefined, 204);
  const write = await step(
    "POST",
    `${parentPath}/contents/moved-on.txt`,
    { content: Buffer.from("after the fork").toString("base64"), message: "after the fork" },
    201,
  );
  await step("POST", `${parentPath}/branch_protections`, { branch_name: "main" }, 201);
  const tip: string = write.json.commit.sha;
  return {
    fork: { owner: outsider.name, name },
    secret: { name: tip, kind: "commit", id: 0, hiddenFrom },
  };
}
