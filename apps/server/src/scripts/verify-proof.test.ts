import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMerkleSumTree, proofFileToJson } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProofCli } from './verify-proof.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

describe('npm run verify:proof', () => {
  let dir = '';
  const tree = buildMerkleSumTree(
    {
      snapshotId: 'snapshot-2026-12-01',
      takenAtMs: Date.UTC(2026, 11, 1),
      assets: [
        { code: 'BTC', scale: 8 },
        { code: 'USDT', scale: 6 },
      ],
      leaves: ['alice', 'bob', 'carol'].map((userId, i) => ({ userId, salt: sha256(Buffer.from(userId)), balancesMinor: [BigInt(i) * 25_000_000n, 1_000_000_000n] })),
    },
    sha256,
  );
  const good = proofFileToJson({ published: tree.published, proof: tree.proofFor('bob') });

  async function run(name: string, contents: string | null) {
    const path = join(dir, name);
    if (contents !== null) await writeFile(path, contents);
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await verifyProofCli(['--', path], { log: (line) => lines.push(line), error: (line) => errors.push(line) });
    return { code, lines, errors };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-proof-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a good file: the balances per asset and the root it was verified against, exit 0', async () => {
    const { code, lines, errors } = await run('good.json', JSON.stringify(good, null, 2));
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(lines).toEqual([
      'snapshot snapshot-2026-12-01 taken 2026-12-01T00:00:00.000Z: 3 accounts; total liabilities BTC 0.75000000, USDT 3000.000000',
      'balances of bob:',
      '  BTC   0.25000000',
      '  USDT  1000.000000',
      `verified against root ${good.published.rootHash} of snapshot snapshot-2026-12-01`,
    ]);
  });

  it('a tampered file: the problem, exit 1', async () => {
    const tampered = structuredClone(good);
    tampered.proof.balancesMinor[0] = '50000000';
    const { code, lines, errors } = await run('tampered.json', JSON.stringify(tampered));
    expect(code).toBe(1);
    expect(lines).toEqual([]);
    expect(errors).toEqual(['NOT verified: root_mismatch (the path from your leaf does not lead to the published root hash)']);

    const shrunk = structuredClone(good);
    shrunk.published.totalsMinor[1] = '2000000000';
    expect((await run('shrunk.json', JSON.stringify(shrunk))).errors).toEqual(['NOT verified: sum_mismatch (the published totals are not the sums the root commits to)']);
  });

  it('an unreadable file: exit 2', async () => {
    expect(await run('missing.json', null)).toMatchObject({ code: 2, lines: [] });
    expect(await run('not-json.json', '{"format": "keel-proof')).toEqual({ code: 2, lines: [], errors: [expect.stringMatching(/is not a proof file: malformed at json$/)] });
    const wrong = { ...good, proof: { ...good.proof, salt: 'not hex' } };
    expect((await run('wrong.json', JSON.stringify(wrong))).errors).toEqual([expect.stringMatching(/malformed at proof\.salt$/)]);
    expect(await verifyProofCli([], { log: () => {}, error: () => {} })).toBe(2);
  });
});
