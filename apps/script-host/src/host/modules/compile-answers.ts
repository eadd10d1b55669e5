import { HostError, type HostErrorKind } from "../errors.js";
import type { CompileAnswer } from "./compile-worker.js";

interface Pending {
  readonly name: string;
  resolve(code: string): void;
  reject(error: Error): void;
}

/** The compiles a compiler thread or process has been asked for and has not answered yet. */
export class PendingCompiles {
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  /** Registers a compile; `send` gets its id. Resolves to the compiled code. */
  add(name: string, send: (id: number) => void): Promise<string> {
    const id = this.#nextId++;
    return new Promise<string>((resolve, reject) => {
      this.#pending.set(id, { name, resolve, reject });
      send(id);
    });
  }

  /** Settles the compile an answer is for (answers for unknown ids are ignored). */
  answer(answer: CompileAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if ("code" in answer && typeof answer.code === "string") pending.resolve(answer.code);
    else if (!("kind" in answer) || answer.kind === "Error") {
      pending.reject(new Error(("message" in answer && answer.message) || "the compiler failed"));
    } else pending.reject(new HostError(answer.kind as HostErrorKind, answer.message));
  }

  /** Fails every compile still waiting, with the error `reason` makes for its module name. */
  failAll(reason: (name: string) => Error): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(reason(pending.name));
    }
  }
}
