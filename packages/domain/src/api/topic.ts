import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";

/** `GET /repos/{owner}/{repo}/topics`. */
export const TopicName = v.object({ topics: v.array(v.string()) });

/** `PUT /repos/{owner}/{repo}/topics`: the new list (bounded; more than 25 valid ones is 422). */
export const RepoTopicOptions = v.object({
  topics: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(255))), v.maxLength(1000)), []),
});

/** One topic of `GET /topics/search`. */
export const TopicResponse = v.object({
  id: int64(),
  topic_name: v.string(),
  repo_count: int64(),
  created: dateTime(),
  updated: dateTime(),
});

/** `GET /topics/search`. */
export const TopicListResponse = v.object({ topics: v.array(TopicResponse) });

/** Forgejo's APIInvalidTopicsError (422 of the topic routes). */
export const APIInvalidTopicsError = v.object({
  message: v.string(),
  invalidTopics: v.optional(v.unknown()),
  url: v.optional(v.string()),
});
