import { connect, createServer, type Server, type Socket } from "node:net";
import { testPostgresUrl } from "@kiln/storage/testing";

/**
 * A TCP proxy on loopback in front of the test PostgreSQL server: `close()` refuses new
 * connections and cuts the open ones (the database "goes away"), `open()` listens again on the
 * same port (it "comes back"). `refuse()` listens but cuts every connection at once, counting
 * them, so a test can tell that a client tried.
 */
export class PostgresProxy {
  #server: Server | undefined;
  #forward = false;
  #cut = 0;
  readonly #sockets = new Set<Socket>();

  private constructor(readonly port: number) {}

  /** A proxy on a free port, not yet listening. */
  static async reserve(): Promise<PostgresProxy> {
    const probe = createServer();
    const port = await new Promise<number>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address();
        resolve(typeof address === "object" && address ? address.port : 0);
      });
    });
    await new Promise((r) => probe.close(r));
    return new PostgresProxy(port);
  }

  /** How many connections `refuse()` cut. */
  get cut(): number {
    return this.#cut;
  }

  /** Forwards connections to PostgreSQL. */
  async open(): Promise<void> {
    this.#forward = true;
    await this.#listen();
  }

  /** Accepts connections and closes them at once (a server that is there but not answering). */
  async refuse(): Promise<void> {
    this.#forward = false;
    await this.#listen();
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise((r) => server.close(r));
  }

  async #listen(): Promise<void> {
    if (this.#server) return;
    const target = new URL(testPostgresUrl());
    const server = createServer((client) => {
      if (!this.#forward) {
        this.#cut++;
        client.destroy();
        return;
      }
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
        socket.on("close", () => this.#sockets.delete(socket));
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", resolve);
    });
    this.#server = server;
  }
}
