import { InvalidArgumentError, NotFoundError, type Paged, type PageRequest } from "@kiln/domain";
import { type TopicRow, topics } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { type Actor, viewerOf } from "../access/actor.js";
import type { ServiceContext } from "../context.js";

/** Forgejo's topic name rule: lower-case letters, digits, dashes and dots, starting with a letter or digit. */
const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;
/** Forgejo's longest topic name. */
export const MAX_TOPIC_LENGTH = 35;
/** Forgejo's most topics on one repository. */
export const MAX_REPO_TOPICS = 25;

/** Whether a (sanitized) topic name is valid. */
export function isValidTopic(name: string): boolean {
  return name.length <= MAX_TOPIC_LENGTH && TOPIC_PATTERN.test(name);
}

/** Forgejo's SanitizeAndValidateTopics: trimmed, lower-cased, empty and repeated ones dropped; the invalid ones apart. */
export function sanitizeTopics(names: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (name === "" || seen.has(name)) continue;
    seen.add(name);
    (isValidTopic(name) ? valid : invalid).push(name);
  }
  return { valid, invalid };
}

/** Forgejo's answer for an invalid topic of the path (`invalidTopics` is the name itself there). */
const invalidTopic = (name: string) =>
  new InvalidArgumentError("Topic name is invalid", { invalidTopics: name });

/**
 * Repository topics (Forgejo's routers/api/v1/repo/topic.go and models/repo/topic.go). Each change
 * reads the repository's topics with its row locked, so two concurrent changes never lose one.
 */
export class TopicService {
  constructor(private readonly ctx: ServiceContext) {}

  /** A page of the repository's topics, in the order they were set. */
  list(repo: RepoAccess, page: PageRequest): Paged<string> {
    const all = repo.repo.topics;
    const start = Math.max(0, (page.page - 1) * page.limit);
    return { items: all.slice(start, start + page.limit), total: all.length };
  }

  /** Replaces the topics; 422 beyond 25, then 422 (with `invalidTopics`) for invalid names. */
  async replace(repo: RepoAccess, names: readonly string[]): Promise<void> {
    const { valid, invalid } = sanitizeTopics(names);
    // Forgejo checks the count first.
    if (valid.length > MAX_REPO_TOPICS)
      throw new InvalidArgumentError("Exceeding maximum number of topics per repo", { invalidTopics: null });
    if (invalid.length > 0)
      throw new InvalidArgumentError("Topic names are invalid", { invalidTopics: invalid });
    await this.ctx.db.transaction().execute(async (trx) => {
      await topics.lockRepoTopics(trx, repo.repo.id);
      await topics.setRepoTopics(trx, repo.repo.id, valid);
    });
  }

  /** Adds one topic (nothing when present); 422 for an invalid name or a 26th topic. */
  async add(repo: RepoAccess, raw: string): Promise<void> {
    const name = raw.trim().toLowerCase();
    if (!isValidTopic(name)) throw invalidTopic(name);
    await this.ctx.db.transaction().execute(async (trx) => {
      const current = await topics.lockRepoTopics(trx, repo.repo.id);
      if (current.includes(name)) return;
      if (current.length >= MAX_REPO_TOPICS)
        throw new InvalidArgumentError("Exceeding maximum allowed topics per repo.");
      await topics.setRepoTopics(trx, repo.repo.id, [...current, name]);
    });
  }

  /** Removes one topic; 422 for an invalid name, 404 when the repository does not carry it. */
  async remove(repo: RepoAccess, raw: string): Promise<void> {
    const name = raw.trim().toLowerCase();
    if (!isValidTopic(name)) throw invalidTopic(name);
    await this.ctx.db.transaction().execute(async (trx) => {
      const current = await topics.lockRepoTopics(trx, repo.repo.id);
      if (!current.includes(name)) throw new NotFoundError();
      await topics.setRepoTopics(
        trx,
        repo.repo.id,
        current.filter((topic) => topic !== name),
      );
    });
  }

  /** `/topics/search`: topics containing the keyword, counting only repositories the actor may see. */
  search(actor: Actor, keyword: string, page: PageRequest): Promise<Paged<TopicRow>> {
    return topics.searchTopics(this.ctx.db, keyword.trim(), viewerOf(actor), page);
  }
}
