import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("[picture] and [avatars] settings", () => {
  it("defaults to Forgejo's (1 MiB, 4096 × 4096) and stores avatars under the data directory", () => {
    expect(load("").picture).toEqual({
      avatarPath: "/srv/kiln/data/avatars",
      avatarMaxFileSize: 1024 * 1024,
      avatarMaxWidth: 4096,
      avatarMaxHeight: 4096,
      repositoryAvatarFallback: "none",
      repositoryAvatarFallbackImage: "/assets/img/repo_default.png",
    });
  });

  it("reads the keys, sizes with units, and the storage sections", () => {
    const p = load(
      "[picture]\nAVATAR_MAX_FILE_SIZE = 2MiB\nAVATAR_MAX_WIDTH = 512\nAVATAR_MAX_HEIGHT = 256\n[avatars]\nPATH = pics",
    ).picture;
    expect(p).toEqual({
      avatarPath: "/srv/kiln/pics",
      avatarMaxFileSize: 2 * 1024 * 1024,
      avatarMaxWidth: 512,
      avatarMaxHeight: 256,
      repositoryAvatarFallback: "none",
      repositoryAvatarFallbackImage: "/assets/img/repo_default.png",
    });
    const fallback = load(
      "[picture]\nREPOSITORY_AVATAR_FALLBACK = image\nREPOSITORY_AVATAR_FALLBACK_IMAGE = /img/r.png",
    ).picture;
    expect(fallback).toMatchObject({
      repositoryAvatarFallback: "image",
      repositoryAvatarFallbackImage: "/img/r.png",
    });
    expect(() => load("[picture]\nREPOSITORY_AVATAR_FALLBACK = sometimes")).toThrow(ConfigError);
    expect(load("[storage]\nPATH = /store").picture.avatarPath).toBe("/store/avatars");
    expect(() => load("[picture]\nAVATAR_MAX_WIDTH = 0")).toThrow(ConfigError);
    expect(() => load("[picture]\nAVATAR_MAX_FILE_SIZE = lots")).toThrow(ConfigError);
  });
});
