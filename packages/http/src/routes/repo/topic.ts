import { api, formatTime } from "@kiln/domain";
import * as v from "valibot";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/topic.go: a repository's topics and the topic search. */

const invalidTopics = { 422: { description: "APIInvalidTopicsError", schema: api.APIInvalidTopicsError } };
const topicParams = v.object({ ...repoParams, topic: qs.string("name of the topic") });

export const repoListTopics = route({
  method: "get",
  path: "/repos/{owner}/{repo}/topics",
  operationId: "repoListTopics",
  tags: ["repository"],
  summary: "Get list of topics that a repository has",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: { 200: { description: "TopicNames", schema: api.TopicName }, ...notFound },
  handler(c, { query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = c.get("services").topics.list(repo, page);
    setPagingHeaders(c, page, list.total);
    return c.json({ topics: list.items });
  },
});

export const repoUpdateTopics = route({
  method: "put",
  path: "/repos/{owner}/{repo}/topics",
  operationId: "repoUpdateTopics",
  tags: ["repository"],
  summary: "Replace list of topics for a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.RepoTopicOptions,
  responses: { ...empty, ...forbidden, ...notFound, ...invalidTopics },
  async handler(c, { body, repo }) {
    await c.get("services").topics.replace(repo, body.topics);
    return c.body(null, 204);
  },
});

export const repoAddTopic = route({
  method: "put",
  path: "/repos/{owner}/{repo}/topics/{topic}",
  operationId: "repoAddTopic",
  tags: ["repository"],
  summary: "Add a topic to a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: topicParams,
  responses: { ...empty, ...forbidden, ...notFound, ...invalidTopics },
  async handler(c, { params, repo }) {
    await c.get("services").topics.add(repo, params.topic);
    return c.body(null, 204);
  },
});

export const repoDeleteTopic = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/topics/{topic}",
  operationId: "repoDeleteTopic",
  tags: ["repository"],
  summary: "Delete a topic from a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: topicParams,
  responses: { ...empty, ...forbidden, ...notFound, ...invalidTopics },
  async handler(c, { params, repo }) {
    await c.get("services").topics.remove(repo, params.topic);
    return c.body(null, 204);
  },
});

export const topicSearch = route({
  method: "get",
  path: "/topics/search",
  operationId: "topicSearch",
  tags: ["repository"],
  summary: "search topics via keyword",
  access: "public",
  scopes: ["repository"],
  query: v.object({ q: v.optional(qs.string("keywords to search"), ""), ...pageQuery }),
  responses: { 200: { description: "TopicListResponse", schema: api.TopicListResponse }, ...forbidden },
  async handler(c, { query }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").topics.search(c.get("actor"), query.q, page);
    setPagingHeaders(c, page, list.total);
    return c.json({
      topics: list.items.map((topic) => ({
        id: topic.id,
        topic_name: topic.name,
        repo_count: topic.repoCount,
        created: formatTime(topic.createdAt),
        updated: formatTime(topic.updatedAt),
      })),
    });
  },
});

export const topicRoutes = [repoListTopics, repoUpdateTopics, repoAddTopic, repoDeleteTopic, topicSearch];
