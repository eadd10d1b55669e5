/** Where a module is in its life: linked (loaded with its dependencies), running, done or failed. */
export type ModuleState = "linked" | "evaluating-deps" | "evaluating" | "done" | "failed";

/** One loaded module: its names, its compiled function and exports, and its resolved imports. */
export interface ModuleRecord {
  /** The module's name: its path, or its URL when remote; stack traces show it. */
  readonly name: string;
  /** The local file: the path, or where a remote module was downloaded. */
  readonly filename: string;
  readonly exports: Record<string, unknown>;
  /** Static imports by specifier, in source order. */
  readonly deps: Map<string, ModuleRecord>;
  /** The module body; undefined for built-in modules. */
  readonly body: ((...args: unknown[]) => unknown) | undefined;
  /** The module's source and compiled code, for mapping stack positions (empty for built-ins). */
  readonly source: string;
  readonly code: string;
  state: ModuleState;
  /** Settles when an asynchronous evaluation ends. */
  evaluation: Promise<void> | undefined;
  error: unknown;
}
