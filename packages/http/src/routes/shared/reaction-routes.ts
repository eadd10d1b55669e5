import { api } from "@kiln/domain";
import { accountSight, type RepoAccess, type Services, toApiReaction } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { type AnyRoute, type RouteInput, route } from "../../route.js";
import { repoParams } from "../repo/context.js";
import { forbidden, notFound } from "../responses.js";

// biome-ignore lint/suspicious/noExplicitAny: one factory serves holders whose path parameters differ
type AnyInput = RouteInput<any, any, any, "read", undefined>;
type Reactions = Services["reactions"];
type Page = Parameters<Reactions["listForIssue"]>[2];

/**
 * What holds reactions: an issue or one of its comments. The three operations are the same for
 * both (Forgejo's issue_reaction.go declares them twice); the holder says where it sits, how Forgejo
 * names and words its operations, and which service methods reach it by its key.
 */
export interface ReactionHolder {
  /** The operationId infix: `Issue` → `issueGetIssueReactions`. */
  readonly name: "Issue" | "Comment";
  /** The collection's path, e.g. `/repos/{owner}/{repo}/issues/{index}/reactions`. */
  readonly path: string;
  /** The path parameter that names the holder (besides owner and repo). */
  readonly key: "index" | "id";
  readonly keySchema: v.GenericSchema<string, number>;
  /** Forgejo's summaries of the three operations: list, add, remove. */
  readonly summaries: readonly [string, string, string];
  readonly list: (
    svc: Reactions,
    repo: RepoAccess,
    key: number,
    page: Page,
  ) => ReturnType<Reactions["listForIssue"]>;
  readonly add: (
    svc: Reactions,
    repo: RepoAccess,
    key: number,
    content: string,
  ) => ReturnType<Reactions["addToIssue"]>;
  readonly remove: (svc: Reactions, repo: RepoAccess, key: number, content: string) => Promise<unknown>;
}

const added = {
  200: { description: "Reaction", schema: api.Reaction },
  201: { description: "Reaction", schema: api.Reaction },
  ...forbidden,
  ...notFound,
} as const;
const removed = { 200: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound } as const;

/**
 * The three reaction routes of a holder: list, add and remove, of the kinds `[ui] REACTIONS` allows
 * (others are 403). Any reader may react, except on a locked issue.
 */
export function reactionRoutes(holder: ReactionHolder): AnyRoute[] {
  const base = { tags: ["issue"], repo: "read", scopes: ["issue"], path: holder.path } as const;
  const writes = {
    ...base,
    access: "signed-in",
    readersMayWrite: true,
    body: api.EditReactionOption,
  } as const;
  const params = v.object({ ...repoParams, [holder.key]: holder.keySchema });
  const svc = (c: AppContext) => c.get("services").reactions;
  return [
    route({
      ...base,
      method: "get",
      operationId: `issueGet${holder.name}Reactions`,
      summary: holder.summaries[0],
      access: "public",
      params,
      query: v.object(pageQuery),
      responses: {
        200: { description: "ReactionList", schema: v.array(api.Reaction) },
        ...forbidden,
        ...notFound,
      },
      handler(c, { params, query, repo }: AnyInput) {
        const viewer = c.get("actor").user;
        // As Forgejo's FindReactions: a page when asked, else all of them (at most UNPAGED_LIMIT).
        return optionallyPagedJson(
          c,
          query,
          (page) => holder.list(svc(c), repo, params[holder.key], page),
          (view) => toApiReaction(view, accountSight(viewer), c.get("settings")),
        );
      },
    }),
    route({
      ...writes,
      method: "post",
      operationId: `issuePost${holder.name}Reaction`,
      summary: holder.summaries[1],
      params,
      bodyRequired: false,
      responses: added,
      async handler(c, { params, body, repo }: AnyInput) {
        const { view, created } = await holder.add(svc(c), repo, params[holder.key], body?.content ?? "");
        return c.json(
          toApiReaction(view, accountSight(c.get("actor").user), c.get("settings")),
          created ? 201 : 200,
        );
      },
    }),
    route({
      ...writes,
      method: "delete",
      operationId: `issueDelete${holder.name}Reaction`,
      summary: holder.summaries[2],
      params,
      bodyRequired: false,
      responses: removed,
      async handler(c, { params, body, repo }: AnyInput) {
        await holder.remove(svc(c), repo, params[holder.key], body?.content ?? "");
        return c.body(null, 200);
      },
    }),
  ];
}
