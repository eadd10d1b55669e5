import { parseYaml } from "../lazy-yaml.js";

/**
 * Issue templates and their config, parsed and validated as Forgejo does
 * (modules/issue/template and services/issue/template.go): Markdown templates with YAML front
 * matter, YAML issue forms, and `config.yaml` with contact links. Pure functions over file
 * contents; reading them from the repository is the service's business.
 */

/** Directories searched for templates on the default branch, in Forgejo's order. */
export const TEMPLATE_DIRS = [
  "ISSUE_TEMPLATE",
  "issue_template",
  ".forgejo/ISSUE_TEMPLATE",
  ".forgejo/issue_template",
  ".gitea/ISSUE_TEMPLATE",
  ".gitea/issue_template",
  ".github/ISSUE_TEMPLATE",
  ".github/issue_template",
  ".gitlab/ISSUE_TEMPLATE",
  ".gitlab/issue_template",
] as const;

/** Config files, first found wins, each as `.yaml` then `.yml`. */
export const CONFIG_CANDIDATES = [
  ".forgejo/ISSUE_TEMPLATE/config",
  ".forgejo/issue_template/config",
  ".gitea/ISSUE_TEMPLATE/config",
  ".gitea/issue_template/config",
  ".github/ISSUE_TEMPLATE/config",
  ".github/issue_template/config",
] as const;

/** The largest template or config file read (Forgejo's `[ui] MAX_DISPLAY_FILE_SIZE` default). */
export const MAX_TEMPLATE_SIZE = 8 * 1024 * 1024;

/**
 * The most template files one request reads, across the directories in their order (Forgejo reads
 * every one): a directory of thousands of files costs what a hundred cost.
 */
export const MAX_TEMPLATES = 100;

/** The most bytes of template files one request reads, all files together. */
export const MAX_TEMPLATE_BYTES = 16 * 1024 * 1024;

export interface IssueFormField {
  type: string;
  id: string;
  attributes: Record<string, unknown> | null;
  validations: Record<string, unknown> | null;
  visible?: string[];
}

export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[] | null;
  ref: string;
  content: string;
  body: IssueFormField[] | null;
  file_name: string;
}

export interface ContactLink {
  name: string;
  url: string;
  about: string;
}

export interface IssueConfig {
  blank_issues_enabled: boolean;
  contact_links: ContactLink[];
}

/** `md` or `yaml` for a file that may be a template, undefined otherwise (config files are not). */
export function templateType(fileName: string): "md" | "yaml" | undefined {
  const base = fileName.split("/").pop() ?? fileName;
  if (base === "config.yaml" || base === "config.yml") return undefined;
  if (base.endsWith(".md")) return "md";
  if (base.endsWith(".yaml") || base.endsWith(".yml")) return "yaml";
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A YAML scalar as Go decodes it into a string; a list or map is an error. */
function scalar(value: unknown, key: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new Error(`yaml unmarshal: cannot unmarshal '${key}' into a string`);
}

/** Forgejo's IssueTemplateLabels: a list, or one comma-separated string. */
function labelList(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") {
    const labels = value
      .split(",")
      .map((label) => label.trim())
      .filter(Boolean);
    return labels.length > 0 ? labels : null;
  }
  if (Array.isArray(value)) return value.map((label) => scalar(label, "labels"));
  throw new Error("yaml unmarshal: cannot unmarshal 'labels' into a list of labels");
}

/** Forgejo's markdown.ExtractMetadata: a `---` line, YAML, a `---` line, then the body. */
function frontMatter(content: string): { meta: unknown; body: string } | undefined {
  const lines = content.split("\n");
  const separator = (line: string | undefined) => line !== undefined && /^-{3,}$/.test(line.trimEnd());
  if (!separator(lines[0])) return undefined;
  const end = lines.findIndex((line, i) => i > 0 && separator(line));
  if (end < 0) return undefined;
  const front = lines.slice(1, end).join("\n");
  if (front.length === 0) return undefined;
  try {
    return { meta: parseYaml(front), body: lines.slice(end + 1).join("\n") };
  } catch {
    return undefined;
  }
}

