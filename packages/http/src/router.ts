import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** Hono's default router: one regular expression for every route, or a route tree when one does not fit. */
function smartRouter<T>(): Router<T> {
  return new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
}

/** One part of the routes: all of them, to answer static paths once, and those with parameters. */
interface Part<T> {
  readonly all: Router<T>;
  readonly dynamic: Router<T>;
}

function part<T>(): Part<T> {
  return { all: smartRouter<T>(), dynamic: smartRouter<T>() };
}

/**
 * Kiln's router: Hono's default router, with three facts about Kiln's paths put to use.
 *
 * - The API under `/api/` and the rest (git and LFS at `/{owner}/{repo}/…`, the API page) are
 *   routed apart. `api` is a reserved name (no account, so no repository, is called that), so a
 *   route outside `/api/` never has anything to answer there.
 * - A static path (`/version`, `/user`, `/repos/search`…) always gets the same answer, so it is
 *   asked once, of all the routes, and remembered: afterwards one map lookup. Nothing is
 *   remembered for a path no route declares literally, so memory stays bounded by the route table.
 * - Any other path cannot match a static route, so it is asked only of the routes with
 *   parameters (and those for any method, which are not remembered). Without static paths beside them (`/users/search` beside `/users/{username}`)
 *   and without `/{owner}/…` beside `/api/…`, the API's routes fit one regular expression
 *   (RegExpRouter), and no request walks Hono's route tree.
 *
 * Every answer is Hono's own: the same handlers, in registration order.
 */
export class KilnRouter<T> implements Router<T> {
  readonly name = "KilnRouter";
  readonly #api = part<T>();
  readonly #rest = part<T>();
  /** `METHOD path` of every static route, and the answer once asked. */
  readonly #static = new Map<string, Result<T> | undefined>();

  add(method: string, path: string, handler: T): void {
    const api = path.startsWith("/api/");
    const dynamic = /[:*]/.test(path);
    // A catch-all (e.g. middleware on `*`) belongs to both parts.
    const parts = api ? [this.#api] : path === "*" || path === "/*" ? [this.#api, this.#rest] : [this.#rest];
    for (const { all, dynamic: withParams } of parts) {
      all.add(method, path, handler);
      if (dynamic || method === "ALL") withParams.add(method, path, handler);
    }
    // `ALL` (any method) is not remembered: a client chooses the method, and the map would grow.
    if (method !== "ALL" && !dynamic) this.#static.set(`${method} ${path}`, undefined);
  }

  /** The router the API's paths with parameters settled on once matching began. */
  get engine(): string {
    return this.#api.dynamic.name;
  }

  match(method: string, path: string): Result<T> {
    const { all, dynamic } = path.startsWith("/api/") ? this.#api : this.#rest;
    const key = `${method} ${path}`;
    if (!this.#static.has(key)) return dynamic.match(method, path);
    let result = this.#static.get(key);
    if (!result) {
      result = all.match(method, path);
      this.#static.set(key, result);
    }
    return result;
  }
}
