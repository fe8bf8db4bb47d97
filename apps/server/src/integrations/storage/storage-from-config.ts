import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config/env.ts';
import { createEncryptedStorage } from './encrypted.storage.ts';
import type { FileStorage } from './file-storage.ts';
import { createLocalFolderStorage } from './local-folder.storage.ts';

/**
 * The upload store the configuration describes: a local folder, always encrypted. With no key
 * configured, one is generated on first use and kept beside the embedded database, so `npm start`
 * works with nothing set; `keyWasGenerated` lets start-up say so in the log.
 */
export async function storageFromConfig(config: Config): Promise<{ storage: FileStorage; keyWasGenerated: boolean }> {
  const folder = resolve(config.UPLOAD_DIR ?? join(config.DATA_DIR, 'uploads'));
  let key: Uint8Array;
  let keyWasGenerated = false;
  if (config.UPLOAD_ENCRYPTION_KEY) {
    key = Buffer.from(config.UPLOAD_ENCRYPTION_KEY, 'base64');
  } else {
    const keyFile = resolve(config.DATA_DIR, 'upload-encryption.key');
    try {
      key = Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'base64');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      key = randomBytes(32);
      await mkdir(resolve(config.DATA_DIR), { recursive: true });
      // 'wx': never overwrite a key another process just wrote (files under the old key would be lost).
      await writeFile(keyFile, `${Buffer.from(key).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
      keyWasGenerated = true;
    }
    if (key.length !== 32) throw new Error(`${keyFile} does not hold a 32-byte base64 key`);
  }
  return { storage: createEncryptedStorage(createLocalFolderStorage(folder), key), keyWasGenerated };
}
