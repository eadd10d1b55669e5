import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endlessBody, MiB, openHardeningWorld, rawSender } from "./hardening-support.js";
import type { TestRepo } from "./repos.js";
import type { TestApp, TestUser } from "./support.js";

const oid = (n: number) => n.toString(16).padStart(64, "0");

describe.each(DIALECTS)("bounded LFS batches on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  const send = rawSender(() => t);

  beforeAll(async () => {
    ({ t, alice, reader, repo, secret } = await openHardeningWorld(dialect));
  });
  afterAll(() => t?.close());

  describe("LFS batch", () => {
    const lfsHeaders = {
      "Content-Type": "application/vnd.git-lfs+json",
      Accept: "application/vnd.git-lfs+json",
    };
    const batch = (path: string, body: string | ReadableStream<Uint8Array>, user?: TestUser) =>
      send("POST", `/alice/${path}.git/info/lfs/objects/batch`, {
        headers: lfsHeaders,
        body,
        ...(user ? { user } : {}),
      });

    it("does not read the body of an anonymous batch to a private repository", async () => {
      const { stream, seen } = endlessBody();
      const res = await batch(secret.name, stream);
      expect(res.status).toBe(401);
      expect(seen.bytes).toBe(0);
    });

    it("answers 413 for a batch body over the limit, without reading all of it", async () => {
      const { stream, seen } = endlessBody();
      const res = await batch(repo.name, stream);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toContain("application/vnd.git-lfs+json");
      expect(seen.cancelled).toBe(true);
      expect(seen.bytes).toBeLessThan(2 * MiB);
      const declared = await send("POST", `/alice/${repo.name}.git/info/lfs/objects/batch`, {
        headers: { ...lfsHeaders, "Content-Length": String(200 * MiB) },
        body: endlessBody().stream,
      });
      expect(declared.status).toBe(413);
    });

    it("answers 413 for more objects than [server] LFS_MAX_BATCH_SIZE", async () => {
      const objects = Array.from({ length: 1001 }, (_, i) => ({ oid: oid(i), size: 1 }));
      const res = await batch(repo.name, JSON.stringify({ operation: "download", objects }), alice);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toContain("application/vnd.git-lfs+json");
      expect(((await res.json()) as { message: string }).message).toBeTruthy();
      const fits = await batch(
        repo.name,
        JSON.stringify({ operation: "download", objects: objects.slice(0, 1000) }),
        alice,
      );
      expect(fits.status).toBe(200);
      const answered = (await fits.json()) as { objects: unknown[] };
      expect(answered.objects).toHaveLength(1000);
    });

    it("answers 422 with an LFS error for bodies with null or missing parts", async () => {
      for (const body of [
        "null",
        "[]",
        '"download"',
        "{}",
        '{"objects":null}',
        '{"operation":"download","objects":null}',
        '{"operation":"download","objects":[null]}',
        '{"operation":"download","objects":[{"oid":null}]}',
        '{"operation":"download","objects":[{"oid":null,"size":null}]}',
        '{"operation":"upload","objects":[5, "x", []]}',
        '{"objects":[{"oid":"x","size":1}]}',
        '{"operation":null,"objects":[]}',
      ]) {
        const res = await batch(repo.name, body, alice);
        expect(res.status, body).toBe(422);
        expect(res.headers.get("content-type"), body).toContain("application/vnd.git-lfs+json");
        expect(((await res.json()) as { message: string }).message, body).toBeTruthy();
      }
      const notJson = await batch(repo.name, "{nope", alice);
      expect(notJson.status).toBe(400);
    });

    it("checks write access for uploads after reading the body", async () => {
      const body = JSON.stringify({ operation: "upload", objects: [{ oid: oid(1), size: 1 }] });
      expect((await batch(repo.name, body, reader)).status).toBe(403);
      expect((await batch(repo.name, body)).status).toBe(401);
      expect((await batch(repo.name, body, alice)).status).toBe(200);
      const download = JSON.stringify({ operation: "download", objects: [{ oid: oid(1), size: 1 }] });
      expect((await batch(repo.name, download, reader)).status).toBe(200);
    });

    it("bounds the verify body and answers 422 for null parts", async () => {
      const verify = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
        send("POST", `/alice/${repo.name}.git/info/lfs/verify`, {
          user: alice,
          headers: { ...lfsHeaders, ...headers },
          body,
        });
      const { stream, seen } = endlessBody();
      expect((await verify(stream)).status).toBe(413);
      expect(seen.cancelled).toBe(true);
      for (const body of ["null", "{}", '{"oid":null,"size":null}', "[1]"]) {
        const res = await verify(body);
        expect(res.status, body).toBe(422);
        expect(res.headers.get("content-type")).toContain("application/vnd.git-lfs+json");
      }
      expect((await verify(JSON.stringify({ oid: oid(7), size: 3 }))).status).toBe(404);
    });
  });
});
