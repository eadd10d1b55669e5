import { compileGlob, type Glob } from "@kiln/git";

/**
 * A root `.editorconfig` read as the EditorConfig specification reads it, its section globs
 * matched by Kiln's linear glob matcher (EditorConfig's dialect: `*` within a directory, `**`
 * across, `**` + `/` also no directory, `{a,b}`, classes; numeric ranges `{1..9}` match nothing).
 * The `editorconfig` package would match with minimatch's regular expressions, which a crafted
 * section can make exponentially slow.
 */

/** Section globs longer than this never match. */
export const MAX_SECTION_GLOB_LENGTH = 256;
/** Sections beyond this many never match (a real `.editorconfig` has a handful). */
export const MAX_SECTIONS = 200;
/** Once the section globs read add up to this many characters, later sections never match. */
export const MAX_SECTION_GLOBS_TOTAL = 4096;

const KNOWN = new Set([
  "charset",
  "end_of_line",
  "indent_size",
  "indent_style",
  "insert_final_newline",
  "trim_trailing_whitespace",
]);

/** A property value as the reference implementation types it: JSON numbers and booleans typed. */
export type EditorconfigValue = string | number | boolean;

interface Section {
  /** Undefined for a section that never matches. */
  readonly glob: Glob | undefined;
  readonly props: Map<string, EditorconfigValue>;
}

/** A parsed `.editorconfig`: its sections in order. */
export interface EditorconfigFile {
  readonly sections: readonly Section[];
}

function typed(value: string): EditorconfigValue {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === "number" || typeof parsed === "boolean" || typeof parsed === "string")
      return parsed;
  } catch {}
  return value;
}

/** The glob a section header stands for, anchored at the root (the reference's buildFullGlob). */
function sectionGlob(header: string): Glob | undefined {
  if (header.length > MAX_SECTION_GLOB_LENGTH) return undefined;
  const slash = header.indexOf("/");
  const full = slash < 0 ? `/**/${header}` : slash === 0 ? header : `/${header}`;
  try {
    return compileGlob(full, { separators: "/", dialect: "editorconfig" });
  } catch {
    return undefined;
  }
}

/** Parses the text of a `.editorconfig` (comments, `[section]` headers, `key = value` lines). */
export function parseEditorconfig(text: string): EditorconfigFile {
  const sections: Section[] = [];
  let current: Section | undefined;
  let globChars = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[") && line.endsWith("]")) {
      const header = line.slice(1, -1);
      globChars += header.length;
      const usable = sections.length < MAX_SECTIONS && globChars <= MAX_SECTION_GLOBS_TOTAL;
      current = { glob: usable ? sectionGlob(header) : undefined, props: new Map() };
      sections.push(current);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq <= 0 || !current) continue;
    const key = line.slice(0, eq).trim().toLowerCase();
    let value = line.slice(eq + 1).trim();
    if (KNOWN.has(key)) value = value.toLowerCase();
    current.props.set(key, typed(value));
  }
  return { sections };
}

/**
 * The properties of `filepath` (relative to the root): those of every matching section, later
 * sections winning, then the specification's derived values (`indent_size = tab` for tab
 * indentation, `tab_width` from `indent_size`).
 */
export function editorconfigProps(file: EditorconfigFile, filepath: string): Map<string, EditorconfigValue> {
  const target = `/${filepath.replace(/^\/+/, "")}`;
  const props = new Map<string, EditorconfigValue>();
  for (const section of file.sections) {
    if (!section.glob?.matches(target)) continue;
    for (const [key, value] of section.props) props.set(key, value);
  }
  if (props.get("indent_style") === "tab" && !props.has("indent_size")) props.set("indent_size", "tab");
  const indentSize = props.get("indent_size");
  if (indentSize !== undefined && !props.has("tab_width") && indentSize !== "tab") {
    props.set("tab_width", indentSize);
  }
  const tabWidth = props.get("tab_width");
  if (indentSize === "tab" && tabWidth !== undefined) props.set("indent_size", tabWidth);
  return props;
}
