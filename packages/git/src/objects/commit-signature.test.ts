import { describe, expect, it } from "vitest";
import { splitSignedCommit } from "./commit-signature.js";

const tree = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n";
const people = "author A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n";

describe("splitSignedCommit", () => {
  it("takes the gpgsig header and its continuation lines out, leaving the signed bytes", () => {
    const raw = `${tree}${people}gpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----\nencoding UTF-8\n\nmessage\n\nbody\n`;
    expect(splitSignedCommit(Buffer.from(raw))).toEqual({
      signature: "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n",
      payload: `${tree}${people}encoding UTF-8\n\nmessage\n\nbody\n`,
    });
  });

  it("reads gpgsig-sha256 too, and nothing from an unsigned commit", () => {
    const raw = `${tree}${people}gpgsig-sha256 -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nm\n`;
    expect(splitSignedCommit(Buffer.from(raw))?.signature).toBe(
      "-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n",
    );
    expect(splitSignedCommit(Buffer.from(`${tree}${people}\nm\n`))).toBeUndefined();
  });
});
