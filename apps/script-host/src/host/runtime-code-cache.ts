import { readFileSync } from "node:fs";
import { join } from "node:path";
import type IsolatedVM from "isolated-vm-5";
import { nativeSha256Hex, sha256Hex } from "./hash.js";
import ivm from "./ivm.js";
import { writeFileAtomicSync } from "./modules/atomic-write.js";
import { type RuntimeBundle, runtimeDir } from "./runtime-bundle.js";

/**
 * What V8 code cache data is valid for: the V8 build that made it and one exact runtime bundle
 * (V8 checks both again and rejects a mismatch; the key keeps entries apart). The built runtime
 * is named by its manifest's id, the SHA-256 of its code taken at build time, so a start does
 * not hash 320 KB again; any other bundle is hashed whole.
 */
export function codeCacheKey(bundle: RuntimeBundle): string {
  const content = /^[0-9a-f]{16}$/.test(bundle.id)
    ? `${bundle.id}\0${bundle.js.length}`
    : nativeSha256Hex(new TextEncoder().encode(bundle.js));
  return sha256Hex(`${process.versions.v8}\0${process.arch}\0${process.version}\0${content}`).slice(0, 32);
}

/** The code cache built with the runtime (`scripts/build-code-cache.mjs`), beside dist/runtime/main.js. */
export function builtCodeCachePath(bundle: RuntimeBundle, key = codeCacheKey(bundle)): string {
  return join(runtimeDir(), `code-cache-${key}.bin`);
}

/**
 * Reads a file written by {@link writeCodeCacheFile}: the bytes, then the SHA-256 of those bytes
 * (64 hex characters). Undefined when missing or, with `verify`, when the digest does not match,
 * so a truncated or altered file in the cache directory is never handed to V8. The file built
 * with the runtime lies in the installation beside the code it belongs to and is trusted as that
 * code is (hashing its 30 KB at every start would cost more than compiling without it).
 */
function readCodeCacheFile(path: string, verify: boolean): Uint8Array | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  if (file.byteLength < 64) return undefined;
  const bytes = file.subarray(0, file.byteLength - 64);
  if (!verify) return bytes;
  return file.subarray(file.byteLength - 64).toString("latin1") === nativeSha256Hex(bytes)
    ? bytes
    : undefined;
}

/** Writes code cache data with its digest trailer, atomically. */
export function writeCodeCacheFile(path: string, bytes: Uint8Array): void {
  writeFileAtomicSync(path, Buffer.concat([bytes, Buffer.from(nativeSha256Hex(bytes), "latin1")]));
}

/** A compiled script with what isolated-vm reports of its code cache (missing from its types). */
type CachedScript = IsolatedVM.Script & IsolatedVM.CachedDataResult & { cachedDataRejected?: boolean };

function arrayBufferCopy(bytes: Uint8Array): IsolatedVM.ExternalCopy<ArrayBuffer> {
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
  isolate: IsolatedVM.Isolate,
  bundle: RuntimeBundle,
  cacheDir: string | undefined,
  log: (line: string) => void = () => {},
): IsolatedVM.Script {
  const key = codeCacheKey(bundle);
  const kept = cacheDir === undefined ? undefined : join(cacheDir, "code-cache", `${key}.bin`);
  for (const path of [builtCodeCachePath(bundle, key), kept]) {
    const data = path && readCodeCacheFile(path, path === kept);
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
