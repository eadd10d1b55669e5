import { unlinkSync } from "node:fs";
import type { Server } from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "@kiln/http";
import type { ResolvedConfig } from "../config/resolve.js";
import { openInstance } from "../instance/instance.js";
import { socketPathFor, startInternalApi } from "../instance/internal-api.js";
import { DataLock } from "../instance/lock.js";
import type { KilnLogger } from "../logger.js";

/** A running server, for tests that start it in-process and for the signal handlers. */
export interface RunningServer {
  readonly url: string;
  /** Stops accepting requests, finishes those in flight, closes the database, releases the lock. */
  stop(): Promise<void>;
}

/**
 * `kiln web`: takes the data lock, opens and migrates the database, serves the HTTP app, and
 * exposes the internal API to CLI commands of the same work path.
 */
export async function startWeb(config: ResolvedConfig, logger: KilnLogger): Promise<RunningServer> {
  for (const warning of config.warnings) logger.warn(warning);
  const { settings: configured } = config;
  const lock = DataLock.acquire(configured.server.appDataPath, "web");
  let instance: Awaited<ReturnType<typeof openInstance>>;
  try {
    instance = await openInstance(configured, logger);
  } catch (err) {
    lock.release();
    throw err;
  }
  const { settings, services } = instance;
  if (!settings.security.installLock) {
    logger.warn("[security] INSTALL_LOCK is false, but Kiln has no web installer: it runs as installed");
  }
  const app = createApp({ services, settings, logger });
  const server = serve({
    fetch: app.fetch,
    port: settings.server.httpPort,
    hostname: settings.server.httpAddr,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
  } catch (err) {
    await instance.close();
    lock.release();
    throw err;
  }
  const socket = socketPathFor(settings.server.appDataPath);
  const token = lock.publishSocket(socket);
  const internal = await startInternalApi(socket, token, (io) => ({ services, settings, io, migrated: [] }));
  const { port } = server.address() as AddressInfo;
  const url = `http://${settings.server.httpAddr}:${port}`;
  logger.info(
    { url, rootUrl: settings.server.rootUrl, database: settings.database.type },
    `Kiln is listening on ${url}`,
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info("shutting down: no new requests; finishing those in flight");
      await drain(server as Server);
      await new Promise<void>((resolve) => internal.close(() => resolve()));
      await instance.close();
      try {
        unlinkSync(socket);
      } catch {
        // Already gone.
      }
      lock.release();
      logger.info("stopped");
    })();
    return stopping;
  };
  return { url, stop };
}

/**
 * Stops accepting connections and waits for every open one to finish. Node's `http.Server.close`
 * would also destroy at once connections that were accepted but whose request has not been read
 * yet; instead, those get a grace period to deliver it, and only connections that stay idle
 * (keep-alive sockets between requests) are closed, repeatedly, until none is left.
 */
function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    NetServer.prototype.close.call(server, () => {
      clearInterval(reaper);
      resolve();
    });
    const started = Date.now();
    const reaper = setInterval(() => {
      if (Date.now() - started >= 300) server.closeIdleConnections();
    }, 100);
  });
}

/** Runs `kiln web` until SIGINT or SIGTERM; a second signal, or 30 s of draining, forces the exit. */
export async function runWeb(config: ResolvedConfig, logger: KilnLogger): Promise<number> {
  const running = await startWeb(config, logger);
  return new Promise<number>((resolve) => {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        logger.warn({ signal }, "second signal: exiting now");
        process.exit(1);
      }
      signalled = true;
      logger.info({ signal }, "received signal");
      const force = setTimeout(() => {
        logger.error("requests still in flight after 30 s: exiting anyway");
        process.exit(1);
      }, 30_000);
      force.unref();
      running.stop().then(
        () => resolve(0),
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
