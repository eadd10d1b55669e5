export { helpText } from "./cli/help.js";
export { DEFAULT_MEMORY_LIMIT_MB, main } from "./cli/main.js";
export { type CliOptions, parseOptions, UsageError } from "./cli/options.js";
export { HostError, type HostErrorKind } from "./host/errors.js";
export { CompileCache } from "./host/modules/compile-cache.js";
export { depsPathOf, RemoteModules } from "./host/modules/remote-cache.js";
export { type ResolvedModule, resolveSpecifier } from "./host/modules/resolve.js";
export { loadRuntimeBundle, type RuntimeBundle } from "./host/runtime-bundle.js";
export { ScriptHost, type ScriptHostOptions } from "./host/script-host.js";
