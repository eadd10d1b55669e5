import type { Team } from "@kiln/domain";
import { meetsOrgNeed, type OrgAccess, viewerOf } from "@kiln/service";
import { AccountLinks, AccountList } from "../components/account-list.js";
import { ListSearch } from "../components/list-search.js";
import { Pagination } from "../components/pagination.js";
import { ProfileCard } from "../components/profile-card.js";
import { RepoList } from "../components/repo-list.js";
import { TabNav } from "../components/tab-nav.js";
import type { WebContext } from "../env.js";
import type { Fields } from "../forms.js";
import type { Crumb } from "../layout/breadcrumbs.js";
import { render } from "../layout/render.js";
import { page } from "../page-route.js";
import { pageOf } from "../paging.js";
import { accountPath } from "../urls.js";

type OrgTab = "repositories" | "members" | "teams";

/** An organization's tabs: Teams only for those who may list them (members and site admins). */
function OrgTabs(props: { access: OrgAccess; current: OrgTab; mayListTeams: boolean }) {
  const name = encodeURIComponent(props.access.org.name);
  return (
    <TabNav
      label="Organization"
      tabs={[
        { label: "Repositories", path: `/${name}`, icon: "repo", current: props.current === "repositories" },
        {
          label: "Members",
          path: `/org/${name}/members`,
          icon: "person",
          current: props.current === "members",
        },
        ...(props.mayListTeams
          ? [
              {
                label: "Teams",
                path: `/org/${name}/teams`,
                icon: "people" as const,
                current: props.current === "teams",
              },
            ]
          : []),
      ]}
    />
  );
}

function orgPage(c: WebContext, access: OrgAccess, tab: OrgTab, crumbs: readonly Crumb[], body: unknown) {
  const mayListTeams = meetsOrgNeed(c.get("actor"), access, "member");
  return render(
    c,
    { title: access.org.fullName || access.org.name, crumbs },
    <>
      <ProfileCard account={access.org} />
      <OrgTabs access={access} current={tab} mayListTeams={mayListTeams} />
      {body}
    </>,
  );
}

/**
 * An organization's page (Forgejo's routers/web/org/home.go): its card, its repositories as the
 * visitor may see them (searchable, paged) and the members the visitor may see.
 */
export async function orgProfile(c: WebContext, access: OrgAccess, fields: Fields) {
  const services = c.get("services");
  const actor = c.get("actor");
  const { org } = access;
  const q = fields("q").trim();
  const paging = pageOf(fields);
  const path = accountPath(org.name);
  const [repos, members] = await Promise.all([
    services.repositories.list(
      viewerOf(actor),
      q ? { ownerId: org.id, keyword: q, includeDescription: true } : { ownerId: org.id },
      paging,
      "recentupdate",
    ),
    services.orgs.listMembers(org, actor.user, { page: 1, limit: 12 }),
  ]);
  return orgPage(
    c,
    access,
    "repositories",
    [],
    <div class="columns">
      <section class="column-main" aria-label="Repositories">
        <ListSearch path={path} q={q} label="Search repositories" />
        <RepoList
          repos={repos.items}
          showOwner={false}
          empty={q ? "No repository matches." : "No repositories yet."}
        />
        <Pagination path={path} query={{ q }} page={paging} total={repos.total} />
      </section>
      <aside class="column-side" aria-labelledby="members-title">
        <h2 id="members-title">
          Members <span class="counter">{members.total}</span>
        </h2>
        {members.items.length > 0 ? (
          <AccountLinks accounts={members.items} />
        ) : (
          <p class="empty">No public members.</p>
        )}
      </aside>
    </div>,
  );
}

const crumbsOf = (access: OrgAccess, label: string): Crumb[] => [
  { label: access.org.name, path: accountPath(access.org.name) },
  { label },
];

/**
 * Forgejo's `/org/{org}/members`: every member for members and site admins, the public ones for
 * anyone else (the API's `/orgs/{org}/members` and `/public_members`).
 */
export const orgMembers = page({
  method: "get",
  path: "/org/:org/members",
  access: "public",
  variants: ["page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const access = await services.access.org(c.get("actor"), c.req.param("org") ?? "");
    const paging = pageOf(fields);
    const found = await services.orgs.listMembers(access.org, c.get("actor").user, paging);
    return orgPage(
      c,
      access,
      "members",
      crumbsOf(access, "Members"),
      <>
        <AccountList accounts={found.items} empty="No members to show." />
        <Pagination
          path={`/org/${encodeURIComponent(access.org.name)}/members`}
          query={{}}
          page={paging}
          total={found.total}
        />
      </>,
    );
  },
});

function TeamList(props: { teams: readonly Team[] }) {
  if (props.teams.length === 0) return <p class="empty">No teams.</p>;
  return (
    <ul class="list">
      {props.teams.map((team) => (
        <li class="list-item">
          <div class="list-item-main">
            <h3 class="list-item-title">{team.name}</h3>
            {team.description ? <p class="list-item-text">{team.description}</p> : null}
          </div>
          <div class="list-item-meta">
            <span class="badge">{team.accessMode === "none" ? "units" : team.accessMode}</span>
            {team.includesAllRepositories ? <span>All repositories</span> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Forgejo's `/org/{org}/teams`: the teams, for members and site admins (the API's `/orgs/{org}/teams`). */
export const orgTeams = page({
  method: "get",
  path: "/org/:org/teams",
  access: "signed-in",
  variants: ["page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const access = await services.access.org(c.get("actor"), c.req.param("org") ?? "", "member");
    const paging = pageOf(fields);
    const found = await services.teams.list(access.org, paging);
    return orgPage(
      c,
      access,
      "teams",
      crumbsOf(access, "Teams"),
      <>
        <TeamList teams={found.items} />
        <Pagination
          path={`/org/${encodeURIComponent(access.org.name)}/teams`}
          query={{}}
          page={paging}
          total={found.total}
        />
      </>,
    );
  },
});

/** The organization pages under `/org/{org}`. */
export const orgRoutes = [orgMembers, orgTeams];
