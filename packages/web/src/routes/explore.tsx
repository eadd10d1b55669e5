import type { RepoOrder } from "@kiln/domain";
import { viewerOf } from "@kiln/service";
import { AccountList } from "../components/account-list.js";
import { ListSearch, type SortOption } from "../components/list-search.js";
import { Pagination } from "../components/pagination.js";
import { RepoList } from "../components/repo-list.js";
import { TabNav } from "../components/tab-nav.js";
import type { WebContext } from "../env.js";
import type { Fields } from "../forms.js";
import { render } from "../layout/render.js";
import { page } from "../page-route.js";
import { pageOf } from "../paging.js";
import { seeOther } from "../responses.js";

/** The repository orders the explore page offers (Forgejo's explore sort menu, those Kiln keeps). */
const REPO_SORTS: readonly SortOption[] = [
  { value: "recentupdate", label: "Recently updated" },
  { value: "leastupdate", label: "Least recently updated" },
  { value: "newest", label: "Newest" },
  { value: "oldest", label: "Oldest" },
  { value: "alphabetically", label: "Alphabetically" },
  { value: "reversealphabetically", label: "Reverse alphabetically" },
];

function ExploreTabs(props: { current: "repos" | "users" | "organizations" }) {
  return (
    <TabNav
      label="Explore"
      tabs={[
        { label: "Repositories", path: "/explore/repos", icon: "repo", current: props.current === "repos" },
        { label: "Users", path: "/explore/users", icon: "person", current: props.current === "users" },
        {
          label: "Organizations",
          path: "/explore/organizations",
          icon: "organization",
          current: props.current === "organizations",
        },
      ]}
    />
  );
}

/** The repositories part of the explore page (also the signed-out home page). */
export async function exploreRepositories(c: WebContext, fields: Fields) {
  const q = fields("q").trim();
  const sortName = fields("sort");
  const sort = REPO_SORTS.some((s) => s.value === sortName) ? (sortName as RepoOrder) : "recentupdate";
  const paging = pageOf(fields);
  const found = await c
    .get("services")
    .repositories.list(
      viewerOf(c.get("actor")),
      q ? { keyword: q, includeDescription: true } : {},
      paging,
      sort,
    );
  return (
    <>
      <ExploreTabs current="repos" />
      <ListSearch
        path="/explore/repos"
        q={q}
        label="Search repositories"
        sort={{ value: sort, options: REPO_SORTS }}
      />
      <RepoList repos={found.items} empty={q ? "No repository matches." : "No repositories yet."} />
      <Pagination
        path="/explore/repos"
        query={{ q, sort: sort === "recentupdate" ? undefined : sort }}
        page={paging}
        total={found.total}
      />
    </>
  );
}

/** Forgejo's `/explore`: the repositories tab. */
export const explore = page({
  method: "get",
  path: "/explore",
  access: "public",
  handler: (c) => seeOther(c, "/explore/repos"),
});

/** Forgejo's `/explore/repos`: repositories the visitor may see, searched and sorted, paged. */
export const exploreRepos = page({
  method: "get",
  path: "/explore/repos",
  access: "public",
  variants: ["q=a&sort=alphabetically", "page=2"],
  async handler(c, fields) {
    const body = await exploreRepositories(c, fields);
    return render(c, { title: "Explore", search: fields("q").trim() }, body);
  },
});

async function exploreAccounts(c: WebContext, fields: Fields, type: "individual" | "organization") {
  const q = fields("q").trim();
  const paging = pageOf(fields);
  const found = await c.get("services").users.search(viewerOf(c.get("actor")), { q, type }, paging);
  const path = type === "individual" ? "/explore/users" : "/explore/organizations";
  const noun = type === "individual" ? "users" : "organizations";
  return render(
    c,
    { title: "Explore" },
    <>
      <ExploreTabs current={type === "individual" ? "users" : "organizations"} />
      <ListSearch path={path} q={q} label={`Search ${noun}`} />
      <AccountList accounts={found.items} empty={q ? `No ${noun} match.` : `No ${noun} yet.`} />
      <Pagination path={path} query={{ q }} page={paging} total={found.total} />
    </>,
  );
}

/** Forgejo's `/explore/users`: users the visitor may see, searched by name, paged. */
export const exploreUsers = page({
  method: "get",
  path: "/explore/users",
  access: "public",
  variants: ["q=a", "page=2"],
  handler: (c, fields) => exploreAccounts(c, fields, "individual"),
});

/** Forgejo's `/explore/organizations`: organizations the visitor may see, searched by name, paged. */
export const exploreOrganizations = page({
  method: "get",
  path: "/explore/organizations",
  access: "public",
  variants: ["q=a", "page=2"],
  handler: (c, fields) => exploreAccounts(c, fields, "organization"),
});

/** The explore pages. */
export const exploreRoutes = [explore, exploreRepos, exploreUsers, exploreOrganizations];
