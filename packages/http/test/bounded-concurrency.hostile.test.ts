import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitOk, pushUrl, workRepo } from "./bounded-work.js";
import { createRepo } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

/**
 * The process-wide cap on git work (`[git]`): a repository whose clients hold every git process
 * it may have makes its next request wait, then answer 503 with Retry-After, while another
 * repository keeps working; once its work ends, it works again. Caps lowered so one held clone
 * reaches them.
 */
describe.each(DIALECTS)("bounded git concurrency on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let tip: string;
  let otherTip: string;

  /** A clone's pack request (protocol v0, stateless): want the tip, done. */
  const uploadPack = (repo: string, want: string) => {
    const line = `want ${want}\n`;
    const body = `${(line.length + 4).toString(16).padStart(4, "0")}${line}00000009done\n`;
    return t.app.request(`http://kiln.test/${owner.name}/${repo}.git/git-upload-pack`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-git-upload-pack-request",
        Authorization: `token ${owner.token}`,
      },
      body,
    });
  };

  beforeAll(async () => {
    t = await openTestApp(
      dialect,
      { git: { maxStreams: 4, maxPerRepository: 1, queueTimeout: 500 } },
      { listen: true },
    );
    owner = await t.user({ name: "cloner" });
    await createRepo(t, owner, "hot");
    const cool = await createRepo(t, owner, "cool");
    const work = await workRepo();
    try {
      // Incompressible bytes: the pack is far larger than what the pipes between git and the
      // response hold, so a client that does not read keeps git (and its slot) busy.
      await writeFile(join(work.dir, "noise.bin"), randomBytes(2 * 1024 * 1024));
      await gitOk(work.dir, ["add", "noise.bin"]);
      await gitOk(work.dir, ["commit", "-qm", "noise"]);
      await gitOk(work.dir, [
        "push",
        "-q",
        pushUrl(t.url as string, owner.name, "hot", owner),
        "HEAD:refs/heads/noise",
      ]);
      tip = await gitOk(work.dir, ["rev-parse", "HEAD"]);
    } finally {
      await work.cleanup();
    }
    otherTip = (await t.call("GET", `${cool.path}/branches/main`, { token: owner.token })).json.commit.id;
  });
  afterAll(() => t?.close());

  it("queues a repository's git work past its cap, answers 503 in time, and serves other repositories meanwhile", async () => {
    const held = await uploadPack("hot", tip);
    expect(held.status).toBe(200);
    const reader = held.body?.getReader();
    // A few bytes arrive; then nobody reads, and git waits on its full pipe.
    expect((await reader?.read())?.done).toBe(false);

    const queued = await uploadPack("hot", tip);
    expect(queued.status).toBe(503);
    expect(queued.headers.get("retry-after")).toBe("5");
    expect(((await queued.json()) as { message: string }).message).toMatch(/slot free within 500 ms/);

    const elsewhere = await uploadPack("cool", otherTip);
    expect(elsewhere.status).toBe(200);
    expect(Buffer.from(await elsewhere.arrayBuffer()).includes("PACK")).toBe(true);
    const api = await t.call("GET", `/repos/${owner.name}/cool/contents/README.md`);
    expect(api.status).toBe(200);

    // The held clone goes away: its git stops, and the repository serves again.
    await reader?.cancel();
    let again = await uploadPack("hot", tip);
    for (let i = 0; i < 20 && again.status === 503; i++) again = await uploadPack("hot", tip);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).includes("PACK")).toBe(true);
  });
});
