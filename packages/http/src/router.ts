import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/**
 * Hono's default router (SmartRouter: RegExpRouter, or TrieRouter when some path does not fit a
 * single regular expression, as `/users/search` beside `/users/{username}` does not), with its
 * answers for the registered static paths (`/version`, `/user`, `/repos/search`…) remembered:
 * a static path always gets the same answer, so after its first request it costs one map lookup
 * instead of a walk of the route tree. Paths with parameters are matched as before, and nothing
 * is remembered for a path no route declares literally, so memory stays bounded by the route
 * table.
 */
export class StaticMemoRouter<T> implements Router<T> {
  readonly name = "StaticMemoRouter";
  readonly #router: Router<T> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
  /** `METHOD path` of every static route, and Hono's answer once asked. */
  readonly #static = new Map<string, Result<T> | undefined>();

  add(method: string, path: string, handler: T): void {
    this.#router.add(method, path, handler);
    // `ALL` (any method) is not remembered: a client chooses the method, and the map would grow.
    if (method !== "ALL" && !/[:*]/.test(path)) this.#static.set(`${method} ${path}`, undefined);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    if (!this.#static.has(key)) return this.#router.match(method, path);
    let result = this.#static.get(key);
    if (!result) {
      result = this.#router.match(method, path);
      this.#static.set(key, result);
    }
    return result;
  }
}
