import type { RepoOrder, User } from "@kiln/domain";
import { viewerOf } from "@kiln/service";
import { AccountLinks, AccountList } from "../components/account-list.js";
import { ListSearch } from "../components/list-search.js";
import { Pagination } from "../components/pagination.js";
import { ProfileCard } from "../components/profile-card.js";
import { RepoList } from "../components/repo-list.js";
import { TabNav } from "../components/tab-nav.js";
import type { WebContext } from "../env.js";
import type { Fields } from "../forms.js";
import { render } from "../layout/render.js";
import { pageOf } from "../paging.js";
import { accountPath, withQuery } from "../urls.js";

/** The tabs of a user's page (Forgejo's `?tab=`). */
const TABS = ["repositories", "stars", "followers", "following"] as const;
type Tab = (typeof TABS)[number];

function tabOf(fields: Fields): Tab {
  const asked = fields("tab");
  return (TABS as readonly string[]).includes(asked) ? (asked as Tab) : "repositories";
}

/** The content of the open tab: a list of repositories or of accounts, paged. */
async function tabContent(c: WebContext, user: User, tab: Tab, fields: Fields) {
  const services = c.get("services");
  const actor = c.get("actor");
  const paging = pageOf(fields);
  const path = accountPath(user.name);
  switch (tab) {
    case "stars": {
      const found = await services.stars.starred(actor, user, paging);
      return (
        <>
          <RepoList repos={found.items} empty="No starred repositories." />
          <Pagination path={path} query={{ tab }} page={paging} total={found.total} />
        </>
      );
    }
    case "followers":
    case "following": {
      const found =
        tab === "followers"
          ? await services.follows.followers(actor, user, paging)
          : await services.follows.following(actor, user, paging);
      return (
        <>
          <AccountList
            accounts={found.items}
            empty={tab === "followers" ? "No followers." : "Not following anyone."}
          />
          <Pagination path={path} query={{ tab }} page={paging} total={found.total} />
        </>
      );
    }
    default: {
      const q = fields("q").trim();
      const order: RepoOrder = "recentupdate";
      const found = await services.repositories.list(
        viewerOf(actor),
        q ? { ownerId: user.id, keyword: q, includeDescription: true } : { ownerId: user.id },
        paging,
        order,
      );
      return (
        <>
          <ListSearch path={path} q={q} label="Search repositories" />
          <RepoList
            repos={found.items}
            showOwner={false}
            empty={q ? "No repository matches." : "No repositories yet."}
          />
          <Pagination path={path} query={{ q }} page={paging} total={found.total} />
        </>
      );
    }
  }
}

/**
 * A user's page (Forgejo's routers/web/user/profile.go): the profile card, then the tabs
 * Repositories, Stars, Followers and Following. Every list is the one the API answers for the
 * visitor (`/users/{u}/repos`, `/starred`, `/followers`, `/following`).
 */
export async function userProfile(c: WebContext, user: User, fields: Fields) {
  const tab = tabOf(fields);
  const path = accountPath(user.name);
  const services = c.get("services");
  const [content, orgs] = await Promise.all([
    tabContent(c, user, tab, fields),
    services.orgs.listOfUser(user, viewerOf(c.get("actor")), { page: 1, limit: 20 }),
  ]);
  return render(
    c,
    { title: user.fullName ? `${user.fullName} (${user.name})` : user.name },
    <div class="columns columns-profile">
      <aside class="column-side">
        <ProfileCard account={user} />
        {orgs.items.length > 0 ? (
          <section aria-labelledby="orgs-title">
            <h2 id="orgs-title">Organizations</h2>
            <AccountLinks accounts={orgs.items} />
          </section>
        ) : null}
      </aside>
      <section class="column-main" aria-label="Profile">
        <TabNav
          label="Profile"
          tabs={[
            { label: "Repositories", path, icon: "repo", current: tab === "repositories" },
            {
              label: "Stars",
              path: withQuery(path, { tab: "stars" }),
              icon: "star",
              count: user.numStars,
              current: tab === "stars",
            },
            {
              label: "Followers",
              path: withQuery(path, { tab: "followers" }),
              icon: "people",
              count: user.numFollowers,
              current: tab === "followers",
            },
            {
              label: "Following",
              path: withQuery(path, { tab: "following" }),
              icon: "person",
              count: user.numFollowing,
              current: tab === "following",
            },
          ]}
        />
        {content}
      </section>
    </div>,
  );
}
