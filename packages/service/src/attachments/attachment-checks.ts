import { BadRequestError, InvalidArgumentError } from "@kiln/domain";

/** The longest attachment name Kiln keeps (Forgejo's column is a VARCHAR(255)). */
export const MAX_ATTACHMENT_NAME = 255;

/** An attachment's name, trimmed: 400 when empty, 422 when too long or holding control characters. */
export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new BadRequestError("Missing 'name' parameter");
  if ([...trimmed].length > MAX_ATTACHMENT_NAME)
    throw new InvalidArgumentError(`the attachment name is longer than ${MAX_ATTACHMENT_NAME} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw new InvalidArgumentError("the attachment name holds control characters");
  return trimmed;
}

/** Forgejo's IsValidReleaseAssetURL: an absolute http(s) URL. */
export function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError(`invalid external URL: '${url.slice(0, 200)}'`);
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || url.length > 2048)
    throw new BadRequestError(`invalid external URL: '${url.slice(0, 200)}'`);
  return parsed.toString();
}
