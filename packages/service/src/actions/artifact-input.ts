import { InvalidArgumentError } from "@kiln/domain";

/** The longest artifact name Kiln keeps. */
export const MAX_ARTIFACT_NAME = 255;

/** Characters an artifact name may not hold (actions/upload-artifact's and Gitea's list). */
const FORBIDDEN = /["\\/:<>|*?\r\n]/;

/**
 * Refuses (422) an artifact name that is empty, longer than {@link MAX_ARTIFACT_NAME}, has a
 * control character, or one of `" : < > | * ? \ /` (Gitea's validateArtifactName).
 */
export function checkArtifactName(name: string): void {
  const control = [...name].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === "\u007f");
  if (name.length === 0 || name.length > MAX_ARTIFACT_NAME || FORBIDDEN.test(name) || control)
    throw new InvalidArgumentError(`invalid artifact name: ${JSON.stringify(name.slice(0, 100))}`);
}

const LOCAL_FILE = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ARCHIVE = [0x50, 0x4b, 0x05, 0x06];

/**
 * Passes a zip archive's bytes through, refusing (422) a body that does not start as one (a local
 * file header, or the end record of an empty archive): an artifact is the zip `GET …/zip` serves.
 */
export async function* zipOnly(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const head: number[] = [];
  for await (const chunk of body) {
    if (head.length < 4) {
      for (let i = 0; i < chunk.byteLength && head.length < 4; i++) head.push(chunk[i] as number);
      if (head.length === 4 && !isZip(head)) throw notZip();
    }
    yield chunk;
  }
  if (!isZip(head)) throw notZip();
}

function isZip(head: readonly number[]): boolean {
  return [LOCAL_FILE, EMPTY_ARCHIVE].some((magic) => magic.every((byte, i) => head[i] === byte));
}

function notZip(): InvalidArgumentError {
  return new InvalidArgumentError("an artifact must be a zip archive");
}
