import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

/**
 * `yaml`'s parse, the library required on first use: only issue templates and workflow files are
 * YAML, and loading it costs about 1 MiB of heap at start-up. It is also CommonJS, so callers stay
 * synchronous.
 */
export function parseYaml(
  text: string,
  options?: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions & Yaml.ToJSOptions,
): unknown {
  loaded ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return loaded.parse(text, options);
}
