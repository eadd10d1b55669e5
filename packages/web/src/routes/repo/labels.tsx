import type { Label } from "@kiln/domain";
import { LabelBadge, LabelStyles } from "../../components/label-badge.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { repoPath, withQuery } from "../../urls.js";
import { trackerAccess } from "./milestones.js";
import { repoHeaderOf } from "./repo-tabs.js";

function LabelTable(props: { caption: string; labels: readonly Label[]; issuesPath: string }) {
  const href = useHref();
  if (props.labels.length === 0) return null;
  return (
    <table class="label-table">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Label</th>
          <th scope="col">Description</th>
          <th scope="col">Open issues</th>
        </tr>
      </thead>
      <tbody>
        {props.labels.map((l) => (
          <tr>
            <th scope="row">
              <LabelBadge label={l} /> <span class="visually-hidden">colour</span>{" "}
              <code class="muted">{l.color}</code>
            </th>
            <td>{l.description}</td>
            <td>
              <a
                href={href(withQuery(props.issuesPath, { labels: l.id }))}
              >{`${l.numIssues - l.numClosedIssues} open`}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Forgejo's `/{owner}/{repo}/labels`: the repository's labels and its organization's, with
 * colour, description and how many open issues carry each (a link to that list).
 */
export const labelsPage = page({
  method: "get",
  path: "/:username/:reponame/labels",
  access: "public",
  variants: ["sort=mostissues"],
  async handler(c, fields) {
    const access = await trackerAccess(c);
    const { repo } = access;
    const services = c.get("services");
    const sorts = ["alphabetically", "reversealphabetically", "leastissues", "mostissues"] as const;
    const sort = sorts.find((s) => s === fields("sort")) ?? "alphabetically";
    const [own, org] = await Promise.all([
      services.labels.list({ repoId: repo.id }, sort, undefined),
      services.labels.list({ orgId: repo.ownerId }, sort, undefined),
    ]);
    const kinds = services.issues.readableKinds(access.permission, access.viewer);
    const issuesPath = `${repoPath(repo.ownerName, repo.name)}/${kinds.issues ? "issues" : "pulls"}`;
    const all = [...own.items, ...org.items];
    return render(
      c,
      { title: `Labels - ${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "issues") },
      <>
        <LabelStyles labels={all} />
        <h2>Labels</h2>
        {all.length === 0 ? <p class="empty">No labels yet.</p> : null}
        <LabelTable
          caption={`${own.items.length} labels of this repository`}
          labels={own.items}
          issuesPath={issuesPath}
        />
        <LabelTable
          caption={`${org.items.length} labels of the organization`}
          labels={org.items}
          issuesPath={issuesPath}
        />
      </>,
    );
  },
});
