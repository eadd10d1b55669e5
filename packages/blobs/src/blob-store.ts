/** What a finished upload became: its key (the sha256 of its bytes, in hex) and its size. */
export interface StoredBlob {
  readonly key: string;
  readonly size: number;
}

/** Options of {@link BlobStore.put}. */
export interface PutOptions {
  /** The most bytes this upload may have; one more and it fails with {@link BlobTooLargeError}, keeping nothing. */
  readonly maxBytes: number;
  /** Aborts the upload (the client went away): nothing is kept. */
  readonly signal?: AbortSignal;
}

/** Which records refer to which of these keys (a query of the kind's table). */
export type ReferencedKeys = (keys: readonly string[]) => Promise<ReadonlySet<string>>;

/** Options of {@link BlobStore.release}. */
export interface ReleaseOptions {
  /** The blob was recorded (its row committed): keep it. */
  readonly keep: boolean;
  /** Asked before removing a blob that is not kept. */
  readonly referenced: ReferencedKeys;
}

/** A byte range of a blob, both ends included (HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where uploaded bytes live (Forgejo's storage: attachments, packages, Actions artifacts), behind
 * the few operations callers need, so that an object-store backend can stand in for the local one
 * without touching them. Blobs are content-addressed: the same bytes are stored once whatever
 * uploads them, so a blob is removed only when no record refers to it ({@link BlobStore.sweep}).
 */
export interface BlobStore {
  /**
   * Streams `body` into the store and resolves once the bytes are durable under their key. An
   * upload that fails, is aborted or runs past `maxBytes` leaves nothing visible.
   */
  put(body: AsyncIterable<Uint8Array>, options: PutOptions): Promise<StoredBlob>;
  /**
   * Ends what `put` started: the blob stays held (the sweep and other releases leave it alone)
   * from `put` until its caller releases it. With `keep` false (the upload was refused, nothing
   * recorded) the blob is removed unless a record refers to it (`referenced`) or another upload of
   * the same bytes still holds it, so a refusal leaves no file. Use {@link withStoredBlob}.
   */
  release(key: string, options: ReleaseOptions): Promise<void>;
  /** The blob's bytes (or a range of them) as a stream read on demand; {@link BlobNotFoundError} when absent. */
  open(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** The blob's size, or undefined when absent. */
  size(key: string): Promise<number | undefined>;
  /**
   * Removes what nobody refers to: blobs for which `referenced` does not answer true, and
   * unfinished uploads, both only when older than `graceMs` (0 at start-up, when no upload can be
   * running). Resolves with how many files went.
   */
  sweep(referenced: ReferencedKeys, graceMs: number): Promise<number>;
  /**
   * The uploads not yet renamed into place: being written, or cut short by a crash or a shutdown
   * (those stay until a sweep old enough for them, or the next start). For `kiln doctor`.
   */
  unfinished(): Promise<readonly UnfinishedUpload[]>;
}

/** An upload in a store's temporary area ({@link BlobStore.unfinished}). */
export interface UnfinishedUpload {
  /** Where it is (a file for the local store). */
  readonly path: string;
  readonly bytes: number;
  /** When it was last written to: an upload going on is recent. */
  readonly modified: Date;
}

/**
 * Stores `body`, then runs `record` with the stored blob (it inserts the row that refers to it).
 * If `record` throws, the blob is removed unless something else refers to it, and the error goes
 * on: an upload refused after its bytes arrived (a bad checksum, a name taken meanwhile, a quota
 * limit) leaves no file behind. A crash in between leaves one unreferenced file, which the sweep
 * at start-up removes.
 */
export async function withStoredBlob<T>(
  store: BlobStore,
  body: AsyncIterable<Uint8Array>,
  options: PutOptions & { readonly referenced: ReferencedKeys },
  record: (blob: StoredBlob) => Promise<T>,
): Promise<T> {
  const { referenced, ...putOptions } = options;
  const blob = await store.put(body, putOptions);
  let keep = false;
  try {
    const result = await record(blob);
    keep = true;
    return result;
  } finally {
    // A failure to remove must not hide why the upload failed: the sweep is the backstop.
    await store.release(blob.key, { keep, referenced }).catch(() => {});
  }
}

/** An upload ran past its limit. */
export class BlobTooLargeError extends Error {
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`the upload is larger than the limit of ${maxBytes} bytes`);
    this.name = "BlobTooLargeError";
    this.maxBytes = maxBytes;
  }
}

/** No blob has this key. */
export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`blob ${key} does not exist`);
    this.name = "BlobNotFoundError";
  }
}
