import { silentLogger } from "@kiln/service";
import type { Hono } from "hono";
import { createApp } from "../../src/app.js";
import type { AppEnv } from "../../src/env.js";
import { type CallResult, listen, readResult, type TestApp } from "../support.js";

/** A response as the hostile tests inspect it. */
export type RawResult = CallResult;

/** How a request authenticates. */
export type Credential = { token: string } | { basic: readonly [string, string] } | null;

export interface RawRequest {
  readonly method: string;
  /** Path under /api/v1 (or from the root with `root`), already percent-encoded where needed. */
  readonly path: string;
  /** The path is from the server's root (git and LFS), not under /api/v1. */
  readonly root?: boolean;
  readonly credential?: Credential;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Calls an app built without test-mode response validation, so statuses are the server's own. */
export type RawCaller = (req: RawRequest) => Promise<RawResult>;

/**
 * A second Hono app over the test app's services and settings, without `validateResponses`:
 * what a real server answers, not the test harness's check of the documentation.
 */
export function rawCaller(t: TestApp): RawCaller {
  const app: Hono<AppEnv> = createApp({ services: t.services, settings: t.settings, logger: silentLogger });
  return async (req) => {
    const headers: Record<string, string> = { ...req.headers };
    const cred = req.credential;
    if (cred && "token" in cred) headers.Authorization = `token ${cred.token}`;
    if (cred && "basic" in cred)
      headers.Authorization = `Basic ${Buffer.from(`${cred.basic[0]}:${cred.basic[1]}`).toString("base64")}`;
    let body = req.rawBody;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await app.request(`http://kiln.test${req.root ? "" : "/api/v1"}${req.path}`, {
      method: req.method.toUpperCase(),
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    return readResult(res);
  };
}

/**
 * Serves the app (without response validation) on a loopback port, so a migration can clone a
 * fixture repository for real: then only an access check can stop a migration, not a DNS error.
 */
export async function serveLoopback(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  return listen(createApp({ services: t.services, settings: t.settings, logger: silentLogger }));
}
