import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RefUpdate } from "./push-policy.js";

/** The environment variable naming the socket on which the pre-receive hook announces accepted updates. */
export const PUSH_INTENT_ENV = "KILN_PUSH_INTENT";

/** The most bytes one announcement may carry (a ref update line is about 130 bytes). */
const MAX_ANNOUNCEMENT = 16 * 1024 * 1024;

/**
 * Opens a Unix socket on which the pre-receive hook announces the ref updates it accepted, before
 * git applies them: the server journals them (`record`) and answers `{"ok":true}`, so a crash
 * after git moved the refs leaves the journal to finish the push. An update the server could not
 * journal is refused. The socket lives in a fresh private directory (mode 0700); `close()` removes it.
 */
export async function openIntentChannel(
  record: (updates: readonly RefUpdate[]) => Promise<void>,
): Promise<{ path: string; close(): void }> {
  const dir = await mkdtemp(join(tmpdir(), "kiln-intent-"));
  const path = join(dir, "intent.sock");
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANNOUNCEMENT) socket.destroy();
      else chunks.push(chunk);
    });
    socket.on("error", () => {});
    socket.on("end", () => {
      void (async () => {
        let ok = false;
        try {
          const question = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { updates: RefUpdate[] };
          await record(question.updates);
          ok = true;
        } catch {
          // Not journalled: the hook refuses the push, so no ref moves unannounced.
        }
        socket.end(`${JSON.stringify({ ok })}\n`);
      })();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    path,
    close() {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Announces accepted updates to the server on `path` (the hook's side); true once journalled. */
export function announceUpdates(path: string, updates: readonly RefUpdate[]): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => resolve(false));
    socket.on("end", () => {
      try {
        resolve((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { ok: boolean }).ok === true);
      } catch {
        resolve(false);
      }
    });
    socket.end(JSON.stringify({ updates }));
  });
}