/** Parses and validates one template file; throws with Forgejo's message when it is invalid. */
export function parseTemplate(fileName: string, content: string): IssueTemplate {
  const type = templateType(fileName);
  const template: IssueTemplate = {
    name: "",
    title: "",
    about: "",
    labels: null,
    ref: "",
    content: "",
    body: null,
    file_name: fileName,
  };
  if (type === "md") {
    const parsed = frontMatter(content);
    if (!parsed || !isRecord(parsed.meta)) {
      // No usable front matter: the whole file is the template, named after it (as Forgejo).
      template.content = content;
      template.name = fileName.split("/").pop() ?? fileName;
      template.about = [...content].slice(0, 80).join("");
    } else {
      fill(template, parsed.meta);
      template.content = parsed.body;
    }
  } else if (type === "yaml") {
    let doc: unknown;
    try {
      doc = parseYaml(content);
    } catch (err) {
      throw new Error(`yaml unmarshal: ${(err as Error).message}`);
    }
    if (doc !== null && doc !== undefined && !isRecord(doc)) throw new Error("yaml unmarshal: not a mapping");
    const meta = doc ?? {};
    fill(template, meta);
    template.body = formFields(meta.body);
  } else {
    throw new Error("not a template file");
  }
  validate(template, type);
  if (!template.ref.startsWith("refs/")) template.ref = `refs/heads/${template.ref}`;
  return template;
}

function fill(template: IssueTemplate, meta: Record<string, unknown>): void {
  template.name = scalar(meta.name, "name");
  template.title = scalar(meta.title, "title");
  template.about = scalar(meta.about, "about") || scalar(meta.description, "description");
  template.labels = labelList(meta.labels);
  template.ref = scalar(meta.ref, "ref");
}

function formFields(value: unknown): IssueFormField[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new Error("yaml unmarshal: 'body' should be a list of fields");
  return value.map((item, i) => {
    if (!isRecord(item)) throw new Error(`yaml unmarshal: body[${i}] should be a mapping`);
    const type = scalar(item.type, "type");
    const attributes = item.attributes ?? null;
    const validations = item.validations ?? null;
    if (attributes !== null && !isRecord(attributes))
      throw new Error(`yaml unmarshal: body[${i}].attributes should be a mapping`);
    if (validations !== null && !isRecord(validations))
      throw new Error(`yaml unmarshal: body[${i}].validations should be a mapping`);
    let visible: string[];
    if (item.visible === undefined || item.visible === null) {
      visible = type === "markdown" ? ["form"] : ["form", "content"];
    } else if (Array.isArray(item.visible)) {
      visible = item.visible.map((v) => scalar(v, "visible"));
    } else {
      throw new Error(`yaml unmarshal: body[${i}].visible should be a list`);
    }
    return { type, id: scalar(item.id, "id") || String(i), attributes, validations, visible };
  });
}

const ALPHA_DASH = /^[\w-]+$/;

