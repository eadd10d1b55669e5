import { DEFAULT_ATTACHMENT_TYPES } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { detectContentType, refusedType } from "./upload-type.js";

const b = (text: string) => Buffer.from(text, "latin1");

describe("detectContentType (Go's http.DetectContentType)", () => {
  it.each([
    ["  <!DOCTYPE html><html>", "text/html; charset=utf-8"],
    ["<p>hi</p>", "text/html; charset=utf-8"],
    ["<?xml version='1.0'?>", "text/xml; charset=utf-8"],
    ["%PDF-1.4", "application/pdf"],
    ["\x89PNG\r\n\x1a\n....", "image/png"],
    ["GIF89a", "image/gif"],
    ["\xff\xd8\xff\xe0", "image/jpeg"],
    ["RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"],
    ["PK\x03\x04", "application/zip"],
    ["\x1f\x8b\x08\x00", "application/x-gzip"],
    ["\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom", "video/mp4"],
    ["\x1aE\xdf\xa3", "video/webm"],
    ["hello, world\n", "text/plain; charset=utf-8"],
    ["", "text/plain; charset=utf-8"],
    ["\xef\xbb\xbfbom", "text/plain; charset=utf-8"],
    ["MZ\x90\x00\x03", "application/octet-stream"],
  ])("%j is %s", (data, type) => {
    expect(detectContentType(b(data))).toBe(type);
  });

  it("looks at the first 512 bytes only", () => {
    expect(detectContentType(Buffer.concat([Buffer.alloc(512, 0x41), Buffer.from([0])]))).toBe(
      "text/plain; charset=utf-8",
    );
  });
});

describe("refusedType (Forgejo's upload.Verify)", () => {
  it("allows everything with an empty list or */*, and by extension, type or wildcard", () => {
    expect(refusedType(b("MZ"), "x.exe", "")).toBeUndefined();
    expect(refusedType(b("MZ"), "x.exe", " */* ")).toBeUndefined();
    expect(refusedType(b("MZ"), "dir.d/x.EXE", ".exe")).toBeUndefined();
    expect(refusedType(b("GIF89a"), "x", "image/*")).toBeUndefined();
    expect(refusedType(b("plain"), "x", "application/zip|text/plain")).toBeUndefined();
  });

  it("refuses with the sniffed type otherwise (Forgejo's default list)", () => {
    expect(refusedType(b("MZ\x90\x00"), "tool.exe", DEFAULT_ATTACHMENT_TYPES)).toBe(
      "application/octet-stream",
    );
    expect(refusedType(b("<html><body>"), "page.html", DEFAULT_ATTACHMENT_TYPES)).toBe(
      "text/html; charset=utf-8",
    );
    expect(refusedType(b("notes"), "notes.txt", DEFAULT_ATTACHMENT_TYPES)).toBeUndefined();
    expect(refusedType(b("MZ\x90\x00"), "archive.tar.gz", DEFAULT_ATTACHMENT_TYPES)).toBeUndefined();
  });
});
