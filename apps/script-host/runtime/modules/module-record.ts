/** Where a module is in its life: linked (loaded with its dependencies), running, done or failed. */
export type ModuleState = "linked" | "evaluating-deps" | "evaluating" | "done" | "failed";

/** A module's namespace: its exports by name, as `import * as ns` sees them. */
export type Namespace = Record<string, unknown>;

/** A function the compiled module gave for one of its imports: called with the import's namespace. */
export type Setter = ((namespace: Namespace) => void) | undefined;

/**
 * One loaded module: its names, its namespace, its linked imports and its body. Modules arrive
 * compiled by the host in the SystemJS format (`System.register(deps, declare)`): `declare`
 * returns one setter per import and `execute`, the module's top level.
 */
export interface ModuleRecord {
  /** The module's name: its path, or its URL when remote; stack traces show it. */
  readonly name: string;
  /** The local file: the path, or where a remote module was downloaded. */
  readonly filename: string;
  readonly namespace: Namespace;
  /** The setters of the modules that import this one, called again whenever an export changes. */
  readonly importers: Setter[];
  /** The imported modules, in the order of the compiled module's dependency list. */
  readonly deps: ModuleRecord[];
  /** The module's top level; undefined for built-in modules. */
  readonly execute: (() => unknown) | undefined;
  /** The compiled code, whose inline source map maps stack positions back (empty for built-ins). */
  readonly code: string;
  state: ModuleState;
  /** Settles when an asynchronous evaluation ends. */
  evaluation: Promise<void> | undefined;
  error: unknown;
}
