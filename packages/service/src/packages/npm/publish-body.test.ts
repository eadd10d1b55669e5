import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { splitPublishBody } from "./publish-body.js";

/** Feeds `text` in chunks of `size` bytes, as a socket might. */
async function* chunks(text: string | Buffer, size: number): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(body: AsyncIterable<Uint8Array>, limit = 1 << 20) {
  const split = splitPublishBody(body, limit);
  const parts: Uint8Array[] = [];
  for await (const part of split.tarball) parts.push(part);
  return { tarball: Buffer.concat(parts), document: split.document() as Record<string, unknown> };
}

const publish = (data: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    _id: "@s/p",
    name: "@s/p",
    "dist-tags": { latest: "1.0.0" },
    versions: { "1.0.0": { name: "@s/p", version: "1.0.0", readme: 'quotes " and \\ and {braces}' } },
    _attachments: { "p-1.0.0.tgz": { content_type: "application/octet-stream", data, length: 3 } },
    ...extra,
  });

describe("splitPublishBody", () => {
  it("decodes the tarball and keeps the rest of the document, whatever the chunking", async () => {
    const tarball = randomBytes(200_000);
    const text = publish(tarball.toString("base64"));
    for (const size of [1, 3, 7, 4096, 65_537, text.length]) {
      const out = await read(chunks(text, size));
      expect(out.tarball.equals(tarball), `chunks of ${size}`).toBe(true);
      const expected = JSON.parse(text);
      expected._attachments["p-1.0.0.tgz"].data = "";
      expect(out.document).toEqual(expected);
    }
  });

  it("takes the first attachment and drops the data of others; escaped slashes are base64's", async () => {
    const text = JSON.stringify({
      versions: {},
      _attachments: { a: { data: "YWJj" }, b: { data: "ZGVm" } },
    }).replace("YWJj", "YW\\/j");
    const out = await read(chunks(text, 2));
    expect(out.tarball).toEqual(Buffer.from("YW/j", "base64"));
    expect(out.document).toEqual({ versions: {}, _attachments: { a: { data: "" }, b: { data: "" } } });
  });

  it("refuses invalid base64, a missing attachment, a broken document and a document over the limit", async () => {
    for (const data of ["YWJ", "YW=j", "Y*Jj", "YWJj\\n"]) {
      await expect(read(chunks(publish(data), 5)), data).rejects.toMatchObject({ kind: "bad_request" });
    }
    await expect(read(chunks(JSON.stringify({ versions: {} }), 5))).rejects.toMatchObject({
      message: "package attachment is invalid",
    });
    await expect(read(chunks(publish("YWJj").slice(0, -1), 5))).rejects.toMatchObject({
      kind: "bad_request",
    });
    await expect(
      read(chunks(publish("YWJj", { readme: "x".repeat(5000) }), 100), 1000),
    ).rejects.toMatchObject({
      kind: "payload_too_large",
    });
    // The tarball does not count against the document's limit.
    const big = randomBytes(50_000).toString("base64");
    expect((await read(chunks(publish(big), 999), 2000)).tarball.length).toBe(50_000);
  });
});
