import { createHash } from "node:crypto";
import { isKilnError, type KilnError } from "@kiln/domain";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppContext } from "./env.js";
import { checkFileType, checkNewName, readUpload, type UploadOptions } from "./upload.js";

/** An app whose one route reads the upload and answers what it got (or the error's kind). */
function app(options: Partial<UploadOptions> = {}, allowedTypes = "") {
  const hono = new Hono();
  hono.post("/up", async (c) => {
    try {
      const upload = await readUpload(c as unknown as AppContext, {
        field: "attachment",
        raw: true,
        maxBytes: 1000,
        ...options,
      });
      if (!upload.file) return c.json({ file: null, fields: Object.fromEntries(upload.fields) });
      if (allowedTypes) checkFileType(upload.file, upload.file.filename, allowedTypes, "invalid_argument");
      const hash = createHash("sha256");
      let size = 0;
      for await (const chunk of upload.file.body) {
        hash.update(chunk);
        size += chunk.byteLength;
      }
      return c.json({
        filename: upload.file.filename,
        contentType: upload.file.contentType,
        size,
        sha: hash.digest("hex"),
        fields: Object.fromEntries(upload.fields),
      });
    } catch (error) {
      if (!isKilnError(error)) throw error;
      return c.json({ kind: (error as KilnError).kind, message: error.message }, 400);
    }
  });
  return hono;
}

