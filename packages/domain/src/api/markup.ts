import * as v from "valibot";

/** Longest `Context`, `BranchPath` or `FilePath` of a rendering request. */
const MAX_REFERENCE = 2048;
/** Longest text a rendering request carries (the body limit bounds it first). */
const MAX_TEXT = 8 * 1024 * 1024;

const text = (max: number) => v.optional(v.pipe(v.string(), v.maxLength(max)), "");

/** `POST /markdown` (Forgejo's MarkdownOption; field names as Go spells them, matched in any case). */
export const MarkdownOption = v.object({
  Context: text(MAX_REFERENCE),
  Mode: text(32),
  Text: text(MAX_TEXT),
  Wiki: v.optional(v.boolean(), false),
});

/** `POST /markup` (Forgejo's MarkupOption). */
export const MarkupOption = v.object({
  BranchPath: text(MAX_REFERENCE),
  Context: text(MAX_REFERENCE),
  FilePath: text(MAX_REFERENCE),
  Mode: text(32),
  Text: text(MAX_TEXT),
  Wiki: v.optional(v.boolean(), false),
});

/** One entry of `GET /licenses`. */
export const LicensesTemplateListEntry = v.object({ key: v.string(), name: v.string(), url: v.string() });

/** `GET /licenses/{name}`: a license with its text. */
export const LicenseTemplateInfo = v.object({
  key: v.string(),
  name: v.string(),
  url: v.string(),
  implementation: v.string(),
  body: v.string(),
});
