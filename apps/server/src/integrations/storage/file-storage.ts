/**
 * Where uploaded files live (verification photos, chat images, deposit proofs). Keys are opaque
 * ids chosen by Keel, never a user's file name. Implementations: a local folder (default) wrapped
 * in encryption at rest; an S3-compatible store can implement the same three calls.
 */
export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or undefined when there is no such file. */
  get(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
}

/** Keys are generated ids: letters, digits, dashes and slashes between segments, nothing else. */
export function assertStorageKey(key: string): void {
  if (!/^[a-z0-9-]{1,64}(\/[a-z0-9-]{1,64}){0,3}$/.test(key)) throw new RangeError(`bad storage key: ${key}`);
}
