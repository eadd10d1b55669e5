/**
 * The variable expansion of Forgejo's repository templates (services/repository/generate.go):
 * Go's `os.Expand` over `$NAME` and `${NAME}`, with the template's variables and their case
 * transformations. A name that is not a variable expands to itself without the `$`, as in Forgejo.
 */

const SPECIAL = new Set([
  "*",
  "#",
  "$",
  "@",
  "!",
  "?",
  "-",
  "0",
  "1",
  "2",
  "3",
  "4",
  "5",
  "6",
  "7",
  "8",
  "9",
]);
const NAME_CHAR = /[A-Za-z0-9_]/;

/** An expansion would grow past the limit its caller set. */
export class ExpansionTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`template expansion larger than ${limit} characters`);
    this.name = "ExpansionTooLargeError";
  }
}

/**
 * Go's `os.Expand`: replaces `$NAME` and `${NAME}` in `src` by `mapping(NAME)`, in one pass: every
 * character is looked at a bounded number of times (the next `}` is found once and reused, where
 * Go rescans to the end for each unclosed `${`), so the work is linear in `src` and the output.
 * Throws {@link ExpansionTooLargeError} once the output would exceed `maxLength` characters.
 */
export function goExpand(src: string, mapping: (name: string) => string, maxLength = Infinity): string {
  const parts: string[] = [];
  let length = 0;
  const emit = (text: string) => {
    length += text.length;
    if (length > maxLength) throw new ExpansionTooLargeError(maxLength);
    parts.push(text);
  };
  // The first `}` at or after a position; positions only grow, so each `}` is searched for once.
  let close = -1;
  const closeFrom = (from: number) => {
    if (close < from) {
      const found = src.indexOf("}", from);
      close = found < 0 ? src.length : found;
    }
    return close;
  };
  let start = 0;
  for (let j = 0; j < src.length; j++) {
    if (src[j] !== "$" || j + 1 >= src.length) continue;
    emit(src.slice(start, j));
    const p = j + 1;
    let name = "";
    let width: number;
    if (src[p] === "{") {
      if (src.length - p > 2 && SPECIAL.has(src[p + 1] as string) && src[p + 2] === "}") {
        name = src[p + 1] as string;
        width = 3;
      } else {
        const end = closeFrom(p + 1);
        if (end >= src.length) width = 1;
        else if (end === p + 1) width = 2;
        else {
          name = src.slice(p + 1, end);
          width = end - p + 1;
        }
      }
    } else if (SPECIAL.has(src[p] as string)) {
      name = src[p] as string;
      width = 1;
    } else {
      let i = p;
      while (i < src.length && NAME_CHAR.test(src[i] as string)) i++;
      name = src.slice(p, i);
      width = i - p;
    }
    // Bad syntax (`${`, `${}`): the `$` and what it took are dropped, as Go does.
    if (name === "" && width === 0) emit("$");
    else if (name !== "") emit(mapping(name));
    j += width;
    start = j + 1;
  }
  if (start === 0) {
    if (src.length > maxLength) throw new ExpansionTooLargeError(maxLength);
    return src;
  }
  emit(src.slice(start));
  return parts.join("");
}

/** Words of a name for the case transformations: split at separators and case or digit changes. */
function words(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

const upperFirst = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const lowerFirst = (w: string) => w.charAt(0).toLowerCase() + w.slice(1);
/** xstrings' camel and pascal case: words separated by space, `_` or `-`, their inner case kept. */
const camelParts = (value: string) => value.split(/[\s_-]+/).filter((w) => w.length > 0);

/** Forgejo's defaultTransformers, by suffix. */
const TRANSFORMERS: ReadonlyArray<readonly [string, (value: string) => string]> = [
  ["SNAKE", (v) => words(v).join("_").toLowerCase()],
  ["KEBAB", (v) => words(v).join("-").toLowerCase()],
  [
    "CAMEL",
    (v) =>
      camelParts(v)
        .map((w, i) => (i === 0 ? lowerFirst(w) : upperFirst(w)))
        .join(""),
  ],
  ["PASCAL", (v) => camelParts(v).map(upperFirst).join("")],
  ["LOWER", (v) => v.toLowerCase()],
  ["UPPER", (v) => v.toUpperCase()],
  ["TITLE", (v) => v.replace(/\p{L}[\p{L}\p{N}']*/gu, (w) => upperFirst(w.toLowerCase()))],
];

/** What the variables of a template expansion are made of. */
export interface TemplateFacts {
  readonly repo: {
    readonly owner: string;
    readonly name: string;
    readonly description: string;
    readonly link: string;
    readonly httpsUrl: string;
  };
  readonly template: {
    readonly owner: string;
    readonly name: string;
    readonly description: string;
    readonly link: string;
    readonly httpsUrl: string;
  };
  readonly now: Date;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** Every variable Forgejo's generateExpansion defines, with its transformed forms. */
export function templateVariables(facts: TemplateFacts): Map<string, string> {
  const { repo, template, now } = facts;
  const two = (n: number) => String(n).padStart(2, "0");
  const base: ReadonlyArray<readonly [string, string, boolean]> = [
    ["YEAR", String(now.getFullYear()), false],
    ["MONTH", two(now.getMonth() + 1), false],
    ["MONTH_ENGLISH", MONTHS[now.getMonth()] as string, true],
    ["DAY", two(now.getDate()), false],
    ["REPO_NAME", repo.name, true],
    ["TEMPLATE_NAME", template.name, true],
    ["REPO_DESCRIPTION", repo.description, false],
    ["TEMPLATE_DESCRIPTION", template.description, false],
    ["REPO_OWNER", repo.owner, true],
    ["TEMPLATE_OWNER", template.owner, true],
    ["REPO_LINK", repo.link, false],
    ["TEMPLATE_LINK", template.link, false],
    ["REPO_HTTPS_URL", repo.httpsUrl, false],
    ["TEMPLATE_HTTPS_URL", template.httpsUrl, false],
    // Kiln serves no SSH: the SSH clone links are empty.
    ["REPO_SSH_URL", "", false],
    ["TEMPLATE_SSH_URL", "", false],
  ];
  const vars = new Map<string, string>();
  for (const [name, value, transform] of base) {
    vars.set(name, value);
    if (transform) for (const [suffix, fn] of TRANSFORMERS) vars.set(`${name}_${suffix}`, fn(value));
  }
  return vars;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: Forgejo's fileNameSanitize refuses control characters
const UNSAFE_FILE_NAME = /\.\.|[<>:"/\\|?*\u0000-\u001f]|^(con|prn|aux|nul|com\d|lpt\d)$/gi;

/** Forgejo's fileNameSanitize: an expansion inside a path cannot add directories or climb out. */
export function sanitizeFileName(value: string): string {
  return value.replace(UNSAFE_FILE_NAME, "_").trim();
}

/**
 * Expands `src` with the variables; in a path, each expansion is sanitized as a file name. Throws
 * {@link ExpansionTooLargeError} when the result would be longer than `maxLength`.
 */
export function expandTemplate(
  src: string,
  vars: ReadonlyMap<string, string>,
  inPath = false,
  maxLength = Infinity,
): string {
  return goExpand(
    src,
    (name) => {
      const value = vars.get(name);
      if (value === undefined) return name;
      return inPath ? sanitizeFileName(value) : value;
    },
    maxLength,
  );
}
