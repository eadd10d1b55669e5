import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** Hono's default router: one regular expression for every route, or a route tree when one does not fit. */
function smartRouter<T>(): Router<T> {
  return new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
}

/**
 * Routes with parameters, in layers that each fit one regular expression. Hono's RegExpRouter
 * takes no node with both a static and a parameter child (`/issues/comments/{id}` beside
 * `/issues/{index}/comments`, `/subscriptions/check` beside `/subscriptions/{user}`); a route that
 * does not fit the first layer goes to the next. A path is asked of every layer, and the match
 * registered first wins, as in one router.
 */
class Layers<T> {
  readonly #layers: { readonly router: Router<T>; readonly probe: RegExpRouter<T> }[] = [];
  readonly #order = new Map<T, number>();

  add(method: string, path: string, handler: T): void {
    this.#order.set(handler, this.#order.size);
    for (const layer of this.#layers) {
      try {
        layer.probe.add(method, path, handler);
      } catch {
        continue;
      }
      layer.router.add(method, path, handler);
      return;
    }
    const layer = { router: smartRouter<T>(), probe: new RegExpRouter<T>() };
    layer.probe.add(method, path, handler);
    layer.router.add(method, path, handler);
    this.#layers.push(layer);
  }

  match(method: string, path: string): Result<T> {
    const [first, ...others] = this.#layers;
    if (!first) return [[]];
    let best = first.router.match(method, path);
    for (const layer of others) {
      const result = layer.router.match(method, path);
      if (result[0].length === 0) continue;
      if (best[0].length === 0 || this.#rank(result) < this.#rank(best)) best = result;
    }
    return best;
  }

  #rank(result: Result<T>): number {
    const handler = result[0][0]?.[0];
    return handler === undefined
      ? Number.POSITIVE_INFINITY
      : (this.#order.get(handler) ?? Number.POSITIVE_INFINITY);
  }

  /** The routers the layers settled on once matching began (`SmartRouter + RegExpRouter` when they all fit). */
  get name(): string {
    const names = [...new Set(this.#layers.map((layer) => layer.router.name))];
    return names.length === 0 ? "SmartRouter + RegExpRouter" : names.join(", ");
  }
}

/** One part of the routes: all of them, to answer static paths once, and those with parameters. */
interface Part<T> {
  readonly all: Router<T>;
  readonly dynamic: Pick<Router<T>, "add" | "match" | "name">;
}

function part<T>(): Part<T> {
  return { all: smartRouter<T>(), dynamic: new Layers<T>() };
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
  /** Every static `GET` route's path and the answer once asked: most requests, looked up directly. */
  readonly #getPaths = new Map<string, Result<T> | undefined>();
  /** The same by method, for every method (no key to build per request). */
  readonly #static = new Map<string, Map<string, Result<T> | undefined>>([["GET", this.#getPaths]]);

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
    if (method !== "ALL" && !dynamic) {
      const paths = this.#static.get(method) ?? new Map<string, Result<T> | undefined>();
      paths.set(path, undefined);
      this.#static.set(method, paths);
    }
  }

  /** The router the API's paths with parameters settled on once matching began. */
  get engine(): string {
    return this.#api.dynamic.name;
  }

  match(method: string, path: string): Result<T> {
    const paths = method === "GET" ? this.#getPaths : this.#static.get(method);
    const known = paths?.get(path);
    if (known) return known;
    const { all, dynamic } = path.startsWith("/api/") ? this.#api : this.#rest;
    if (!paths?.has(path)) return dynamic.match(method, path);
    const result = all.match(method, path);
    paths.set(path, result);
    return result;
  }
}
