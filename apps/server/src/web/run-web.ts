import { unlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { connectionLossReason, isConnectionLoss } from "@kiln/storage";
import type { ResolvedConfig } from "../config/resolve.js";
import { openInstance } from "../instance/instance.js";
import { socketPathFor, startInternalApi } from "../instance/internal-api.js";
import { DataLock } from "../instance/lock.js";
import { type KilnLogger, requestLogOf } from "../logger.js";
import { trackConnections } from "./connections.js";
import { createSiteApp } from "./site-app.js";
import { startWatchdog } from "./watchdog.js";

/** How a stop ended: every request answered, or cut short by the hammer. */
export interface StopResult {
  readonly graceful: boolean;
}

/** A running server, for tests that start it in-process and for the signal handlers. */
export interface RunningServer {
  readonly url: string;
  /**
   * Stops accepting requests and finishes those in flight; after `[server] GRACEFUL_HAMMER_TIME`
   * (or `hammer()`) destroys every connection left. Then closes the internal API and the
   * database and releases the lock.
   */
  stop(): Promise<StopResult>;
  /** Ends a stop's draining now: every connection is destroyed. Starts the stop if needed. */
  hammer(): void;
}

/** Options of `startWeb`. */
export interface StartOptions {
  /**
   * Once stopping, kill the process from another thread if it has not exited some seconds after
   * the hammer time, even when its main thread is held by synchronous work. For `kiln web` only.
   */
  readonly watchdog?: boolean;
}

/** How long the database may take to close once the connections are gone or hammered. */
const CLOSE_DATABASE_MS = 5_000;

/**
 * `kiln web`: takes the data lock, opens and migrates the database, serves the HTTP app, and
 * exposes the internal API to CLI commands of the same work path.
 */
export async function startWeb(
  config: ResolvedConfig,
  logger: KilnLogger,
  options: StartOptions = {},
): Promise<RunningServer> {
  for (const warning of config.warnings) logger.warn(warning);
  const { settings: configured } = config;
  const lock = DataLock.acquire(configured.server.appDataPath, "web");
  let instance: Awaited<ReturnType<typeof openInstance>>;
  try {
    instance = await openInstance(configured, logger, { waitForDatabase: true });
  } catch (err) {
    lock.release();
    throw err;
  }
  const { settings, services } = instance;
  // Nothing can be uploading yet: unfinished uploads and files no row refers to go now.
  try {
    await services.cron.sweepBlobsAtStartup();
  } catch (err) {
    logger.error({ err: (err as Error).message }, "the start-up sweep of stored files failed");
  }
  // Directory removals and moves a crash left journalled (deletions, renames, transfers) finish
  // before any request can see the repositories; removals first, so a move finds its target free.
  await services.repositories.moves.drainRemovals();
  await services.repositories.moves.drain();
  if (!settings.security.installLock) {
    logger.warn("[security] INSTALL_LOCK is false, but Kiln has no web installer: it runs as installed");
  }
  const app = createSiteApp({ services, settings, logger, requestLog: requestLogOf(logger) });
  // Ref moves a crash left journalled: no operation is in flight yet (the data lock is ours), so
  // each is finished or dropped now, and the ref lock files its killed writer left go with it.
  // Before the server listens.
  const settled = await services.repositories.journal.reconcile(new Date());
  if (settled > 0) logger.warn({ operations: settled }, "journalled ref moves reconciled at start-up");
  // @hono/node-server's listener on Node's server (what its `createAdaptorServer` builds), behind
  // the connection tracking.
  const server = createServer();
  const connections = trackConnections(
    server,
    getRequestListener(app.fetch, { hostname: settings.server.httpAddr }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
      server.listen(settings.server.httpPort, settings.server.httpAddr);
    });
  } catch (err) {
    await instance.close();
    lock.release();
    throw err;
  }
  const socket = socketPathFor(settings.server.appDataPath);
  const token = lock.publishSocket(socket);
  const internal = await startInternalApi(socket, token, (io) => ({ services, settings, io, migrated: [] }));
  services.cron.start();
  services.webhooks.worker.start();
  const { port } = server.address() as AddressInfo;
  const url = `http://${settings.server.httpAddr}:${port}`;
  logger.info(
    { url, rootUrl: settings.server.rootUrl, database: settings.database.type },
    `Kiln is listening on ${url}`,
  );

  let cut = false;
  const cutShort = () => {
    if (cut) return;
    cut = true;
    logger.warn("hammer: closing every connection still open, requests in flight are cut short");
    connections.destroyAll();
    internal.closeAllConnections();
  };
  let stopping: Promise<StopResult> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const hammerTime = settings.server.gracefulHammerTime;
      logger.info({ hammerTime }, "shutting down: no new connections; finishing the requests that arrived");
      const timer = setTimeout(cutShort, hammerTime);
      if (options.watchdog) {
        startWatchdog({ afterMs: hammerTime + CLOSE_DATABASE_MS + 5_000, lockFile: lock.file, socket });
      }
      await connections.drain();
      await services.cron.stop();
      // Deliveries in flight end within [webhook] DELIVER_TIMEOUT, mirror syncs (a push mirror's after
      // a push) within their git timeout, commit-graph writes after pushes when git is done; the
      // hammer bounds the wait too.
      await Promise.race([
        Promise.all([
          services.webhooks.worker.stop(),
          services.pushMirrors.idle(),
          services.repositories.idle(),
          services.pullMirrors.idle(),
        ]),
        new Promise((r) => setTimeout(r, hammerTime).unref()),
      ]);
      await new Promise<void>((resolve) => internal.close(() => resolve()));
      clearTimeout(timer);
      // A request cut short may still hold the database (a PostgreSQL client checked out of the
      // pool, a PGlite query): closing waits for it, but not for ever.
      let giveUp: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        instance.close().then(
          () => true,
          (err: unknown) => {
            logger.error({ err }, "error while closing the database");
            return true;
          },
        ),
        new Promise<false>((resolve) => {
          giveUp = setTimeout(resolve, CLOSE_DATABASE_MS, false);
        }),
      ]);
      clearTimeout(giveUp);
      if (!closed) logger.error("the database did not close in time: exiting without it");
      try {
        unlinkSync(socket);
      } catch {
        // Already gone.
      }
      lock.release();
      logger.info({ graceful: !cut }, "stopped");
      logger.flush();
      return { graceful: !cut };
    })();
    return stopping;
  };
  return {
    url,
    stop,
    hammer: () => {
      void stop();
      cutShort();
    },
  };
}

