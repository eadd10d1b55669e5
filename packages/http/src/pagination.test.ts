import { describe, expect, it } from "vitest";
import { linkHeader, pageRequest } from "./pagination.js";

const api = {
  maxBodySize: 1048576,
  defaultPagingNum: 30,
  maxResponseItems: 50,
  defaultGitTreesPerPage: 1000,
  defaultMaxBlobSize: 1,
};

describe("pageRequest", () => {
  it("defaults, clamps and repairs page and limit as Forgejo does", () => {
    expect(pageRequest({}, api)).toEqual({ page: 1, limit: 30 });
    expect(pageRequest({ page: "3", limit: "10" }, api)).toEqual({ page: 3, limit: 10 });
    expect(pageRequest({ page: "0", limit: "500" }, api)).toEqual({ page: 1, limit: 50 });
    expect(pageRequest({ page: "-2", limit: "-1" }, api)).toEqual({ page: 1, limit: 30 });
    expect(pageRequest({ page: "x", limit: "ten" }, api)).toEqual({ page: 1, limit: 30 });
  });

  it("clamps a huge page so that its offset stays a safe integer", () => {
    for (const page of ["9223372036854775808", "9".repeat(400), String(Number.MAX_SAFE_INTEGER)]) {
      const request = pageRequest({ page, limit: "7" }, api);
      expect(request.limit).toBe(7);
      const offset = (request.page - 1) * request.limit;
      expect(Number.isSafeInteger(offset)).toBe(true);
      expect(offset).toBeGreaterThan(2 ** 52);
    }
    expect(pageRequest({ page: "-9223372036854775809" }, api)).toEqual({ page: 1, limit: 30 });
    expect(pageRequest({ page: "2", limit: "99999999999999999999" }, api)).toEqual({ page: 2, limit: 50 });
  });
});

describe("linkHeader", () => {
  it("matches Forgejo's own test vector (total 100, limit 20, page 2)", () => {
    const url = new URL("http://localhost:3000/api/v1/repos/jerrykan/example-repo/issues?state=all&page=1");
    const root = "http://localhost:3000/";
    expect(linkHeader(root, url, { page: 2, limit: 20 }, 100)).toBe(
      [
        '<http://localhost:3000/api/v1/repos/jerrykan/example-repo/issues?page=3&state=all>; rel="next"',
        '<http://localhost:3000/api/v1/repos/jerrykan/example-repo/issues?page=5&state=all>; rel="last"',
        '<http://localhost:3000/api/v1/repos/jerrykan/example-repo/issues?page=1&state=all>; rel="first"',
        '<http://localhost:3000/api/v1/repos/jerrykan/example-repo/issues?page=1&state=all>; rel="prev"',
      ].join(","),
    );
  });

  it("is empty when everything fits on one page, and has no next/last on the last page", () => {
    const url = new URL("http://h/api/v1/admin/users?limit=10");
    expect(linkHeader("http://h/", url, { page: 1, limit: 10 }, 10)).toBe("");
    expect(linkHeader("http://h/", url, { page: 2, limit: 10 }, 15)).toBe(
      '<http://h/api/v1/admin/users?limit=10&page=1>; rel="first",<http://h/api/v1/admin/users?limit=10&page=1>; rel="prev"',
    );
  });

  it("escapes query values the way Go's url.Values.Encode does", () => {
    const url = new URL("http://h/api/v1/users/search?q=a%20b*c~d");
    expect(linkHeader("http://h/", url, { page: 1, limit: 1 }, 2)).toContain("page=2&q=a+b%2Ac~d");
  });
});
