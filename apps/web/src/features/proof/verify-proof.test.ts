import { createHash } from 'node:crypto';
import { ApiError, errorCatalogue } from '@keel/contracts';
import { buildMerkleSumTree, type ProofFileJson, proofFileToJson } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { mineRefusalOf, proofCheckProblems, proofFileName, verifyCommand, verifyProofFile, verifyStateOf } from './verify-proof.ts';

// The check the proof page runs (issue 22, ADR 0040): a file built by the server's tree verifies
// with Web Crypto and shows the user's balances with the committed scales; a file changed anywhere
// does not, with the problem named; the time taken is measured by the clock given; and a user who
// registered after the snapshot reads "not in this snapshot", not a failure.

const sha256 = (bytes: Uint8Array): Uint8Array => createHash('sha256').update(bytes).digest();
const salt = (seed: string) => sha256(new TextEncoder().encode(`salt:${seed}`));
const assets = [
  { code: 'BTC', scale: 8 },
  { code: 'ETH', scale: 18 },
  { code: 'USDT', scale: 6 },
];

function snapshotFiles(): Record<string, ProofFileJson> {
  const tree = buildMerkleSumTree(
    {
      snapshotId: '7',
      takenAtMs: Date.UTC(2026, 11, 1, 9, 30),
      assets,
      leaves: [
        { userId: '11', salt: salt('11'), balancesMinor: [25_000_000n, 0n, 1_250_500_000n] },
        { userId: '12', salt: salt('12'), balancesMinor: [0n, 3n * 10n ** 18n, 0n] },
        { userId: '13', salt: salt('13'), balancesMinor: [0n, 0n, 40_000_000n] },
        // Four leaves: no padding node, so every sibling is a real one.
        { userId: '14', salt: salt('14'), balancesMinor: [0n, 0n, 0n] },
      ],
    },
    sha256,
  );
  return Object.fromEntries(['11', '12', '13'].map((userId) => [userId, proofFileToJson({ published: tree.published, proof: tree.proofFor(userId) })]));
}

