import { describe, expect, it } from "vitest";
import { UnrecognizedSubjectError } from "./errors.js";
import { parseSubject } from "./parse-subject.js";
import { SUBJECTS } from "./subject.js";
import {
  ancestorsOf,
  childrenOf,
  descendantsOf,
  isAncestorOf,
  parentOf,
  subjectsRelated,
} from "./subject-tree.js";

describe("the subject tree of decision 3, docs/decisions.md", () => {
  it("has size:all above sizeall and size:assets:all", () => {
    expect(childrenOf("size:all")).toEqual(["sizeall", "size:assets:all"]);
    expect(parentOf("size:all")).toBeUndefined();
  });

  it("has sizeall above the repositories and LFS", () => {
    expect(childrenOf("sizeall")).toEqual(["size:repos:all", "sizelfs"]);
    expect(childrenOf("size:repos:all")).toEqual(["size:repos:public", "size:repos:private"]);
    expect(childrenOf("sizelfs")).toEqual([]);
  });

  it("has size:assets:all above attachments, artifacts, packages and the wiki", () => {
    expect(childrenOf("size:assets:all")).toEqual([
      "size:assets:attachments:all",
      "size:assets:artifacts",
      "size:assets:packages:all",
      "size:wiki",
    ]);
    expect(childrenOf("size:assets:attachments:all")).toEqual([
      "size:assets:attachments:issues",
      "size:assets:attachments:releases",
    ]);
  });

  it("keeps none outside the tree", () => {
    expect(parentOf("none")).toBeUndefined();
    expect(childrenOf("none")).toEqual([]);
    for (const subject of SUBJECTS)
      if (subject !== "none") expect(subjectsRelated("none", subject)).toBe(false);
  });

  it("reaches every subject but none from size:all", () => {
    expect([...descendantsOf("size:all")].sort()).toEqual(
      SUBJECTS.filter((s) => s !== "size:all" && s !== "none").sort(),
    );
  });

  it("lists ancestors nearest first and accepts aliases and parsed subjects", () => {
    expect(ancestorsOf("size:repos:public")).toEqual(["size:repos:all", "sizeall", "size:all"]);
    expect(ancestorsOf("size:git:lfs")).toEqual(["sizeall", "size:all"]);
    expect(ancestorsOf(parseSubject("size:assets:wiki"))).toEqual(["size:assets:all", "size:all"]);
    expect(descendantsOf("size:git:all")).toEqual([
      "size:repos:all",
      "size:repos:public",
      "size:repos:private",
      "sizelfs",
    ]);
  });

  it("relates a subject to itself, its ancestors and its descendants only", () => {
    expect(subjectsRelated("size:repos:public", "size:repos:public")).toBe(true);
    expect(subjectsRelated("size:repos:public", "size:all")).toBe(true);
    expect(subjectsRelated("size:all", "size:repos:public")).toBe(true);
    expect(subjectsRelated("size:git:lfs", "sizelfs")).toBe(true);
    expect(subjectsRelated("size:repos:public", "size:repos:private")).toBe(false);
    expect(subjectsRelated("sizelfs", "size:repos:all")).toBe(false);
    expect(subjectsRelated("size:assets:packages:all", "sizeall")).toBe(false);
    expect(isAncestorOf("size:assets:all", "size:wiki")).toBe(true);
    expect(isAncestorOf("size:wiki", "size:assets:all")).toBe(false);
  });

  it("rejects unknown subjects", () => {
    expect(() => parentOf("size:nope" as never)).toThrow(UnrecognizedSubjectError);
  });
});
