import type { TestApp, TestUser } from "../support.js";

/** The site admin's own OAuth2 application, for the routes under `/user/applications/oauth2/{id}`. */
export async function seedOAuth2App(t: TestApp, admin: TestUser): Promise<{ id: number; target: string }> {
  const target = `${admin.name}-own-oauth2-app`;
  const user = await t.services.users.findByName(admin.name);
  if (!user) throw new Error("no admin");
  const { application } = await t.services.oauth2Applications.create(user, {
    name: target,
    confidentialClient: true,
    redirectUris: ["https://app.invalid/cb"],
  });
  return { id: application.id, target };
}
