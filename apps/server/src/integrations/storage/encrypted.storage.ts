import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { FileStorage } from './file-storage.ts';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encryption at rest: AES-256-GCM with a fresh 96-bit nonce per file; the stored form is
 * `version (1 byte) | nonce | ciphertext | tag`. The key is bound to the file's storage key as
 * associated data, so a file copied under another key does not decrypt (no swapping one user's
 * ID photo for another's on disk).
 */
export function createEncryptedStorage(inner: FileStorage, key: Uint8Array): FileStorage {
  if (key.length !== 32) throw new RangeError('the storage encryption key must be 32 bytes');
  return {
    async put(storageKey, bytes) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(storageKey));
      const body = Buffer.concat([cipher.update(bytes), cipher.final()]);
      await inner.put(storageKey, Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]));
    },
    async get(storageKey) {
      const stored = await inner.get(storageKey);
      if (!stored) return undefined;
      const data = Buffer.from(stored);
      if (data[0] !== VERSION || data.length < 1 + IV_BYTES + TAG_BYTES) throw new Error(`stored file ${storageKey} is not in a known format`);
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(1, 1 + IV_BYTES));
      decipher.setAAD(Buffer.from(storageKey));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      return new Uint8Array(Buffer.concat([decipher.update(data.subarray(1 + IV_BYTES, data.length - TAG_BYTES)), decipher.final()]));
    },
    delete: (storageKey) => inner.delete(storageKey),
  };
}