const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const form = (
  parts: ({ name: string; value: string } | { name: string; filename: string; data: Buffer })[],
) => {
  const boundary = "----kilnboundary";
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ("value" in part) {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        part.data,
        Buffer.from("\r\n"),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
};
const post = async (hono: Hono, body: RequestInit["body"], headers: Record<string, string> = {}) => {
  const r = await hono.request("http://x/up", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
  return { status: r.status, json: await r.json() };
};

/** A body that arrives in pieces, as from a socket. */
function streamed(chunks: Buffer[], fail?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as Buffer);
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
}

describe("readUpload", () => {
  it("takes a raw body as the file, byte for byte", async () => {
    const data = Buffer.from(Array.from({ length: 900 }, (_, i) => i % 256));
    const res = await post(app(), data, { "Content-Type": "application/octet-stream" });
    expect(res.json).toMatchObject({
      filename: "",
      contentType: "application/octet-stream",
      size: 900,
      sha: sha(data),
    });
  });

  it("takes the named part of a multipart form, with the text fields before it, skipping other files", async () => {
    const data = Buffer.from("%PDF-1.7 a document\n".repeat(40));
    const f = form([
      { name: "external_url", value: "" },
      { name: "other", filename: "skip.bin", data: Buffer.from("not this one") },
      { name: "attachment", filename: "doc.pdf", data },
      { name: "after", value: "late" },
    ]);
    const res = await post(app(), f.body, { "Content-Type": f.type });
    expect(res.json).toEqual({
      filename: "doc.pdf",
      contentType: "application/octet-stream",
      size: data.length,
      sha: sha(data),
      fields: { external_url: "", after: "late" },
    });
  });

  it("answers a form without the file with its fields, and refuses a raw body where a form is required", async () => {
    const f = form([{ name: "external_url", value: "https://example.com/x.zip" }]);
    expect((await post(app(), f.body, { "Content-Type": f.type })).json).toEqual({
      file: null,
      fields: { external_url: "https://example.com/x.zip" },
    });
    const raw = await post(app({ raw: false }), "bytes", { "Content-Type": "text/plain" });
    expect(raw.json).toMatchObject({
      kind: "bad_request",
      message: expect.stringContaining("multipart/form-data"),
    });
  });

  it("refuses more than maxBytes with 413: a declared length at once, a streamed body as it passes the limit", async () => {
    const big = Buffer.alloc(1001, 1);
    const declared = await post(app(), big, {
      "Content-Type": "application/octet-stream",
      "Content-Length": "1001",
    });
    expect(declared.json).toMatchObject({ kind: "payload_too_large" });
    const res = await post(
      app({ limitName: "[attachment] MAX_SIZE" }),
      streamed([big.subarray(0, 600), big.subarray(600)]),
      {
        "Content-Type": "application/octet-stream",
      },
    );
    expect(res.json).toMatchObject({
      kind: "payload_too_large",
      message: expect.stringContaining("[attachment] MAX_SIZE"),
    });
    const f = form([{ name: "attachment", filename: "big.bin", data: Buffer.alloc(5000, 2) }]);
    const chunks = [f.body.subarray(0, 300), f.body.subarray(300, 2000), f.body.subarray(2000)];
    expect((await post(app(), streamed(chunks), { "Content-Type": f.type })).json).toMatchObject({
      kind: "payload_too_large",
    });
    // Exactly the limit passes.
    expect((await post(app(), Buffer.alloc(1000, 3))).json).toMatchObject({ size: 1000 });
  });

  it("fails a form that breaks off or is malformed with 400, and a body whose connection fails with its error", async () => {
    const f = form([{ name: "attachment", filename: "a.bin", data: Buffer.alloc(800, 7) }]);
    const cut = await post(app(), streamed([f.body.subarray(0, 500)]), { "Content-Type": f.type });
    expect(cut.json).toMatchObject({ kind: "bad_request", message: expect.stringContaining("incomplete") });
    const noBoundary = await post(app(), "x", { "Content-Type": "multipart/form-data" });
    expect(noBoundary.status).toBe(400);
    const hono = app();
    await expect(
      hono.request("http://x/up", {
        method: "POST",
        body: streamed([Buffer.alloc(100)], new Error("connection reset")),
        headers: { "Content-Type": "application/octet-stream" },
        duplex: "half",
      } as RequestInit),
    ).resolves.toMatchObject({ status: 500 });
  });

  it("answers a body whose client went away (Node's `aborted`, ECONNRESET) with 400, not an internal error", async () => {
    const gone = () => Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    const raw = await post(app(), streamed([Buffer.alloc(600, 1)], gone()), {
      "Content-Type": "application/octet-stream",
    });
    expect(raw.json).toMatchObject({ kind: "bad_request", message: expect.stringContaining("interrupted") });
    const f = form([{ name: "attachment", filename: "a.bin", data: Buffer.alloc(800, 7) }]);
    const cut = await post(app(), streamed([f.body.subarray(0, 700)], gone()), { "Content-Type": f.type });
    expect(cut.json).toMatchObject({ kind: "bad_request", message: expect.stringContaining("interrupted") });
  });

  it("refuses a new name ALLOWED_TYPES does not allow, as Forgejo's UpdateAttachment (422)", () => {
    expect(() => checkNewName("notes.txt", ".txt,.zip")).not.toThrow();
    expect(() => checkNewName("evil.html", ".txt,.zip")).toThrow(
      expect.objectContaining({
        kind: "invalid_argument",
        message: "This file extension or type is not allowed to be uploaded.",
      }),
    );
    // With no bytes the sniffed type is text/plain, as Go's DetectContentType(nil).
    expect(() => checkNewName("evil.html", "text/plain")).not.toThrow();
    expect(() => checkNewName("anything.exe", "")).not.toThrow();
  });

  it("checks [attachment] ALLOWED_TYPES by extension or sniffed type, with Forgejo's message", async () => {
    const allowed = ".zip,image/*,text/plain";
    const zip = form([{ name: "attachment", filename: "a.ZIP", data: Buffer.from("anything at all") }]);
    expect((await post(app({}, allowed), zip.body, { "Content-Type": zip.type })).json).toMatchObject({
      filename: "a.ZIP",
    });
    const png = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(600)]);
    const image = form([{ name: "attachment", filename: "picture.bin", data: png }]);
    expect((await post(app({}, allowed), image.body, { "Content-Type": image.type })).json).toMatchObject({
      size: png.length,
    });
    const exe = form([
      { name: "attachment", filename: "tool.exe", data: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]) },
    ]);
    expect((await post(app({}, allowed), exe.body, { "Content-Type": exe.type })).json).toEqual({
      kind: "invalid_argument",
      message: "This file extension or type is not allowed to be uploaded.",
    });
  });
});
