import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HostError, type HostErrorKind } from "../errors.js";
import { COMPILER_ID, type ModuleCompiler } from "./compiler.js";

interface Pending {
  readonly name: string;
  resolve(code: string): void;
  reject(error: Error): void;
}

/** compile-worker.js: beside the bundled dist/kiln-run.js, or beside this file in dist/host/modules/. */
function workerPath(): string {
  const candidates = [
    new URL("./compile-worker.js", import.meta.url),
    new URL("./host/modules/compile-worker.js", import.meta.url),
  ];
  const found = candidates.map((url) => fileURLToPath(url)).find((path) => existsSync(path));
  if (!found) throw new Error("kiln-run: compile-worker.js is missing; run the build first");
  return found;
}

/**
 * The host's compiler: SWC in a child process, started on the first compile-cache miss of a run
 * and kept for the rest of it. When SWC crashes (a module nested deeply enough overflows its
 * native stack), the module being compiled fails with a SyntaxError and the next compile starts
 * a new process; the host itself never runs SWC.
 */
export class CompilerProcess implements ModuleCompiler {
  readonly id = COMPILER_ID;
  #child: ChildProcess | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  /** `worker`: the compile-worker script to run (found beside the built host by default). */
  constructor(private readonly worker?: string) {}

  compile(moduleName: string, source: string): Promise<string> {
    const child = this.#child ?? this.#start();
    const id = this.#nextId++;
    return new Promise<string>((resolve, reject) => {
      this.#pending.set(id, { name: moduleName, resolve, reject });
      child.stdin?.write(`${JSON.stringify({ id, name: moduleName, source })}\n`);
    });
  }

  /** Stops the compiler process, if one runs. */
  close(): void {
    this.#child?.kill();
    this.#child = undefined;
  }

  #start(): ChildProcess {
    const child = spawn(process.execPath, [this.worker ?? workerPath()], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    // The compiler process never keeps the host alive: the run decides when it is over.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    child.stdin?.on("error", () => {});
    const answers = createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY });
    answers.on("line", (line) => this.#answer(line));
    child.on("exit", (code, signal) => {
      if (this.#child === child) this.#child = undefined;
      const reason = signal ? `crashed (${signal})` : `exited with code ${code}`;
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        pending.reject(
          new HostError(
            "SyntaxError",
            `the compiler ${reason} on ${pending.name}; is it nested too deeply? at ${pending.name}:1:1`,
          ),
        );
      }
    });
    this.#child = child;
    return child;
  }

  #answer(line: string): void {
    let answer: { id: number; code?: string; kind?: string; message?: string };
    try {
      answer = JSON.parse(line);
    } catch {
      return;
    }
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (typeof answer.code === "string") pending.resolve(answer.code);
    else if (answer.kind === "Error") pending.reject(new Error(answer.message ?? "the compiler failed"));
    else pending.reject(new HostError((answer.kind ?? "SyntaxError") as HostErrorKind, answer.message ?? ""));
  }
}
