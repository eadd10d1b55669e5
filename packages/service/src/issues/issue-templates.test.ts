import { describe, expect, it } from "vitest";
import { parseIssueConfig, parseTemplate, templateType } from "./issue-templates.js";

const md = (front: string, body = "Body\n") => `---\n${front}\n---\n${body}`;
const errorOf = (file: string, content: string) => {
  try {
    parseTemplate(file, content);
    return "";
  } catch (err) {
    return (err as Error).message;
  }
};

describe("issue templates", () => {
  it("knows template files by extension, never the config", () => {
    expect(templateType("a/bug.md")).toBe("md");
    expect(templateType("a/form.yaml")).toBe("yaml");
    expect(templateType("a/form.yml")).toBe("yaml");
    expect(templateType("a/config.yaml")).toBeUndefined();
    expect(templateType("a/readme.txt")).toBeUndefined();
  });

  it("reads a Markdown template's front matter and body; labels from a list or a comma string", () => {
    const t = parseTemplate(
      ".forgejo/ISSUE_TEMPLATE/bug.md",
      md("name: Bug\nabout: Something broke\ntitle: '[bug] '\nlabels: bug, triage\nref: main", "Steps:\n"),
    );
    expect(t).toEqual({
      name: "Bug",
      title: "[bug] ",
      about: "Something broke",
      labels: ["bug", "triage"],
      ref: "refs/heads/main",
      content: "Steps:\n",
      body: null,
      file_name: ".forgejo/ISSUE_TEMPLATE/bug.md",
    });
    expect(parseTemplate("t/a.md", md("name: A\nabout: b\nlabels: [x, y]")).labels).toEqual(["x", "y"]);
    expect(parseTemplate("t/a.md", md("name: A\nabout: b\nref: refs/tags/v1")).ref).toBe("refs/tags/v1");
  });

  it("takes `description` for `about`, and a file without front matter whole", () => {
    expect(parseTemplate("t/a.md", md("name: A\ndescription: from description")).about).toBe(
      "from description",
    );
    const plain = parseTemplate("t/plain.md", "Just text, no metadata at all.");
    expect(plain).toMatchObject({
      name: "plain.md",
      about: "Just text, no metadata at all.",
      content: "Just text, no metadata at all.",
    });
  });

  it("refuses templates without a name or about", () => {
    expect(errorOf("t/a.md", md("about: x"))).toBe("'name' is required");
    expect(errorOf("t/a.md", md("name: x"))).toBe("'about' is required");
  });

  it("reads issue forms, defaulting ids and visibility", () => {
    const t = parseTemplate(
      "t/form.yaml",
      [
        "name: Form",
        "about: A form",
        "body:",
        "  - type: markdown",
        "    attributes: { value: Thanks! }",
        "  - type: input",
        "    id: version",
        "    attributes: { label: Version }",
        "    validations: { required: true }",
        "  - type: dropdown",
        "    attributes: { label: OS, options: [linux, mac], default: 1 }",
      ].join("\n"),
    );
    expect(t.body?.map((f) => [f.type, f.id, f.visible])).toEqual([
      ["markdown", "0", ["form"]],
      ["input", "version", ["form", "content"]],
      ["dropdown", "2", ["form", "content"]],
    ]);
    expect(t.content).toBe("");
  });

  it("validates forms with Forgejo's messages", () => {
    const form = (fields: string) => `name: F\nabout: f\nbody:\n${fields}`;
    expect(errorOf("t/f.yaml", "name: F\nabout: f")).toBe("'body' is required");
    expect(errorOf("t/f.yaml", form("  - type: input\n    attributes: {}"))).toBe(
      "body[0](input): 'label' is required",
    );
    expect(errorOf("t/f.yaml", form("  - type: input\n    id: 'a b'\n    attributes: { label: L }"))).toBe(
      "body[0](input): 'id' should contain only alphanumeric, '-' and '_'",
    );
    expect(
      errorOf(
        "t/f.yaml",
        form(
          "  - type: input\n    id: a\n    attributes: { label: L }\n  - type: textarea\n    id: a\n    attributes: { label: M }",
        ),
      ),
    ).toBe("body[1](textarea): 'id' should be unique");
    expect(errorOf("t/f.yaml", form("  - type: nonsense\n    id: a\n    attributes: { label: L }"))).toBe(
      "body[0](nonsense): unknown type",
    );
    expect(
      errorOf(
        "t/f.yaml",
        form("  - type: dropdown\n    id: a\n    attributes: { label: L, options: [x], default: 3 }"),
      ),
    ).toBe("body[0](dropdown): the value of 'default' is out of range");
    expect(
      errorOf(
        "t/f.yaml",
        form("  - type: checkboxes\n    id: a\n    attributes: { label: L, options: [{ label: '' }] }"),
      ),
    ).toBe("body[0](checkboxes), option[0]: 'label' is required and should be a string");
    expect(
      errorOf(
        "t/f.yaml",
        form(
          "  - type: input\n    id: a\n    attributes: { label: L }\n    visible: [content]\n    validations: { required: true }",
        ),
      ),
    ).toBe("body[0](input): can not require a hidden field");
    expect(errorOf("t/f.yaml", "name: [")).toMatch(/^yaml unmarshal: /);
  });
});

describe("issue config", () => {
  it("defaults to blank issues and no contact links", () => {
    expect(parseIssueConfig("")).toEqual({ blank_issues_enabled: true, contact_links: [] });
    expect(parseIssueConfig("blank_issues_enabled: false")).toEqual({
      blank_issues_enabled: false,
      contact_links: [],
    });
  });

  it("reads contact links and refuses incomplete or invalid ones with Forgejo's messages", () => {
    const ok = parseIssueConfig(
      "contact_links:\n  - name: Forum\n    url: https://forum.example\n    about: Ask there",
    );
    expect(ok.contact_links).toEqual([{ name: "Forum", url: "https://forum.example", about: "Ask there" }]);
    const bad = (links: string) => () => parseIssueConfig(`contact_links:\n${links}`);
    expect(bad("  - url: https://x\n    about: a")).toThrow("contact_link at position 1 is missing name key");
    expect(bad("  - name: n\n    about: a")).toThrow("contact_link at position 1 is missing url key");
    expect(bad("  - name: n\n    url: https://x")).toThrow("contact_link at position 1 is missing about key");
    expect(bad("  - name: n\n    url: not a url\n    about: a")).toThrow("not a url is not a valid URL");
    expect(() => parseIssueConfig("blank_issues_enabled: maybe")).toThrow(
      "'blank_issues_enabled' should be a bool",
    );
  });
});
