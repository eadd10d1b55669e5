import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe.each(DIALECTS)("issue templates and config on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let bare: TestRepo;
  let secret: TestRepo;

  const commit = async (r: TestRepo, path: string, text: string) => {
    const res = await t.call("POST", `${r.path}/contents/${path}`, {
      token: owner.token,
      body: { content: b64(text) },
    });
    expect(res.status, path).toBe(201);
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "templated");
    bare = await createRepo(t, owner, "untemplated");
    secret = await createRepo(t, owner, "templated-secret", { private: true });
    await commit(
      repo,
      ".forgejo/ISSUE_TEMPLATE/bug.md",
      "---\nname: Bug report\nabout: Tell us\nlabels: bug\n---\nWhat happened?\n",
    );
    await commit(
      repo,
      ".github/ISSUE_TEMPLATE/feature.yaml",
      "name: Feature\ndescription: Ask for it\nbody:\n  - type: textarea\n    id: idea\n    attributes:\n      label: Idea\n",
    );
    await commit(repo, ".forgejo/ISSUE_TEMPLATE/broken.yaml", "name: Broken\nabout: no body\n");
    await commit(
      repo,
      ".forgejo/ISSUE_TEMPLATE/config.yaml",
      "blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example/\n    about: Questions go here\n",
    );
    await commit(
      secret,
      ".gitea/issue_template/config.yml",
      "contact_links:\n  - name: Chat\n    about: x\n",
    );
  });
  afterAll(() => t?.close());

  it("lists the valid templates of the default branch, leaving invalid ones out", async () => {
    const res = await t.call("GET", `${repo.path}/issue_templates`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        name: "Bug report",
        title: "",
        about: "Tell us",
        labels: ["bug"],
        ref: "refs/heads/",
        content: "What happened?\n",
        body: null,
        file_name: ".forgejo/ISSUE_TEMPLATE/bug.md",
      },
      {
        name: "Feature",
        title: "",
        about: "Ask for it",
        labels: null,
        ref: "refs/heads/",
        content: "",
        body: [
          {
            type: "textarea",
            id: "idea",
            attributes: { label: "Idea" },
            validations: null,
            visible: ["form", "content"],
          },
        ],
        file_name: ".github/ISSUE_TEMPLATE/feature.yaml",
      },
    ]);
    // Without templates Forgejo answers `null` (its list is never initialised): so does Kiln.
    const none = await t.call("GET", `${bare.path}/issue_templates`);
    expect(none.status).toBe(200);
    expect(none.text).toBe("null");
    expect((await t.call("GET", `${secret.path}/issue_templates`, { token: owner.token })).json).toBeNull();
  });

  it("answers the config, and the default where there is none", async () => {
    expect((await t.call("GET", `${repo.path}/issue_config`)).json).toEqual({
      blank_issues_enabled: false,
      contact_links: [{ name: "Forum", url: "https://forum.example/", about: "Questions go here" }],
    });
    expect((await t.call("GET", `${repo.path}/issue_config/validate`)).json).toEqual({
      valid: true,
      message: "",
    });
    expect((await t.call("GET", `${bare.path}/issue_config`)).json).toEqual({
      blank_issues_enabled: true,
      contact_links: [],
    });
    expect((await t.call("GET", `${bare.path}/issue_config/validate`)).json).toEqual({
      valid: true,
      message: "",
    });
  });

  it("reports an invalid config through validate and serves the default meanwhile", async () => {
    const check = await t.call("GET", `${secret.path}/issue_config/validate`, { token: owner.token });
    expect(check.json).toEqual({ valid: false, message: "contact_link at position 1 is missing url key" });
    const config = await t.call("GET", `${secret.path}/issue_config`, { token: owner.token });
    expect(config.json).toEqual({ blank_issues_enabled: true, contact_links: [] });
    for (const path of ["issue_templates", "issue_config", "issue_config/validate"]) {
      expect((await t.call("GET", `${secret.path}/${path}`, { token: outsider.token })).status).toBe(404);
    }
  });

  it("reads at most 100 template files, in Forgejo's order of directories", async () => {
    const many = await createRepo(t, owner, "many-templates");
    const files = Array.from({ length: 105 }, (_, i) => ({
      operation: "create",
      path: `.forgejo/ISSUE_TEMPLATE/t${String(i).padStart(3, "0")}.md`,
      content: b64(`---\nname: T${i}\nabout: number ${i}\n---\nbody\n`),
    }));
    // Two commits: one change request carries at most `[api] MAX_CHANGE_FILES` (100) operations.
    for (const part of [files.slice(0, 60), files.slice(60)]) {
      const res = await t.call("POST", `${many.path}/contents`, {
        token: owner.token,
        body: { files: part },
      });
      expect(res.status).toBe(201);
    }
    const list = await t.call("GET", `${many.path}/issue_templates`);
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(100);
    expect(list.json[0].name).toBe("T0");
    expect(list.json[99].name).toBe("T99");
  });
});
