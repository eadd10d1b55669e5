import { api } from "@kiln/domain";
import { route } from "../../route.js";

/** Forgejo's routers/api/v1/settings/settings.go: instance settings clients may read. */

export const getGeneralAPISettings = route({
  method: "get",
  path: "/settings/api",
  operationId: "getGeneralAPISettings",
  tags: ["settings"],
  summary: "Get instance's global settings for api",
  access: "public",
  responses: { 200: { description: "GeneralAPISettings", schema: api.GeneralAPISettings } },
  handler(c) {
    const a = c.get("settings").api;
    return c.json({
      max_response_items: a.maxResponseItems,
      default_paging_num: a.defaultPagingNum,
      default_git_trees_per_page: a.defaultGitTreesPerPage,
      default_max_blob_size: a.defaultMaxBlobSize,
    });
  },
});

export const getGeneralUISettings = route({
  method: "get",
  path: "/settings/ui",
  operationId: "getGeneralUISettings",
  tags: ["settings"],
  summary: "Get instance's global settings for ui",
  access: "public",
  responses: { 200: { description: "GeneralUISettings", schema: api.GeneralUISettings } },
  handler(c) {
    return c.json({
      default_theme: "forgejo-auto",
      allowed_reactions: [...c.get("settings").ui.reactions],
      custom_emojis: [],
    });
  },
});

export const getGeneralRepositorySettings = route({
  method: "get",
  path: "/settings/repository",
  operationId: "getGeneralRepositorySettings",
  tags: ["settings"],
  summary: "Get instance's global settings for repositories",
  access: "public",
  responses: { 200: { description: "GeneralRepoSettings", schema: api.GeneralRepoSettings } },
  handler(c) {
    const { repository, lfs, mirror } = c.get("settings");
    return c.json({
      mirrors_disabled: repository.disableMirrors || !mirror.enabled,
      http_git_disabled: repository.disableHttpGit,
      migrations_disabled: false,
      stars_disabled: false,
      forks_disabled: false,
      time_tracking_disabled: false,
      lfs_disabled: !lfs.enabled,
      max_creation_limit: repository.maxCreationLimit,
    });
  },
});

export const getGeneralAttachmentSettings = route({
  method: "get",
  path: "/settings/attachment",
  operationId: "getGeneralAttachmentSettings",
  tags: ["settings"],
  summary: "Get instance's global settings for Attachment",
  access: "public",
  responses: { 200: { description: "GeneralAttachmentSettings", schema: api.GeneralAttachmentSettings } },
  handler(c) {
    const a = c.get("settings").attachment;
    return c.json({
      enabled: a.enabled,
      allowed_types: a.allowedTypes,
      max_size: a.maxSize,
      max_files: a.maxFiles,
    });
  },
});

export const settingsRoutes = [
  getGeneralAPISettings,
  getGeneralUISettings,
  getGeneralRepositorySettings,
  getGeneralAttachmentSettings,
];