/**
 * Background work left unawaited that fails because the database went away must not end the
 * process: it is logged and runs again on its next occasion (its schedule, the next event). Any
 * other unhandled rejection is a bug and still ends the process, as Node does by default.
 */
function survivesDatabaseLoss(logger: KilnLogger): void {
  process.on("unhandledRejection", (reason) => {
    if (!isConnectionLoss(reason)) throw reason;
    logger.warn(
      { err: connectionLossReason(reason) },
      "background work failed: the database is unavailable; it runs again later",
    );
  });
}

/**
 * Runs `kiln web` until SIGINT or SIGTERM, then stops within `[server] GRACEFUL_HAMMER_TIME`; a
 * second signal cuts the draining short. Exits 0 when every request was answered, 1 otherwise.
 */
export async function runWeb(config: ResolvedConfig, logger: KilnLogger): Promise<number> {
  survivesDatabaseLoss(logger);
  const running = await startWeb(config, logger, { watchdog: true });
  return new Promise<number>((resolve) => {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        logger.warn({ signal }, "second signal: stopping now");
        running.hammer();
        return;
      }
      signalled = true;
      logger.info({ signal }, "received signal");
      running.stop().then(
        ({ graceful }) => resolve(graceful ? 0 : 1),
        (err: unknown) => {
          logger.error({ err }, "error while stopping");
          resolve(1);
        },
      );
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}
