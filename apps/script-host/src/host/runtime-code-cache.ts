import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ivm from "isolated-vm";
import { writeFileAtomicSync } from "./modules/atomic-write.js";
import { type RuntimeBundle, runtimeDir } from "./runtime-bundle.js";

/**
 * What V8 code cache data is valid for: the V8 build that made it and one exact runtime bundle
 * (V8 checks both again and rejects a mismatch; the key keeps entries apart).
 */
export function codeCacheKey(bundle: RuntimeBundle): string {
  return createHash("sha256")
    .update(`${process.versions.v8}\0${process.arch}\0${process.version}\0`)
    .update(bundle.js)
    .digest("hex")
    .slice(0, 32);
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The code cache built with the runtime (`scripts/build-code-cache.mjs`), beside dist/runtime/main.js. */
export function builtCodeCachePath(bundle: RuntimeBundle): string {
  return join(runtimeDir(), `code-cache-${codeCacheKey(bundle)}.bin`);
}

/**
 * Reads a file written by {@link writeCodeCacheFile}: the bytes, then the SHA-256 of those bytes
 * (64 hex characters). Undefined when missing or when it does not match, so a truncated or
 * altered file is never handed to V8.
 */
function readCodeCacheFile(path: string): Uint8Array | undefined {
  if (!existsSync(path)) return undefined;
  const file = readFileSync(path);
  if (file.byteLength < 64) return undefined;
  const bytes = file.subarray(0, file.byteLength - 64);
  return file.subarray(file.byteLength - 64).toString("latin1") === sha256(bytes) ? bytes : undefined;
}

/** Writes code cache data with its digest trailer, atomically. */
export function writeCodeCacheFile(path: string, bytes: Uint8Array): void {
  writeFileAtomicSync(path, Buffer.concat([bytes, Buffer.from(sha256(bytes), "latin1")]));
}

/** A compiled script with what isolated-vm reports of its code cache (missing from its types). */
type CachedScript = ivm.Script & ivm.CachedDataResult & { cachedDataRejected?: boolean };

function arrayBufferCopy(bytes: Uint8Array): ivm.ExternalCopy<ArrayBuffer> {
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return new ivm.ExternalCopy(buffer);
}

/**
 * Compiles the runtime bundle for an isolate, from V8 code cache data when there is valid data
 * (the data built with the runtime when it matches this Node, else data this Node made and kept
 * in the cache directory), producing and keeping new data otherwise.
 */
export function compileRuntime(
  isolate: ivm.Isolate,
  bundle: RuntimeBundle,
  cacheDir: string | undefined,
  log: (line: string) => void = () => {},
): ivm.Script {
  const key = codeCacheKey(bundle);
  const kept = cacheDir === undefined ? undefined : join(cacheDir, "code-cache", `${key}.bin`);
  for (const path of [builtCodeCachePath(bundle), kept]) {
    const data = path && readCodeCacheFile(path);
    if (!data) continue;
    const script: CachedScript = isolate.compileScriptSync(bundle.js, {
      filename: "kiln:runtime.js",
      cachedData: arrayBufferCopy(data),
    });
    if (!script.cachedDataRejected) return script;
    log(`runtime code cache ${path} rejected by V8`);
  }
  const script: CachedScript = isolate.compileScriptSync(bundle.js, {
    filename: "kiln:runtime.js",
    produceCachedData: true,
  });
  if (kept && script.cachedData) {
    try {
      writeCodeCacheFile(kept, new Uint8Array(script.cachedData.copy()));
    } catch (error) {
      log(`runtime code cache not kept: ${(error as Error).message}`);
    }
  }
  return script;
}
