import { describe, expect, it } from "vitest";
import { GitInvalidArgumentError } from "../errors/git-error.js";
import { type LfsBatchContext, lfsBatch, parseLfsBatchRequest } from "./lfs-batch.js";

const stored = "a".repeat(64);
const hidden = "b".repeat(64);
const missing = "c".repeat(64);

const context: LfsBatchContext = {
  storedSize: async (oid) => (oid === stored || oid === hidden ? 100 : undefined),
  visible: (oid) => oid === stored,
  hrefBase: "http://h/o/r.git/info/lfs/",
  actionHeaders: { Authorization: "Basic x" },
};

describe("parseLfsBatchRequest", () => {
  it("accepts upload and download with basic transfers", () => {
    expect(
      parseLfsBatchRequest({
        operation: "download",
        transfers: ["basic"],
        objects: [{ oid: stored, size: 1 }],
      }),
    ).toEqual({ operation: "download", objects: [{ oid: stored, size: 1 }] });
  });

  it("rejects unknown operations, missing objects, other transfers and hash algorithms", () => {
    for (const body of [
      null,
      { operation: "delete", objects: [] },
      { operation: "upload" },
      { operation: "upload", objects: [], transfers: ["tus"] },
      { operation: "upload", objects: [], hash_algo: "sha512" },
      [],
      { objects: null },
      { operation: null, objects: [] },
      { operation: "download", objects: null },
      { operation: "download", objects: [null] },
      { operation: "download", objects: [{ oid: null }] },
      { operation: "download", objects: [{ oid: stored, size: null }] },
      { operation: "upload", objects: [5] },
    ]) {
      expect(() => parseLfsBatchRequest(body)).toThrow(GitInvalidArgumentError);
    }
  });
});

describe("lfsBatch", () => {
  it("gives download links for stored, visible objects and 404 for the rest", async () => {
    const { response } = await lfsBatch(
      {
        operation: "download",
        objects: [
          { oid: stored, size: 100 },
          { oid: hidden, size: 100 },
          { oid: missing, size: 5 },
        ],
      },
      context,
    );
    expect(response).toEqual({
      transfer: "basic",
      hash_algo: "sha256",
      objects: [
        {
          oid: stored,
          size: 100,
          authenticated: true,
          actions: {
            download: {
              href: `http://h/o/r.git/info/lfs/objects/${stored}`,
              header: { Authorization: "Basic x" },
            },
          },
        },
        { oid: hidden, size: 100, error: { code: 404, message: "Object does not exist" } },
        { oid: missing, size: 5, error: { code: 404, message: "Object does not exist" } },
      ],
    });
  });

  it("asks to upload what is missing or invisible, and reports visible objects as already stored", async () => {
    const { response, alreadyStored } = await lfsBatch(
      {
        operation: "upload",
        objects: [
          { oid: stored, size: 100 },
          { oid: hidden, size: 100 },
        ],
      },
      context,
    );
    expect(response.objects[0]).toEqual({ oid: stored, size: 100, authenticated: true });
    expect(response.objects[1]?.actions).toEqual({
      upload: {
        href: `http://h/o/r.git/info/lfs/objects/${hidden}/100`,
        header: { Authorization: "Basic x" },
      },
      verify: { href: "http://h/o/r.git/info/lfs/verify", header: { Authorization: "Basic x" } },
    });
    expect(alreadyStored).toEqual([{ oid: stored, size: 100 }]);
  });

  it("links a stored object only through linkStored, with the stored size, and otherwise asks for an upload", async () => {
    const asked: [string, number][] = [];
    const linking: LfsBatchContext = {
      ...context,
      linkStored: async (oid, size) => {
        asked.push([oid, size]);
        return oid === hidden;
      },
    };
    const other = "d".repeat(64);
    const { response, alreadyStored } = await lfsBatch(
      {
        operation: "upload",
        objects: [
          { oid: hidden, size: 100 },
          { oid: hidden, size: 7 },
          { oid: missing, size: 5 },
          { oid: other, size: 100 },
        ],
      },
      { ...linking, storedSize: async (oid) => (oid === missing ? undefined : 100) },
    );
    expect(asked).toEqual([
      [hidden, 100],
      [other, 100],
    ]);
    expect(response.objects[0]).toEqual({ oid: hidden, size: 100, authenticated: true });
    for (const object of response.objects.slice(1)) {
      expect(object.error).toBeUndefined();
      expect(Object.keys(object.actions ?? {})).toEqual(["upload", "verify"]);
    }
    expect(alreadyStored).toEqual([{ oid: hidden, size: 100 }]);
  });

  it("answers an object another repository holds exactly like a missing one, whatever size is asked", async () => {
    for (const operation of ["download", "upload"] as const) {
      const { response } = await lfsBatch(
        {
          operation,
          objects: [
            { oid: hidden, size: 1 },
            { oid: missing, size: 1 },
          ],
        },
        context,
      );
      const [a, b] = response.objects;
      expect({ ...a, oid: "x", actions: undefined }).toEqual({ ...b, oid: "x", actions: undefined });
      expect(JSON.stringify(response)).not.toContain("100");
    }
  });

  it("answers 422 per object for invalid oids or sizes and a size that disagrees with the store", async () => {
    const { response } = await lfsBatch(
      {
        operation: "upload",
        objects: [
          { oid: "xyz", size: 1 },
          { oid: missing, size: -1 },
          { oid: stored, size: 99 },
        ],
      },
      context,
    );
    expect(response.objects.map((object) => object.error?.code)).toEqual([422, 422, 422]);
    expect(response.objects[2]?.error?.message).toBe(`Object ${stored} is not 99 bytes`);
  });
});
