import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, createRepo, repoOnDisk, usageOf } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("repositories generated from templates on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let root: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect, { repository: { maxCreationLimit: 50 } });
    alice = await t.user({ name: "alice" });
    bob = await t.user({ name: "bob" });
    root = await t.user({ name: "root", admin: true });
    expect((await t.call("POST", "/orgs", { token: alice.token, body: { username: "acme" } })).status).toBe(
      201,
    );
    await createRepo(t, alice, "tpl", { empty: true });
    const files: [string, string][] = [
      [".forgejo/template", "# expanded files\n*.md\nsrc/**\n\n"],
      [
        "README.md",
        "# $REPO_NAME by ${REPO_OWNER}\n$REPO_NAME_SNAKE from $TEMPLATE_NAME ($REPO_DESCRIPTION) $UNKNOWN\n",
      ],
      ["src/$REPO_NAME_KEBAB.txt", "made from ${TEMPLATE_OWNER}/${TEMPLATE_NAME}\n"],
      ["plain.txt", "$REPO_NAME stays\n"],
      ["src/blob.bin", "\u0000$REPO_NAME\u0000"],
      ["src/$REPO_DESCRIPTION_NONE/x.md", "kept where it was"],
    ];
    const written = await t.call("POST", "/repos/alice/tpl/contents", {
      token: alice.token,
      body: {
        message: "template files",
        files: files.map(([path, text]) => ({ operation: "create", path, content: b64(text) })),
      },
    });
    expect(written.status, written.text).toBe(201);
    expect(
      (
        await t.call("PATCH", "/repos/alice/tpl", {
          token: alice.token,
          body: { template: true, description: "a template" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.call("PUT", "/repos/alice/tpl/topics", {
          token: alice.token,
          body: { topics: ["starter", "kiln"] },
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await t.call("POST", "/repos/alice/tpl/labels", {
          token: alice.token,
          body: { name: "bug", color: "#ff0000" },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await t.call("POST", "/repos/alice/tpl/branch_protections", {
          token: alice.token,
          body: { rule_name: "main" },
        })
      ).status,
    ).toBe(201);
    await createRepo(t, alice, "plainrepo");
    await createRepo(t, alice, "hidden-tpl", { private: true });
    await t.call("PATCH", "/repos/alice/hidden-tpl", { token: alice.token, body: { template: true } });
  });
  afterAll(() => t?.close());

  const generate = (path: string, token: string, body: unknown) =>
    t.call("POST", `/repos/${path}/generate`, { token, body });
  const text = async (path: string, token: string) => {
    const res = await t.call("GET", `${path}`, { token });
    return res.status === 200
      ? Buffer.from(res.json.content, "base64").toString("utf8")
      : `status ${res.status}`;
  };

  it("generates a repository (201) with the template's content expanded in the files .forgejo/template lists", async () => {
    const res = await generate("alice/tpl", bob.token, {
      owner: "bob",
      name: "My-Project",
      description: "mine",
      git_content: true,
      topics: true,
      labels: true,
      protected_branch: true,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      full_name: "bob/My-Project",
      template: false,
      fork: false,
      private: false,
      empty: false,
      default_branch: "main",
      description: "mine",
      topics: ["starter", "kiln"],
    });
    const base = "/repos/bob/My-Project/contents";
    expect(await text(`${base}/README.md`, bob.token)).toBe(
      "# My-Project by bob\nmy_project from tpl (mine) UNKNOWN\n",
    );
    expect(await text(`${base}/src/my-project.txt`, bob.token)).toBe("made from alice/tpl\n");
    expect(await text(`${base}/plain.txt`, bob.token)).toBe("$REPO_NAME stays\n");
    // A binary file keeps its bytes; an unknown name in a path loses its `$`, as in Forgejo.
    expect(await text(`${base}/src/blob.bin`, bob.token)).toBe("\u0000$REPO_NAME\u0000");
    expect(await text(`${base}/src/REPO_DESCRIPTION_NONE/x.md`, bob.token)).toBe("kept where it was");
    expect((await t.call("GET", `${base}/.forgejo/template`, { token: bob.token })).status).toBe(404);
    const commits = await t.call("GET", "/repos/bob/My-Project/commits", { token: bob.token });
    expect(commits.json).toHaveLength(1);
    expect(commits.json[0].commit.message.trim()).toBe("Initial commit");
    expect(commits.json[0].commit.author.name).toBe("bob");
    const labels = await t.call("GET", "/repos/bob/My-Project/labels", { token: bob.token });
    expect(labels.json.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    const rules = await t.call("GET", "/repos/bob/My-Project/branch_protections", { token: bob.token });
    expect(rules.json.map((r: { rule_name: string }) => r.rule_name)).toEqual(["main"]);
    const row = await t.services.repositories.findByName(
      await t.services.users.getByName("bob"),
      "My-Project",
    );
    expect(row?.templateId).toBeGreaterThan(0);
    expect((await usageOf(t, "bob")).reposPublic).toBe(row?.gitSize);
  });

  it("copies webhooks only for admins of the template, and never their credentials", async () => {
    const hook = await t.call("POST", "/repos/alice/tpl/hooks", {
      token: alice.token,
      body: {
        type: "slack",
        config: {
          url: "https://hooks.slack.invalid/services/T000/B000/alice-slack-secret",
          content_type: "json",
          channel: "#tpl",
          secret: "alice-signing-secret",
        },
        authorization_header: "Bearer alice-private-token",
        events: ["push"],
        active: true,
      },
    });
    expect(hook.status, hook.text).toBe(201);
    // A reader of the public template gets the repository, without the template's hooks.
    const res = await generate("alice/tpl", bob.token, {
      owner: bob.name,
      name: "with-hooks",
      webhooks: true,
    });
    expect(res.status, res.text).toBe(201);
    const bobs = await t.call("GET", `/repos/${bob.name}/with-hooks/hooks`, { token: bob.token });
    expect(bobs.json).toEqual([]);
    const copied = await t.services.ctx.db
      .selectFrom("webhook")
      .select("id")
      .where("url", "like", "%alice-slack-secret%")
      .execute();
    expect(copied).toHaveLength(1);

    // The template's admin gets them, still without the signing secret or the header.
    const own = await generate("alice/tpl", alice.token, {
      owner: "acme",
      name: "with-hooks",
      webhooks: true,
    });
    expect(own.status, own.text).toBe(201);
    const hooks = await t.call("GET", "/repos/acme/with-hooks/hooks", { token: alice.token });
    expect(hooks.json).toHaveLength(1);
    expect(hooks.json[0]).toMatchObject({ type: "slack", active: true });
    expect(hooks.text).not.toContain("alice-private-token");
    const row = await t.services.ctx.db
      .selectFrom("webhook")
      .select(["secret", "authorizationHeader"])
      .where("id", "=", hooks.json[0].id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ secret: "", authorizationHeader: "" });
  });

  it("copies only what is selected: without git_content the new repository is empty", async () => {
    const res = await generate("alice/tpl", alice.token, {
      owner: "acme",
      name: "labels-only",
      labels: true,
      private: true,
      default_branch: "trunk",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ full_name: "acme/labels-only", empty: true, private: true, topics: [] });
    expect(res.json.default_branch).toBe("trunk");
    expect((await t.call("GET", "/repos/acme/labels-only/labels", { token: alice.token })).json).toHaveLength(
      1,
    );
  });

  it("answers as Forgejo: 422 for a non-template or nothing selected, 409 for a taken name, 403 for another's namespace, 404 for what is hidden", async () => {
    const notTemplate = await generate("alice/plainrepo", bob.token, {
      owner: "bob",
      name: "x",
      git_content: true,
    });
    expect(notTemplate.status).toBe(422);
    expect(notTemplate.json.message).toBe("this is not a template repo");
    const nothing = await generate("alice/tpl", bob.token, { owner: "bob", name: "x" });
    expect(nothing.status).toBe(422);
    expect(nothing.json.message).toBe("must select at least one template item");
    expect(
      (await generate("alice/tpl", bob.token, { owner: "bob", name: "My-Project", labels: true })).status,
    ).toBe(409);
    const other = await generate("alice/tpl", bob.token, { owner: "alice", name: "y", labels: true });
    expect(other.status).toBe(403);
    expect(other.json.message).toBe("Only admin can generate repository for other user.");
    const org = await generate("alice/tpl", bob.token, { owner: "acme", name: "y", labels: true });
    expect(org.status).toBe(403);
    expect(
      (await generate("alice/tpl", root.token, { owner: "alice", name: "by-admin", labels: true })).status,
    ).toBe(201);
    expect(
      (await generate("alice/hidden-tpl", bob.token, { owner: "bob", name: "z", labels: true })).status,
    ).toBe(404);
    expect(
      (await generate("alice/tpl", bob.token, { owner: "nobody", name: "z", labels: true })).status,
    ).toBe(404);
    expect(
      (await generate("alice/tpl", bob.token, { owner: "bob", name: "bad name", labels: true })).status,
    ).toBe(422);
    expect((await generate("alice/tpl", bob.token, { name: "z", labels: true })).status).toBe(422);
    expect(
      (await t.call("POST", "/repos/alice/tpl/generate", { body: { owner: "bob", name: "z" } })).status,
    ).toBe(401);
    expect(repoOnDisk(t, "bob", "z")).toBe(false);
  });
});

describe.each(DIALECTS)("templates under [quota] ENFORCE on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(dialect, { quota: { enabled: true, enforce: true, defaultTotal: 50 } });
  });
  afterAll(() => t?.close());

  it("refuses to generate for an owner over quota (413)", async () => {
    const alice = await t.user({ name: "alice" });
    await createRepo(t, alice, "tpl");
    await t.call("PATCH", "/repos/alice/tpl", { token: alice.token, body: { template: true } });
    const res = await t.call("POST", "/repos/alice/tpl/generate", {
      token: alice.token,
      body: { owner: "alice", name: "copy", git_content: true },
    });
    expect(res.status).toBe(413);
    expect(repoOnDisk(t, "alice", "copy")).toBe(false);
  });
});
