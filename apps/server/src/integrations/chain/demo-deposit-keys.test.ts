import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExtendedPublicKey } from '@keel/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateDemoDepositKeys } from './demo-deposit-keys.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('demo deposit keys', () => {
  it('are public keys only, made once per network and kept across restarts', () => {
    const folder = mkdtempSync(join(tmpdir(), 'keel-demo-keys-'));
    folders.push(folder);
    const first = loadOrCreateDemoDepositKeys(folder, ['tron', 'bitcoin']);
    expect(Object.keys(first).sort()).toEqual(['bitcoin', 'tron']);
    for (const key of Object.values(first)) expect(checkExtendedPublicKey(key!)).toBe(true);
    expect(first.tron).not.toBe(first.bitcoin);
    // Nothing private is written: only the two xpubs.
    const file = readFileSync(join(folder, 'wallet-demo-xpubs.json'), 'utf8');
    expect(file).not.toMatch(/prv/);
    expect(loadOrCreateDemoDepositKeys(folder, ['tron', 'bitcoin'])).toEqual(first);
    const more = loadOrCreateDemoDepositKeys(folder, ['ethereum', 'tron']);
    expect(more.tron).toBe(first.tron);
    expect(Object.keys(more).sort()).toEqual(['ethereum', 'tron']);
  });

  it('asks for nothing when every network has a configured source, and stays in memory for memory://', () => {
    expect(loadOrCreateDemoDepositKeys('/nonexistent/never-written', [])).toEqual({});
    expect(Object.keys(loadOrCreateDemoDepositKeys('memory://', ['bitcoin']))).toEqual(['bitcoin']);
  });
});
