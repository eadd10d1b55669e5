import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

/** How often a draining server looks for connections that have become idle. */
const SWEEP_MS = 100;
/** A connection that has not sent a single byte yet is left this long to send its request. */
const SILENT_GRACE_MS = 1_000;

/** What the server knows about one accepted connection. */
interface Connection {
  readonly acceptedAt: number;
  /** Requests whose headers arrived and whose response or body is not finished. */
  busy: number;
  /** `socket.bytesRead` when the connection last became idle (accepted, or its last exchange ended). */
  bytesAtIdle: number;
  /** `socket.bytesRead` at the previous sweep: a change means bytes are arriving. */
  bytesAtSweep: number;
}

/** Where a socket keeps its {@link Connection}: a property is read without hashing the socket. */
const STATE = Symbol("kiln.connection");
type TrackedSocket = Socket & { [STATE]?: Connection };

/** The connections of an HTTP server, for a drain that loses no request. */
export interface ConnectionTracker {
  /**
   * Stops accepting connections (after accepting those the kernel already completed), answers
   * every request that arrives on an accepted connection with `Connection: close`, closes
   * connections only when they are truly idle, and resolves when none is left.
   */
  drain(): Promise<void>;
  /** Destroys every connection at once, whatever it is doing. */
  destroyAll(): void;
}

/** What serves a request once it is counted: @hono/node-server's listener. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Serves `server`'s requests with `handle`, tracking its connections and requests. Node's own
 * `close()` destroys every connection that is not inside a request at that instant, including
 * one whose request bytes are waiting in the kernel or half-parsed, and closing the listener
 * resets connections the kernel accepted but Node did not yet; both lose requests a client had
 * already sent.
 *
 * The counting is the one `request` listener (Node then calls it without copying a listener
 * list) and one `close` listener per response, a function shared by every response, so that a
 * request allocates nothing for it.
 */
export function trackConnections(server: Server, handle: RequestHandler): ConnectionTracker {
  const connections = new Map<Socket, Connection>();
  const responding = new Set<ServerResponse>();
  let draining = false;
  let hammered = false;

  server.on("connection", (socket: Socket) => {
    if (hammered) {
      socket.destroy();
      return;
    }
    const state: Connection = { acceptedAt: Date.now(), busy: 0, bytesAtIdle: 0, bytesAtSweep: 0 };
    connections.set(socket, state);
    (socket as TrackedSocket)[STATE] = state;
    socket.once("close", () => connections.delete(socket));
  });

  /** The connection's exchange is over: nothing in progress until its next request. */
  const idle = (state: Connection, socket: Socket) => {
    state.busy--;
    state.bytesAtIdle = socket.bytesRead;
    state.bytesAtSweep = state.bytesAtIdle;
  };
  // Idle again once the response is sent and the request's body has arrived (or it is gone).
  function responseClosed(this: ServerResponse) {
    responding.delete(this);
    const req = this.req;
    const socket = req.socket as TrackedSocket;
    const state = socket[STATE];
    if (!state) return;
    if (req.complete || req.destroyed) {
      idle(state, socket);
      return;
    }
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      idle(state, socket);
    };
    req.once("end", settle);
    req.once("close", settle);
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const state = (req.socket as TrackedSocket)[STATE];
    if (state) {
      // While draining, this response is the connection's last one: Node sends `Connection: close`
      // and closes the connection once the response is written.
      if (draining) res.shouldKeepAlive = false;
      state.busy++;
      responding.add(res);
      res.on("close", responseClosed);
    }
    handle(req, res);
  });

  /** True when nothing is in progress on the connection and no byte arrived since it became idle. */
  const quiet = (socket: Socket, state: Connection) =>
    state.busy === 0 && socket.bytesRead === state.bytesAtIdle;

  const sweep = () => {
    const now = Date.now();
    const candidates: Socket[] = [];
    for (const [socket, state] of connections) {
      const steady = socket.bytesRead === state.bytesAtSweep;
      state.bytesAtSweep = socket.bytesRead;
      if (!steady || !quiet(socket, state)) continue;
      if (socket.bytesRead === 0 && now - state.acceptedAt < SILENT_GRACE_MS) continue;
      candidates.push(socket);
    }
    if (candidates.length === 0) return;
    // Check again after the event loop has polled: bytes that reached the kernel are read first.
    setImmediate(() => {
      for (const socket of candidates) {
        const state = connections.get(socket);
        if (state && quiet(socket, state)) socket.destroy();
      }
    });
  };

  return {
    drain() {
      draining = true;
      for (const res of responding) if (!res.headersSent) res.shouldKeepAlive = false;
      return new Promise<void>((resolve) => {
        // Two turns of the event loop let Node accept the connections the kernel completed before
        // the signal; closing the listener would reset them.
        setImmediate(() =>
          setImmediate(() => {
            const sweeper = setInterval(sweep, SWEEP_MS);
            // Not Node's http close(): that would also destroy every connection idle at this instant.
            NetServer.prototype.close.call(server, () => {
              clearInterval(sweeper);
              resolve();
            });
            sweep();
          }),
        );
      });
    },
    destroyAll() {
      hammered = true;
      for (const socket of connections.keys()) socket.destroy();
    },
  };
}
