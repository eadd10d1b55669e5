import { viewerOf } from "@kiln/service";
import { Feed } from "../components/feed.js";
import { Pagination } from "../components/pagination.js";
import { RepoList } from "../components/repo-list.js";
import type { WebContext } from "../env.js";
import type { Fields } from "../forms.js";
import { render } from "../layout/render.js";
import { page } from "../page-route.js";
import { pageOf } from "../paging.js";
import { exploreRepositories } from "./explore.js";

/** How many of one's repositories the dashboard lists beside the feed. */
const DASHBOARD_REPOS = 20;

async function dashboard(c: WebContext, fields: Fields) {
  const services = c.get("services");
  const actor = c.get("actor");
  const user = actor.user!;
  const paging = pageOf(fields);
  const [feed, repos] = await Promise.all([
    services.feeds.ofUser(actor, user, {}, paging),
    services.repositories.list(
      viewerOf(actor),
      { accessibleBy: user.id },
      { page: 1, limit: DASHBOARD_REPOS },
      "recentupdate",
    ),
  ]);
  return render(
    c,
    { title: "Dashboard" },
    <div class="columns">
      <section class="column-main" aria-labelledby="feed-title">
        <h1 id="feed-title">Activity</h1>
        <Feed entries={feed.items} />
        <Pagination path="/" query={{}} page={paging} total={feed.total} />
      </section>
      <aside class="column-side" aria-labelledby="repos-title">
        <h2 id="repos-title">
          Your repositories <span class="counter">{repos.total}</span>
        </h2>
        <RepoList repos={repos.items} empty="You have no repositories yet." />
      </aside>
    </div>,
  );
}

/**
 * Forgejo's home page: for a signed-in user the dashboard (their activity feed and their
 * repositories), for anyone else the repositories they may explore.
 */
export const home = page({
  method: "get",
  path: "/",
  access: "public",
  variants: ["page=2"],
  async handler(c, fields) {
    if (c.get("actor").user) return dashboard(c, fields);
    return render(
      c,
      { title: "Explore" },
      <>
        <section class="welcome">
          <h1>Welcome to Kiln</h1>
          <p>A forge for your repositories. Browse what is public below, or sign in.</p>
        </section>
        {await exploreRepositories(c, fields)}
      </>,
    );
  },
});
