import { type Attachment, defaultSettings } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { goPathEscape, releaseAssetUrls, toApiAttachment } from "./release.js";

const settings = defaultSettings("/tmp/kiln-convert", { server: { rootUrl: "http://kiln.test/" } });
const repo = { ownerName: "alice", name: "tool" };

function asset(id: number, name: string, externalUrl: string | null = null): Attachment {
  return {
    id,
    uuid: `00000000-0000-4000-8000-00000000000${id}`,
    repoId: 1,
    issueId: null,
    commentId: null,
    releaseId: 1,
    uploaderId: 1,
    name,
    size: 3,
    blobKey: externalUrl ? null : "k",
    externalUrl,
    downloadCount: 0,
    createdAt: new Date(0),
  };
}

describe("release asset download links (Forgejo's GetReleaseAttachments)", () => {
  it("escapes as Go's url.PathEscape: a slash too, but not $&+,:;=@", () => {
    expect(goPathEscape("v1/rc+1 b")).toBe("v1%2Frc+1%20b");
    expect(goPathEscape("a$&+,:;=@!'()*")).toBe("a$&+,:;=@%21%27%28%29%2A");
  });

  it("names each stored asset by tag and name when the release's names are unique", () => {
    const assets = [asset(1, "tool.tar.gz"), asset(2, "notes v2.txt")];
    const urls = releaseAssetUrls({ tagName: "v1/rc" }, repo, assets, settings);
    const api = assets.map((a) => toApiAttachment(a, settings, urls.get(a.id)).browser_download_url);
    expect(api).toEqual([
      "http://kiln.test/alice/tool/releases/download/v1%2Frc/tool.tar.gz",
      "http://kiln.test/alice/tool/releases/download/v1%2Frc/notes%20v2.txt",
    ]);
  });

  it("falls back to attachments/{uuid} when names repeat, and keeps an external asset's own URL", () => {
    const twins = [asset(1, "same.bin"), asset(2, "same.bin")];
    const urls = releaseAssetUrls({ tagName: "v1" }, repo, twins, settings);
    expect(urls.size).toBe(0);
    expect(toApiAttachment(twins[0] as Attachment, settings, urls.get(1)).browser_download_url).toBe(
      "http://kiln.test/attachments/00000000-0000-4000-8000-000000000001",
    );
    const external = asset(3, "ext.zip", "https://example.com/ext.zip");
    const named = releaseAssetUrls({ tagName: "v1" }, repo, [external], settings);
    expect(toApiAttachment(external, settings, named.get(3)).browser_download_url).toBe(
      "https://example.com/ext.zip",
    );
  });
});
