/**
 * Reads `app.ini` the way Forgejo's go-ini configuration does: `[section]` headers (case
 * insensitive, dots kept as part of the name, so `[quota.default]` is one section), `KEY = value`
 * lines (keys case insensitive), `;` and `#` comment lines, values optionally wrapped in double
 * quotes or backticks, and no inline comments (a `#` inside a value is part of it). Keys before
 * the first section belong to the default section "".
 *
 * Hand-written because npm's `ini` nests dotted section names and unquotes differently.
 */
export type IniSections = Map<string, Map<string, string>>;

/** A syntax problem, with its line number. */
export class IniSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = "IniSyntaxError";
  }
}

export function parseIni(text: string, file = "app.ini"): IniSections {
  const sections: IniSections = new Map([["", new Map()]]);
  let current = sections.get("") as Map<string, string>;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) return;
    if (line.startsWith("[")) {
      const end = line.indexOf("]");
      if (end < 0) throw new IniSyntaxError(file, index + 1, `unclosed section header: ${line}`);
      const name = line.slice(1, end).trim().toLowerCase();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      return;
    }
    const eq = line.indexOf("=");
    if (eq <= 0) throw new IniSyntaxError(file, index + 1, `expected KEY = value: ${line}`);
    const key = line.slice(0, eq).trim().toUpperCase();
    current.set(key, unquote(line.slice(eq + 1).trim()));
  });
  return sections;
}

function unquote(value: string): string {
  if (value.length >= 6 && value.startsWith('"""') && value.endsWith('"""')) return value.slice(3, -3);
  if (
    value.length >= 2 &&
    ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("`") && value.endsWith("`")))
  ) {
    return value.slice(1, -1);
  }
  return value;
}

/**
 * Applies Forgejo-style environment overrides: `<PREFIX>__SECTION__KEY=value`, where the section
 * `DEFAULT` is the root section and `_0X2E_` (any `_0X<hex>_`) stands for a character that
 * variable names cannot hold, e.g. `KILN__QUOTA_0X2E_DEFAULT__TOTAL` sets `[quota.default] TOTAL`.
 */
export function applyEnvOverrides(
  sections: IniSections,
  env: Readonly<Record<string, string | undefined>>,
  prefix = "KILN",
): IniSections {
  const lead = `${prefix}__`;
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(lead) || value === undefined) continue;
    const rest = name.slice(lead.length);
    const split = rest.lastIndexOf("__");
    if (split <= 0) continue;
    const rawSection = decodeEnvName(rest.slice(0, split));
    const key = decodeEnvName(rest.slice(split + 2)).toUpperCase();
    if (key === "") continue;
    const section = rawSection.toUpperCase() === "DEFAULT" ? "" : rawSection.toLowerCase();
    const target = sections.get(section) ?? new Map<string, string>();
    target.set(key, value);
    sections.set(section, target);
  }
  return sections;
}

function decodeEnvName(encoded: string): string {
  return encoded.replace(/_0[xX]([0-9a-fA-F]{2})_/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}
