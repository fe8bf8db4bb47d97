import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEncryptedStorage } from './encrypted.storage.ts';
import { createLocalFolderStorage } from './local-folder.storage.ts';

describe('encrypted local storage', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'keel-storage-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));
  const key = randomBytes(32);
  const plain = new TextEncoder().encode('\x89PNG pretend image bytes: passport number X1234567');

  it('round-trips, and the bytes on disk are not the plain file', async () => {
    const storage = createEncryptedStorage(createLocalFolderStorage(root), key);
    await storage.put('kyc/1/front', plain);
    expect(await storage.get('kyc/1/front')).toEqual(plain);
    const onDisk = await readFile(join(root, 'kyc/1/front'));
    expect(onDisk.includes(Buffer.from('X1234567'))).toBe(false);
    expect(onDisk.length).toBe(plain.length + 1 + 12 + 16);
  });

  it('refuses a wrong key, a tampered file and a file moved to another key', async () => {
    const storage = createEncryptedStorage(createLocalFolderStorage(root), key);
    await storage.put('kyc/2/front', plain);
    await expect(createEncryptedStorage(createLocalFolderStorage(root), randomBytes(32)).get('kyc/2/front')).rejects.toThrow();
    const path = join(root, 'kyc/2/front');
    const bytes = await readFile(path);
    await writeFile(join(root, 'kyc/2/back'), bytes);
    await expect(storage.get('kyc/2/back')).rejects.toThrow();
    bytes[20] = (bytes[20] ?? 0) ^ 0xff;
    await writeFile(path, bytes);
    await expect(storage.get('kyc/2/front')).rejects.toThrow();
  });

  it('answers undefined for a missing file, refuses path tricks in keys', async () => {
    const storage = createLocalFolderStorage(root);
    expect(await storage.get('kyc/none')).toBeUndefined();
    await expect(storage.put('../escape', plain)).rejects.toThrow(/bad storage key/);
    await expect(storage.put('kyc/../../etc', plain)).rejects.toThrow(/bad storage key/);
  });
});
