import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { storageFromConfig } from './storage-from-config.ts';

describe('storage from configuration', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'keel-data-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('generates a key once beside the data and reuses it on the next start', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await storageFromConfig(config);
    expect(first.keyWasGenerated).toBe(true);
    await first.storage.put('kyc/7/front', new Uint8Array([1, 2, 3]));
    const second = await storageFromConfig(config);
    expect(second.keyWasGenerated).toBe(false);
    expect(await second.storage.get('kyc/7/front')).toEqual(new Uint8Array([1, 2, 3]));
    expect((await readFile(join(dataDir, 'upload-encryption.key'), 'utf8')).trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('uses a configured key and refuses a malformed one at start-up', async () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const configured = await storageFromConfig(loadConfig({ DATA_DIR: dataDir, UPLOAD_DIR: join(dataDir, 'other'), UPLOAD_ENCRYPTION_KEY: key }));
    expect(configured.keyWasGenerated).toBe(false);
    await configured.storage.put('x/1', new Uint8Array([9]));
    expect(await configured.storage.get('x/1')).toEqual(new Uint8Array([9]));
    expect(() => loadConfig({ UPLOAD_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(/UPLOAD_ENCRYPTION_KEY/);
  });
});