function validate(template: IssueTemplate, type: "md" | "yaml"): void {
  if (template.name.trim() === "") throw new Error("'name' is required");
  if (template.about.trim() === "") throw new Error("'about' is required");
  if (type !== "yaml") return;
  const fields = template.body ?? [];
  if (fields.length === 0) throw new Error("'body' is required");
  const ids = new Set<string>();
  fields.forEach((field, idx) => {
    const at = `body[${idx}](${field.type})`;
    const fail = (message: string, option?: number): never => {
      throw new Error(`${at}${option !== undefined ? `, option[${option}]` : ""}: ${message}`);
    };
    const attributes = field.attributes ?? {};
    const validations = field.validations ?? {};
    const strings = (map: Record<string, unknown>, required: boolean, ...names: string[]) => {
      for (const name of names) {
        if (!(name in map)) {
          if (required) fail(`'${name}' is required`);
          return;
        }
        const value = map[name];
        if (typeof value !== "string") fail(`'${name}' should be a string`);
        if (required && (value as string).trim() === "") fail(`'${name}' is required`);
      }
    };
    const bools = (map: Record<string, unknown>, ...names: string[]) => {
      for (const name of names) {
        if (!(name in map)) return;
        if (typeof map[name] !== "boolean") fail(`'${name}' should be a bool`);
      }
    };
    if (field.type !== "markdown") {
      if (field.id === "") fail("'id' is required");
      if (!ALPHA_DASH.test(field.id)) fail("'id' should contain only alphanumeric, '-' and '_'");
      if (ids.has(field.id)) fail("'id' should be unique");
      ids.add(field.id);
      strings(attributes, true, "label");
    }
    const options = () => {
      const list = attributes.options;
      if (!Array.isArray(list) || list.length === 0) fail("'options' is required and should be a array");
      return list as unknown[];
    };
    switch (field.type) {
      case "markdown":
        strings(attributes, true, "value");
        break;
      case "textarea":
        strings(attributes, false, "description", "placeholder", "value", "render");
        break;
      case "input":
        strings(attributes, false, "description", "placeholder", "value");
        bools(validations, "is_number");
        strings(validations, false, "regex");
        break;
      case "dropdown": {
        strings(attributes, false, "description");
        bools(attributes, "multiple", "list");
        const list = options();
        list.forEach((option, i) => {
          if (typeof option !== "string") fail("should be a string", i);
        });
        if ("default" in attributes) {
          const value = attributes.default;
          if (typeof value !== "number" || !Number.isInteger(value)) fail("'default' should be an int");
          if ((value as number) < 0 || (value as number) >= list.length)
            fail("the value of 'default' is out of range");
        }
        break;
      }
      case "checkboxes": {
        strings(attributes, false, "description");
        options().forEach((option, i) => {
          if (!isRecord(option)) fail("should be a dictionary", i);
          const opt = option as Record<string, unknown>;
          if (typeof opt.label !== "string" || opt.label === "")
            fail("'label' is required and should be a string", i);
          let visibleOnForm = true;
          if ("visible" in opt) {
            if (!Array.isArray(opt.visible)) fail("'visible' should be list", i);
            const list = opt.visible as unknown[];
            if (list.some((v) => v !== "form" && v !== "content")) {
              fail("'visible' list can only contain strings of 'form' and 'content'", i);
            }
            visibleOnForm = list.includes("form");
          }
          if ("required" in opt) {
            if (typeof opt.required !== "boolean") fail("'required' should be a bool", i);
            if (!visibleOnForm) fail("can not require a hidden checkbox", i);
          }
        });
        break;
      }
      default:
        fail("unknown type");
    }
    if (field.type !== "markdown" && field.type !== "checkboxes") {
      bools(validations, "required");
      const onForm = !field.visible || field.visible.length === 0 || field.visible.includes("form");
      if (validations.required === true && !onForm) fail("can not require a hidden field");
    }
  });
}

/** Forgejo's default config: blank issues allowed, no contact links. */
export function defaultIssueConfig(): IssueConfig {
  return { blank_issues_enabled: true, contact_links: [] };
}

/** Parses a config file; throws with Forgejo's message when it is invalid. */
export function parseIssueConfig(content: string): IssueConfig {
  let doc: unknown;
  try {
    doc = parseYaml(content);
  } catch (err) {
    throw new Error(`yaml: ${(err as Error).message}`);
  }
  const config = defaultIssueConfig();
  if (doc === null || doc === undefined) return config;
  if (!isRecord(doc)) throw new Error("yaml: the config should be a mapping");
  if (doc.blank_issues_enabled !== undefined && doc.blank_issues_enabled !== null) {
    if (typeof doc.blank_issues_enabled !== "boolean")
      throw new Error("yaml: 'blank_issues_enabled' should be a bool");
    config.blank_issues_enabled = doc.blank_issues_enabled;
  }
  const links = doc.contact_links;
  if (links === undefined || links === null) return config;
  if (!Array.isArray(links)) throw new Error("yaml: 'contact_links' should be a list");
  links.forEach((link, i) => {
    const position = i + 1;
    if (!isRecord(link)) throw new Error(`yaml: contact_link at position ${position} should be a mapping`);
    const entry = {
      name: scalar(link.name, "name"),
      url: scalar(link.url, "url"),
      about: scalar(link.about, "about"),
    };
    if (entry.name === "") throw new Error(`contact_link at position ${position} is missing name key`);
    if (entry.url === "") throw new Error(`contact_link at position ${position} is missing url key`);
    if (entry.about === "") throw new Error(`contact_link at position ${position} is missing about key`);
    if (!isRequestUri(entry.url)) throw new Error(`${entry.url} is not a valid URL`);
    config.contact_links.push(entry);
  });
  return config;
}

/** Go's url.ParseRequestURI: an absolute URL (with a scheme) or an absolute path. */
function isRequestUri(url: string): boolean {
  if (url.startsWith("/")) return !/\s/.test(url);
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
