import { actorFor } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../test/support.js";

describe.each(DIALECTS)("user, organization, repository and notification pages on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    const s = t.services;
    const ada = await t.user({ name: "ada" });
    const bob = await t.user({ name: "bob" });
    await s.repositories.create(ada, ada, {
      name: "engine",
      description: "the analytical engine",
      autoInit: true,
    });
    await s.repositories.create(ada, ada, { name: "notes-private", private: true });
    const guild = await s.orgs.create(ada, "guild", { visibility: "public", description: "makers" });
    await s.repositories.create(ada, guild, { name: "loom" });
    await s.repositories.create(ada, guild, { name: "loom-secret", private: true });
    const weavers = await s.teams.create(guild, {
      name: "weavers",
      permission: "write",
      units: ["repo.code"],
      includesAllRepositories: true,
    });
    await s.teams.addMember(weavers, bob, ada);
    await s.stars.set(await s.access.repo(actorFor(bob), "ada", "engine"), true);
    await s.follows.set(actorFor(bob), ada, true);
    const engine = await s.access.repo(actorFor(bob), "ada", "engine");
    await s.issues.create(engine, { title: "gears are stuck" });
  });
  afterAll(() => t?.close());

  it("shows a user's repositories, stars, followers and following as tabs", async () => {
    const b = t.browser();
    const repos = await b.get("/ada");
    expect(repos.status).toBe(200);
    expect(repos.html).toContain("the analytical engine");
    expect(repos.html).not.toContain("notes-private");
    expect(repos.html).toContain('aria-current="page"');
    // A concealed membership shows only to the member (and site admins).
    expect(repos.html).not.toContain('href="/guild"');
    const followers = await b.get("/ada?tab=followers");
    expect(followers.html).toContain('href="/bob"');
    const stars = await b.get("/bob?tab=stars");
    expect(stars.html).toContain('href="/ada/engine"');
    const following = await b.get("/bob?tab=following");
    expect(following.html).toContain('href="/ada"');
    const own = await t.signedIn((await t.services.users.findByName("ada"))!);
    const ownPage = await own.get("/ada");
    expect(ownPage.html).toContain("notes-private");
    expect(ownPage.html).toContain('href="/guild"');
    expect((await b.get("/nobody-here")).status).toBe(404);
  });

  it("shows an organization's repositories and members, and its teams to members only", async () => {
    const anonymous = t.browser();
    const home = await anonymous.get("/guild");
    expect(home.status).toBe(200);
    expect(home.html).toContain('href="/guild/loom"');
    expect(home.html).not.toContain("loom-secret");
    expect(home.html).not.toContain("/org/guild/teams");
    expect((await anonymous.get("/org/guild/members")).status).toBe(200);
    const teamsAnonymous = await anonymous.get("/org/guild/teams");
    expect(teamsAnonymous.status).toBe(303);
    expect(teamsAnonymous.location).toBe("/user/login?redirect_to=%2Forg%2Fguild%2Fteams");
    const outsider = await t.signedIn(await t.user());
    expect((await outsider.get("/org/guild/teams")).status).toBe(403);
    const bob = await t.signedIn((await t.services.users.findByName("bob"))!);
    const member = await bob.get("/guild");
    expect(member.html).toContain("loom-secret");
    expect(member.html).toContain('href="/org/guild/teams"');
    const teams = await bob.get("/org/guild/teams");
    expect(teams.status).toBe(200);
    expect(teams.html).toContain("weavers");
    expect(teams.html).toContain("Owners");
    // Members see every member; anyone else the public ones (bob's membership is concealed).
    expect((await bob.get("/org/guild/members")).html).toContain('href="/bob"');
    expect((await anonymous.get("/org/guild/members")).html).not.toContain('href="/bob"');
    const restricted = await t.signedIn(await t.user({ restricted: true }));
    expect((await restricted.get("/guild")).status).toBe(404);
    expect((await restricted.get("/org/guild/members")).status).toBe(404);
  });

  it("shows a repository's header with the tabs and counts its reader may open", async () => {
    const b = t.browser();
    const page = await b.get("/ada/engine");
    expect(page.status).toBe(200);
    expect(page.html).toContain('aria-label="Repository"');
    for (const tab of ["Code", "Issues", "Pull requests", "Releases", "Wiki"])
      expect(page.html).toContain(tab);
    expect(page.html).toMatch(/Issues<span class="counter">1<\/span>/);
    expect(page.html).toContain('value="http://kiln.test/ada/engine.git"');
    expect(page.html).toContain("data-copy=");
    expect((await b.get("/ada/notes-private")).status).toBe(404);
    expect((await b.get("/guild/loom-secret")).status).toBe(404);
  });

  it("shows the signed-in user's dashboard and notifications; sends others to sign in", async () => {
    const ada = await t.signedIn((await t.services.users.findByName("ada"))!);
    const dashboard = await ada.get("/");
    expect(dashboard.html).toContain("Activity");
    expect(dashboard.html).toContain("created repository");
    expect(dashboard.html).toContain('href="/ada/notes-private"');
    const notifications = await ada.get("/notifications");
    expect(notifications.status).toBe(200);
    expect(notifications.html).toContain("gears are stuck");
    expect(notifications.html).toContain('href="/ada/engine/issues/1"');
    expect((await ada.get("/notifications?type=read")).html).not.toContain("gears are stuck");
    const anonymous = await t.browser().get("/notifications");
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe("/user/login?redirect_to=%2Fnotifications");
  });
});
