import { api, type User } from "@kiln/domain";
import type * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";

/** Forgejo's routers/api/v1/user/settings.go: the signed-in user's own settings. */

function toApiSettings(user: User): v.InferOutput<typeof api.UserSettings> {
  return {
    full_name: user.fullName,
    website: user.website,
    description: user.description,
    location: user.location,
    pronouns: user.pronouns,
    language: user.language,
    theme: user.theme,
    diff_view_style: user.diffViewStyle,
    hide_email: user.keepEmailPrivate,
    hide_activity: user.hideActivity,
    hide_pronouns: user.hidePronouns,
    enable_repo_unit_hints: user.enableRepoUnitHints,
  };
}

export const getUserSettings = route({
  method: "get",
  path: "/user/settings",
  operationId: "getUserSettings",
  tags: ["user"],
  summary: "Get user settings",
  access: "signed-in",
  scopes: ["user"],
  responses: { 200: { description: "UserSettings", schema: api.UserSettings } },
  handler(c, { principal }) {
    return c.json(toApiSettings(requirePrincipal(principal).user));
  },
});

export const updateUserSettings = route({
  method: "patch",
  path: "/user/settings",
  operationId: "updateUserSettings",
  tags: ["user"],
  summary: "Update user settings",
  access: "signed-in",
  scopes: ["user"],
  body: api.UserSettingsOptions,
  responses: { 200: { description: "UserSettings", schema: api.UserSettings } },
  async handler(c, { body, principal }) {
    const user = await c.get("services").users.updateSettings(requirePrincipal(principal).user, {
      fullName: body.full_name,
      website: body.website,
      description: body.description,
      location: body.location,
      pronouns: body.pronouns,
      language: body.language,
      theme: body.theme,
      diffViewStyle: body.diff_view_style,
      hideEmail: body.hide_email,
      hideActivity: body.hide_activity,
      hidePronouns: body.hide_pronouns,
      enableRepoUnitHints: body.enable_repo_unit_hints,
    });
    return c.json(toApiSettings(user));
  },
});

export const userSettingsRoutes = [getUserSettings, updateUserSettings];