/** A clock that moves on 1.5 ms each time it is read. */
function steppingClock() {
  let at = 100;
  return () => {
    at += 1.5;
    return at;
  };
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('verifyProofFile: the page’s check of a proof file', () => {
  it('verifies a good file (as text or parsed) and gives the balances with each asset’s committed scale', async () => {
    const file = snapshotFiles()['11']!;
    const check = await verifyProofFile(JSON.stringify(file, null, 2));
    expect(check).toMatchObject({
      ok: true,
      snapshotId: '7',
      leafCount: 4,
      rootHash: file.published.rootHash,
      userId: '11',
      balances: [
        { asset: 'BTC', scale: 8, minor: '25000000', amount: '0.25000000' },
        { asset: 'ETH', scale: 18, minor: '0', amount: '0.000000000000000000' },
        { asset: 'USDT', scale: 6, minor: '1250500000', amount: '1250.500000' },
      ],
    });
    expect((await verifyProofFile(file)).ok).toBe(true);
  });

  it('checks against the published data the public list shows, and refuses a file whose published data differs', async () => {
    const files = snapshotFiles();
    const file = files['12']!;
    expect((await verifyProofFile(file, { against: copy(file.published) })).ok).toBe(true);
    // Another snapshot's root handed to this user alone: the public data decides.
    const other = copy(file.published);
    other.rootHash = '0'.repeat(64);
    expect(await verifyProofFile(file, { against: other })).toMatchObject({ ok: false, problem: 'published_mismatch', at: null });
    // The same data in upper-case hex is the same snapshot.
    expect((await verifyProofFile(file, { against: { ...copy(file.published), rootHash: file.published.rootHash.toUpperCase() } })).ok).toBe(true);
  });

  it('names the problem of a tampered file: a sibling’s sum, a balance, a total, a negative amount, a bad format', async () => {
    const good = snapshotFiles()['13']!;
    const sibling = copy(good);
    sibling.proof.path[0]!.sumsMinor[2] = '1';
    expect(await verifyProofFile(sibling)).toMatchObject({ ok: false, problem: 'root_mismatch' });

    const balance = copy(good);
    balance.proof.balancesMinor[2] = '4000000000';
    expect(await verifyProofFile(balance)).toMatchObject({ ok: false, problem: 'root_mismatch' });

    const total = copy(good);
    total.published.totalsMinor[2] = '1';
    expect(await verifyProofFile(total)).toMatchObject({ ok: false, problem: 'sum_mismatch' });

    const negative = copy(good);
    negative.proof.path[0]!.sumsMinor[0] = '-5';
    expect(await verifyProofFile(negative)).toMatchObject({ ok: false, problem: 'negative_sum' });

    const short = copy(good);
    short.proof.path.pop();
    expect(await verifyProofFile(short)).toMatchObject({ ok: false, problem: 'bad_path_length' });

    const extraKey = { ...copy(good), note: 'hello' };
    expect(await verifyProofFile(extraKey)).toMatchObject({ ok: false, problem: 'malformed', at: 'file' });
    expect(await verifyProofFile('{ not json')).toMatchObject({ ok: false, problem: 'malformed', at: 'json' });
    expect(await verifyProofFile(undefined)).toMatchObject({ ok: false, problem: 'malformed' });
  });

  it('measures the check by the clock it is given (performance.now() on the page)', async () => {
    const file = snapshotFiles()['11']!;
    // Read once at the start and once at the end: 1.5 ms on this clock.
    expect((await verifyProofFile(file, { now: steppingClock() })).elapsedMs).toBe(1.5);
    expect((await verifyProofFile({ ...file, format: 'other/1' }, { now: steppingClock() })).elapsedMs).toBe(1.5);
    const real = await verifyProofFile(file);
    expect(real.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(real.elapsedMs).toBeLessThan(1_000);
  });

  it('has a text for every problem the verifier can name, plus the page’s own', () => {
    expect(proofCheckProblems).toHaveLength(11);
    expect(new Set(proofCheckProblems).size).toBe(11);
  });
});

describe('the verify part’s state', () => {
  const notInSnapshot = new ApiError({ code: 404, msg: errorCatalogue.RECORD_NOT_FOUND.msg, data: { reason: 'not_in_snapshot' } });
  const notFound = new ApiError({ code: 404, msg: errorCatalogue.RECORD_NOT_FOUND.msg, data: null });
  const systemError = new ApiError({ code: 500, msg: 'system error', data: null });

  it('tells a user who registered after the snapshot apart from a missing snapshot and a failed load', () => {
    expect(mineRefusalOf(notInSnapshot)).toBe('not_in_snapshot');
    expect(mineRefusalOf(notFound)).toBe('not_found');
    expect(mineRefusalOf(systemError)).toBe('failed');
    expect(mineRefusalOf(new TypeError('network'))).toBe('failed');
  });

  it('goes idle → fetching → checking → checked, or to refused with the reason', async () => {
    const base = { asked: false, file: undefined, error: null, sessionError: false, check: null };
    expect(verifyStateOf(base)).toEqual({ step: 'idle' });
    expect(verifyStateOf({ ...base, asked: true })).toEqual({ step: 'fetching' });
    const file = snapshotFiles()['11']!;
    expect(verifyStateOf({ ...base, asked: true, file })).toEqual({ step: 'checking' });
    const check = await verifyProofFile(file);
    expect(verifyStateOf({ ...base, asked: true, file, check })).toEqual({ step: 'checked', check });
    expect(verifyStateOf({ ...base, asked: true, error: notInSnapshot })).toEqual({ step: 'refused', refusal: 'not_in_snapshot' });
    expect(verifyStateOf({ ...base, asked: true, error: systemError })).toEqual({ step: 'refused', refusal: 'failed' });
    // A session error sends the user to login (the client's rule): nothing to say here.
    expect(verifyStateOf({ ...base, asked: true, error: notFound, sessionError: true })).toEqual({ step: 'fetching' });
  });

  it('names the saved file and the command that checks it alike', () => {
    expect(proofFileName('42')).toBe('keel-proof-42.json');
    expect(verifyCommand('42')).toBe('npm run verify:proof -- keel-proof-42.json');
  });
});
