import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildMerkleSumTree,
  type InclusionProof,
  PROOF_FILE_FORMAT,
  PROOF_MAX_AMOUNT_MINOR,
  parseProofFile,
  proofBytesToHex,
  proofDepth,
  proofFileToJson,
  proofFromJson,
  proofFromLevels,
  proofNodeBytes,
  type PublishedSnapshot,
  publishedFromJson,
  publishedFromLevels,
  type SnapshotInput,
  type SnapshotLeaf,
  verifyInclusionProof,
  webCryptoSha256,
} from './merkle-sum.ts';

// The server's hasher builds; Web Crypto (as in the browser) verifies. Both must agree.
const sha256 = (bytes: Uint8Array): Uint8Array => createHash('sha256').update(bytes).digest();
const saltOf = (seed: string): Uint8Array => sha256(new TextEncoder().encode(`salt:${seed}`));

const ASSETS = [
  { code: 'BTC', scale: 8 },
  { code: 'ETH', scale: 18 },
  { code: 'USDT', scale: 6 },
];
const TAKEN_AT_MS = Date.UTC(2026, 11, 1);

/** Alice holds 0.5 BTC and 1,000 USDT; Bob 2 ETH; Carol 0.25 BTC, 1 ETH and 50 USDT; Dan nothing; Erin 10 USDT. */
const PEOPLE: readonly SnapshotLeaf[] = [
  { userId: 'alice', salt: saltOf('alice/1'), balancesMinor: [50_000_000n, 0n, 1_000_000_000n] },
  { userId: 'bob', salt: saltOf('bob/1'), balancesMinor: [0n, 2n * 10n ** 18n, 0n] },
  { userId: 'carol', salt: saltOf('carol/1'), balancesMinor: [25_000_000n, 10n ** 18n, 50_000_000n] },
  { userId: 'dan', salt: saltOf('dan/1'), balancesMinor: [0n, 0n, 0n] },
  { userId: 'erin', salt: saltOf('erin/1'), balancesMinor: [0n, 0n, 10_000_000n] },
];

const snapshot = (leaves: readonly SnapshotLeaf[], snapshotId = 'snapshot-2026-12-01'): SnapshotInput => ({ snapshotId, takenAtMs: TAKEN_AT_MS, assets: ASSETS, leaves });
const verify = (proof: InclusionProof, published: PublishedSnapshot) => verifyInclusionProof(proof, published, webCryptoSha256);
const sumOf = (leaves: readonly SnapshotLeaf[]) => ASSETS.map((_, asset) => leaves.reduce((sum, leaf) => sum + leaf.balancesMinor[asset]!, 0n));
const clone = <T>(value: T): T => structuredClone(value);

/** Generated users: balances that vary per user and asset. */
function manyPeople(count: number, round = 1): SnapshotLeaf[] {
  return Array.from({ length: count }, (_, i) => ({
    userId: `user-${i}`,
    salt: saltOf(`user-${i}/${round}`),
    balancesMinor: [BigInt(i) * 1_234n, BigInt(i % 7) * 10n ** 17n, BigInt((i * 7_919) % 100_003) * 1_000n],
  }));
}

// An encoder written separately from the module's (hex text instead of DataView), so the worked
// examples below pin the bytes rather than repeat the code under test.
const bytes = (...parts: (Uint8Array | number[])[]) => Buffer.concat(parts.map((part) => Buffer.from(part)));
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
const u64 = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
const text = (s: string) => bytes(u32(Buffer.byteLength(s)), Buffer.from(s, 'utf8'));
const amount = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

describe('the bytes, worked by hand', () => {
  const assets = [ASSETS[0]!, ASSETS[2]!];
  const alice = { userId: 'alice', salt: saltOf('alice/1'), balancesMinor: [50_000_000n, 1_000_000_000n] };
  const bob = { userId: 'bob', salt: saltOf('bob/1'), balancesMinor: [3n, 4n] };
  const contextFor = (leafCount: number) =>
    sha256(bytes([0x03], text('keel-merkle-sum-sha256/1'), text('s1'), u64(TAKEN_AT_MS), u32(leafCount), u32(2), text('BTC'), [8], text('USDT'), [6]));
  const leafHash = (context: Uint8Array, leaf: typeof alice) =>
    sha256(bytes([0x00], context, leaf.salt, text(leaf.userId), ...leaf.balancesMinor.map(amount)));

  it('one user: the root is the leaf, 0x00 ‖ context ‖ salt ‖ user id ‖ balances', () => {
    const tree = buildMerkleSumTree({ snapshotId: 's1', takenAtMs: TAKEN_AT_MS, assets, leaves: [alice] }, sha256);
    expect(proofBytesToHex(tree.root.hash)).toBe(proofBytesToHex(leafHash(contextFor(1), alice)));
    expect(tree.root.sumsMinor).toEqual([50_000_000n, 1_000_000_000n]);
    expect(tree.levels).toHaveLength(1);
    expect(tree.proofFor('alice').path).toEqual([]);
  });

  it('two users: the root is 0x01 ‖ left hash ‖ left sums ‖ right hash ‖ right sums, the smaller leaf hash on the left', () => {
    const tree = buildMerkleSumTree({ snapshotId: 's1', takenAtMs: TAKEN_AT_MS, assets, leaves: [alice, bob] }, sha256);
    const context = contextFor(2);
    const [left, right] = [alice, bob]
      .map((leaf) => ({ leaf, hash: leafHash(context, leaf) }))
      .sort((a, b) => Buffer.compare(Buffer.from(a.hash), Buffer.from(b.hash)));
    const root = sha256(bytes([0x01], left!.hash, ...left!.leaf.balancesMinor.map(amount), right!.hash, ...right!.leaf.balancesMinor.map(amount)));
    expect(proofBytesToHex(tree.root.hash)).toBe(proofBytesToHex(root));
    expect(tree.root.sumsMinor).toEqual([50_000_003n, 1_000_000_004n]);
    expect(tree.indexOf(left!.leaf.userId)).toBe(0);
  });

  it('three users: the odd leaf level ends with a padding node 0x02 ‖ context ‖ level ‖ index, of zero sums', () => {
    const carol = { userId: 'carol', salt: saltOf('carol/1'), balancesMinor: [0n, 7n] };
    const tree = buildMerkleSumTree({ snapshotId: 's1', takenAtMs: TAKEN_AT_MS, assets, leaves: [alice, bob, carol] }, sha256);
    const padding = sha256(bytes([0x02], contextFor(3), u32(0), u32(3)));
    const nodeBytes = proofNodeBytes(2);
    expect(tree.levels.map((level) => level.length / nodeBytes)).toEqual([4, 2, 1]);
    const last = tree.levels[0]!.subarray(3 * nodeBytes, 4 * nodeBytes);
    expect(proofBytesToHex(last)).toBe(proofBytesToHex(bytes(padding, amount(0n), amount(0n))));
  });
});

describe('a tree of a snapshot', () => {
  it('five users: each one’s proof verifies against the published root and shows their own balances', async () => {
    const tree = buildMerkleSumTree(snapshot(PEOPLE), sha256);
    expect(tree.leafCount).toBe(5);
    // 1 BTC = 10^8, 1 ETH = 10^18, 1 USDT = 10^6: 0.75 BTC, 3 ETH and 1,060 USDT in all.
    expect(tree.published.totalsMinor).toEqual([75_000_000n, 3n * 10n ** 18n, 1_060_000_000n]);
    expect(tree.published.totalsMinor).toEqual(sumOf(PEOPLE));
    // 5 leaves pad to 6, then 3 pad to 4, then 2, then the root: three siblings on every path.
    expect(tree.levels.map((level) => level.length / proofNodeBytes(3))).toEqual([6, 4, 2, 1]);
    for (const person of PEOPLE) {
      const proof = tree.proofFor(person.userId);
      expect(proof.path).toHaveLength(3);
      expect(await verify(proof, tree.published)).toEqual({ ok: true, assets: ASSETS, balancesMinor: person.balancesMinor, rootHash: tree.published.rootHash });
    }
  });

  it.each([1, 2, 3, 5, 1_000])('%i leaves: every proof verifies, the path is ⌈log2 n⌉ long, the totals are the leaves’ sums', async (count) => {
    const people = manyPeople(count);
    const tree = buildMerkleSumTree(snapshot(people), sha256);
    expect(tree.published.leafCount).toBe(count);
    expect(tree.published.totalsMinor).toEqual(sumOf(people));
    expect(proofDepth(count)).toBe(count === 1 ? 0 : Math.ceil(Math.log2(count)));
    for (const person of people) {
      const proof = tree.proofFor(person.userId);
      expect(proof.path).toHaveLength(proofDepth(count));
      const result = await verify(proof, tree.published);
      expect(result.ok && result.balancesMinor).toEqual(person.balancesMinor);
    }
  });

  it('places leaves by leaf hash, not by the order users came in', () => {
    const tree = buildMerkleSumTree(snapshot(manyPeople(64)), sha256);
    const leafHashes = tree.leaves.map((leaf) => proofBytesToHex(tree.levels[0]!.subarray(leaf.index * proofNodeBytes(3), leaf.index * proofNodeBytes(3) + 32)));
    expect([...leafHashes].sort()).toEqual(leafHashes);
    expect(tree.leaves.map((leaf) => leaf.userId)).not.toEqual(manyPeople(64).map((person) => person.userId));
  });

  it('padding nodes carry no sums: every padding node in every level is zero', () => {
    const tree = buildMerkleSumTree(snapshot(manyPeople(37)), sha256);
    const nodeBytes = proofNodeBytes(3);
    let width = 37;
    for (const level of tree.levels.slice(0, -1)) {
      if (width % 2 === 1) expect(level.subarray(width * nodeBytes + 32, (width + 1) * nodeBytes).every((byte) => byte === 0)).toBe(true);
      expect(level.length / nodeBytes).toBe(width + (width % 2));
      width = Math.ceil(width / 2);
    }
  });

  it('refuses what cannot be committed: a negative or too large balance, a short salt, a user twice, a wrong vector, no users, bad assets', () => {
    const alice = PEOPLE[0]!;
    const build = (leaves: SnapshotLeaf[], assets = ASSETS) => () => buildMerkleSumTree({ ...snapshot(leaves), assets }, sha256);
    expect(build([{ ...alice, balancesMinor: [-1n, 0n, 0n] }])).toThrow(RangeError);
    expect(build([{ ...alice, balancesMinor: [PROOF_MAX_AMOUNT_MINOR + 1n, 0n, 0n] }])).toThrow(RangeError);
    expect(build([{ ...alice, salt: new Uint8Array(31) }])).toThrow(RangeError);
    expect(build([alice, { ...PEOPLE[1]!, userId: 'alice' }])).toThrow(RangeError);
    expect(build([{ ...alice, balancesMinor: [1n, 2n] }])).toThrow(RangeError);
    expect(build([{ ...alice, userId: 'alice\u202e' }])).toThrow(RangeError);
    // A lone surrogate would be written as U+FFFD, the same bytes as another id.
    expect(build([{ ...alice, userId: 'alice\ud800' }])).toThrow(RangeError);
    expect(build([])).toThrow(RangeError);
    expect(build([alice], [ASSETS[0]!, ASSETS[0]!, ASSETS[1]!])).toThrow(RangeError);
    expect(build([alice], [{ code: 'B TC', scale: 8 }, ASSETS[1]!, ASSETS[2]!])).toThrow(RangeError);
    // Two balances of 2^256 − 1 fit a leaf each but not their parent's sum.
    expect(build([{ ...alice, balancesMinor: [PROOF_MAX_AMOUNT_MINOR, 0n, 0n] }, { ...PEOPLE[1]!, balancesMinor: [1n, 0n, 0n] }])).toThrow(RangeError);
  });

  it('the stored levels give the same proofs and the same published data, without hashing', () => {
    const tree = buildMerkleSumTree(snapshot(manyPeople(11)), sha256);
    // As read back from a database: copies, some inside larger buffers at an offset.
    const levels = tree.levels.map((level, at) => (at % 2 === 0 ? Uint8Array.from(level) : Buffer.concat([Buffer.alloc(7), level]).subarray(7)));
    const stored = { snapshotId: tree.snapshotId, takenAtMs: tree.takenAtMs, assets: tree.assets, leafCount: tree.leafCount, levels };
    expect(publishedFromLevels(stored)).toEqual(tree.published);
    for (const leaf of tree.leaves) expect(proofFromLevels(stored, leaf.index, leaf)).toEqual(tree.proofFor(leaf.userId));
    expect(() => proofFromLevels(stored, 11, tree.leaves[0]!)).toThrow(RangeError);
    expect(() => tree.proofFor('nobody')).toThrow(RangeError);
  });
});

describe('a proof fails verification when', () => {
  const tree = buildMerkleSumTree(snapshot(PEOPLE), sha256);
  const published = tree.published;
  const proof = tree.proofFor('carol');

  it('the user’s balance is changed, up or down', async () => {
    for (const delta of [1n, -1n, 10n ** 18n]) {
      const changed = clone(proof);
      changed.balancesMinor[1] = changed.balancesMinor[1]! + delta;
      expect(await verify(changed, published)).toEqual({ ok: false, problem: 'root_mismatch' });
    }
  });

  it('the user id or the salt is not the leaf’s', async () => {
    expect(await verify({ ...clone(proof), userId: 'mallory' }, published)).toEqual({ ok: false, problem: 'root_mismatch' });
    const salt = Uint8Array.from(proof.salt);
    salt[31] = salt[31]! ^ 1;
    expect(await verify({ ...clone(proof), salt }, published)).toEqual({ ok: false, problem: 'root_mismatch' });
  });

  it('a leaf was dropped: the dropped user’s proof fails against the smaller tree, and no path of it can carry their leaf', async () => {
    const withoutCarol = buildMerkleSumTree(snapshot(PEOPLE.filter((person) => person.userId !== 'carol')), sha256);
    expect(withoutCarol.published.totalsMinor).toEqual([50_000_000n, 2n * 10n ** 18n, 1_010_000_000n]);
    expect((await verify(proof, withoutCarol.published)).ok).toBe(false);
    // The prover hands carol a path of the smaller tree (Bob's) with her leaf, at Bob's position.
    const borrowed = withoutCarol.proofFor('bob');
    expect(await verify({ ...clone(borrowed), userId: 'carol', salt: proof.salt, balancesMinor: proof.balancesMinor }, withoutCarol.published)).toEqual({ ok: false, problem: 'root_mismatch' });
  });

  it('a leaf is negative: its own balance, or a sibling’s sum (what would cancel liabilities out)', async () => {
    const negativeLeaf = clone(proof);
    negativeLeaf.balancesMinor[0] = -1n;
    expect(await verify(negativeLeaf, published)).toEqual({ ok: false, problem: 'negative_sum' });
    const negativeSibling = clone(proof);
    negativeSibling.path[0]!.sumsMinor[2] = -5_000_000n;
    expect(await verify(negativeSibling, published)).toEqual({ ok: false, problem: 'negative_sum' });
    // A negative cannot be written into a level at all: there are 32 unsigned bytes for it.
    expect(() => buildMerkleSumTree(snapshot([{ ...PEOPLE[0]!, balancesMinor: [0n, -1n, 0n] }]), sha256)).toThrow(/cannot be committed/);
  });

  it('a sum is wrong: a sibling’s sum changed, or published totals that are not the root’s sums', async () => {
    const changed = clone(proof);
    changed.path[1]!.sumsMinor[0] = changed.path[1]!.sumsMinor[0]! - 1n;
    expect(await verify(changed, published)).toEqual({ ok: false, problem: 'root_mismatch' });
    const smaller = { ...published, totalsMinor: [published.totalsMinor[0]! - 25_000_000n, ...published.totalsMinor.slice(1)] };
    expect(await verify(proof, smaller)).toEqual({ ok: false, problem: 'sum_mismatch' });
  });

  it('Maxwell’s flaw: a root of max(a, b), each user shown the other as (root − own), is refused', async () => {
    // Alice holds 1,000 USDT and Bob 600: the honest root sums 1,600.
    const pair = buildMerkleSumTree(snapshot([PEOPLE[0]!, { ...PEOPLE[4]!, balancesMinor: [0n, 0n, 600_000_000n] }]), sha256);
    expect(pair.published.totalsMinor[2]).toBe(1_600_000_000n);
    // In a tree whose parent hashes only the total, the prover could publish 1,000 and tell Alice
    // her sibling holds 0 and Erin that hers holds 400: both add up, both would check. Here each
    // sibling's sums are inside the parent's hash, so neither does.
    const claimed = { ...pair.published, totalsMinor: [50_000_000n, 0n, 1_000_000_000n] };
    const toAlice = clone(pair.proofFor('alice'));
    toAlice.path[0]!.sumsMinor = [0n, 0n, 0n];
    expect(await verify(toAlice, claimed)).toEqual({ ok: false, problem: 'root_mismatch' });
    const toErin = clone(pair.proofFor('erin'));
    toErin.path[0]!.sumsMinor = [50_000_000n, 0n, 400_000_000n];
    expect(await verify(toErin, claimed)).toEqual({ ok: false, problem: 'root_mismatch' });
  });

  it('sums are swapped between two levels of the path', async () => {
    const swapped = clone(proof);
    [swapped.path[0]!.sumsMinor, swapped.path[1]!.sumsMinor] = [swapped.path[1]!.sumsMinor, swapped.path[0]!.sumsMinor];
    expect(await verify(swapped, published)).toEqual({ ok: false, problem: 'root_mismatch' });
    const siblings = clone(proof);
    [siblings.path[0]!.hash, siblings.path[1]!.hash] = [siblings.path[1]!.hash, siblings.path[0]!.hash];
    expect((await verify(siblings, published)).ok).toBe(false);
  });

  it('the proof is of another snapshot, even relabelled', async () => {
    const next = buildMerkleSumTree(snapshot(PEOPLE, 'snapshot-2026-12-02'), sha256);
    expect(await verify(proof, next.published)).toEqual({ ok: false, problem: 'snapshot_mismatch' });
    expect(await verify({ ...clone(proof), snapshotId: 'snapshot-2026-12-02' }, next.published)).toEqual({ ok: false, problem: 'root_mismatch' });
  });

  it('a padding sibling carries a sum, or is not the padding the leaf count puts there', async () => {
    // With 5 leaves the last leaf (index 4) has the padding leaf 5 beside it.
    const last = tree.leaves[4]!;
    const lastProof = tree.proofFor(last.userId);
    expect(lastProof.path[0]!.sumsMinor).toEqual([0n, 0n, 0n]);
    expect((await verify(lastProof, published)).ok).toBe(true);
    const carrying = clone(lastProof);
    carrying.path[0]!.sumsMinor[2] = 1n;
    expect(await verify(carrying, published)).toEqual({ ok: false, problem: 'bad_padding' });
    const other = clone(lastProof);
    other.path[0]!.hash = Uint8Array.from(proof.path[0]!.hash);
    expect(await verify(other, published)).toEqual({ ok: false, problem: 'bad_padding' });
  });

  it('the path is too short or too long, or the index is outside the tree', async () => {
    expect(await verify({ ...clone(proof), path: proof.path.slice(0, -1) }, published)).toEqual({ ok: false, problem: 'bad_path_length' });
    expect(await verify({ ...clone(proof), path: [...proof.path, proof.path[0]!] }, published)).toEqual({ ok: false, problem: 'bad_path_length' });
    expect(await verify({ ...clone(proof), index: 5 }, published)).toEqual({ ok: false, problem: 'bad_index' });
    expect((await verify({ ...clone(proof), index: proof.index ^ 1 }, published)).ok).toBe(false);
  });

  it('the assets differ, in order or scale, or the published header is changed', async () => {
    expect(await verify({ ...clone(proof), assets: [ASSETS[1]!, ASSETS[0]!, ASSETS[2]!] }, published)).toEqual({ ok: false, problem: 'asset_mismatch' });
    const rescaled = [{ code: 'BTC', scale: 6 }, ASSETS[1]!, ASSETS[2]!];
    expect(await verify({ ...clone(proof), assets: rescaled }, { ...published, assets: rescaled })).toEqual({ ok: false, problem: 'root_mismatch' });
    expect(await verify(proof, { ...published, takenAtMs: published.takenAtMs + 1 })).toEqual({ ok: false, problem: 'root_mismatch' });
    expect(await verify(proof, { ...published, leafCount: 6 })).toEqual({ ok: false, problem: 'root_mismatch' });
    expect(await verify(proof, { ...published, leafCount: 9 })).toEqual({ ok: false, problem: 'bad_path_length' });
  });

  it('a sum overflows 32 bytes', async () => {
    const huge = clone(proof);
    huge.path[0]!.sumsMinor[0] = PROOF_MAX_AMOUNT_MINOR + 1n;
    expect(await verify(huge, published)).toEqual({ ok: false, problem: 'sum_overflow' });
    const adding = clone(proof);
    adding.balancesMinor[1] = PROOF_MAX_AMOUNT_MINOR;
    expect(await verify(adding, published)).toEqual({ ok: false, problem: 'sum_overflow' });
  });
});

describe('salts: the same users make a different tree each snapshot', () => {
  it('new salts give a new root, new leaf hashes and a new order; the same input gives the same tree', () => {
    const first = buildMerkleSumTree(snapshot(manyPeople(50, 1)), sha256);
    const second = buildMerkleSumTree(snapshot(manyPeople(50, 2)), sha256);
    expect(proofBytesToHex(second.root.hash)).not.toBe(proofBytesToHex(first.root.hash));
    expect(second.root.sumsMinor).toEqual(first.root.sumsMinor);
    const leafHashes = (tree: typeof first) => new Set(Array.from({ length: 50 }, (_, i) => proofBytesToHex(tree.levels[0]!.subarray(i * proofNodeBytes(3), i * proofNodeBytes(3) + 32))));
    const shared = [...leafHashes(first)].filter((hash) => leafHashes(second).has(hash));
    expect(shared).toEqual([]);
    expect(second.leaves.map((leaf) => leaf.userId)).not.toEqual(first.leaves.map((leaf) => leaf.userId));
    expect(proofBytesToHex(buildMerkleSumTree(snapshot(manyPeople(50, 1)), sha256).root.hash)).toBe(proofBytesToHex(first.root.hash));
  });

  it('the same users and salts in another snapshot still give another root (the snapshot id is in every leaf)', () => {
    const first = buildMerkleSumTree(snapshot(PEOPLE, 'a'), sha256);
    const second = buildMerkleSumTree(snapshot(PEOPLE, 'b'), sha256);
    expect(proofBytesToHex(second.root.hash)).not.toBe(proofBytesToHex(first.root.hash));
  });
});

describe('the saved file', () => {
  const tree = buildMerkleSumTree(snapshot(PEOPLE), sha256);
  const file = proofFileToJson({ published: tree.published, proof: tree.proofFor('alice') });

  it('is JSON with hex hashes and minor units as decimal strings, and reads back to a proof that verifies', async () => {
    expect(file.format).toBe(PROOF_FILE_FORMAT);
    expect(file.published).toMatchObject({ snapshotId: 'snapshot-2026-12-01', takenAt: '2026-12-01T00:00:00.000Z', leafCount: 5, totalsMinor: ['75000000', '3000000000000000000', '1060000000'] });
    expect(file.proof).toMatchObject({ userId: 'alice', balancesMinor: ['50000000', '0', '1000000000'] });
    expect(file.proof.salt).toMatch(/^[0-9a-f]{64}$/);
    const read = parseProofFile(JSON.stringify(file));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value).toEqual({ published: tree.published, proof: tree.proofFor('alice') });
    expect((await verify(read.value.proof, read.value.published)).ok).toBe(true);
  });

  it('refuses anything but exactly the format, saying where', () => {
    const edit = (change: (copy: typeof file & Record<string, unknown>) => void) => {
      const copy = clone(file) as typeof file & Record<string, unknown>;
      change(copy);
      return parseProofFile(JSON.stringify(copy));
    };
    expect(parseProofFile('{"format":')).toEqual({ ok: false, problem: 'malformed', at: 'json' });
    expect(parseProofFile('[]')).toEqual({ ok: false, problem: 'malformed', at: 'file' });
    expect(edit((copy) => { (copy as Record<string, unknown>).format = 'keel-proof-of-liabilities/2'; })).toEqual({ ok: false, problem: 'malformed', at: 'file.format' });
    expect(edit((copy) => { copy.extra = 1; })).toEqual({ ok: false, problem: 'malformed', at: 'file' });
    expect(edit((copy) => { copy.proof.path[0]!.hash = 'zz'; })).toEqual({ ok: false, problem: 'malformed', at: 'proof.path[0].hash' });
    expect(edit((copy) => { copy.proof.balancesMinor[0] = '1.5'; })).toEqual({ ok: false, problem: 'malformed', at: 'proof.balancesMinor[0]' });
    expect(edit((copy) => { copy.proof.balancesMinor[0] = '050000000'; })).toEqual({ ok: false, problem: 'malformed', at: 'proof.balancesMinor[0]' });
    expect(edit((copy) => { copy.proof.index = -1; })).toEqual({ ok: false, problem: 'malformed', at: 'proof.index' });
    expect(edit((copy) => { copy.proof.userId = 'alice\u001b[2K'; })).toEqual({ ok: false, problem: 'malformed', at: 'proof.userId' });
    expect(edit((copy) => { copy.published.takenAt = '2026-02-30T00:00:00.000Z'; })).toEqual({ ok: false, problem: 'malformed', at: 'published.takenAt' });
    expect(edit((copy) => { delete (copy.published as Partial<typeof copy.published>).rootHash; })).toEqual({ ok: false, problem: 'malformed', at: 'published' });
    expect(edit((copy) => { copy.proof.path = Array.from({ length: 65 }, () => copy.proof.path[0]!); })).toEqual({ ok: false, problem: 'malformed', at: 'proof.path' });
    expect(proofFromJson(null)).toEqual({ ok: false, problem: 'malformed', at: 'proof' });
    expect(publishedFromJson(file.published)).toEqual({ ok: true, value: tree.published });
  });

  it('reads a negative amount, so that the verifier reports it as one', async () => {
    const copy = clone(file);
    copy.proof.path[0]!.sumsMinor[0] = '-1';
    const read = parseProofFile(JSON.stringify(copy));
    expect(read.ok && (await verify(read.value.proof, read.value.published))).toEqual({ ok: false, problem: 'negative_sum' });
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((value) => JSON.stringify({ format: PROOF_FILE_FORMAT, published: value, proof: value }))), (text) => {
        expect(parseProofFile(text).ok).toBe(false);
      }),
    );
  });
});

describe('properties', () => {
  const ASSET_SETS = [ASSETS.slice(0, 1), ASSETS.slice(0, 2), ASSETS];
  // Up to 40 leaves of up to 2^250 each: the sums stay within 32 bytes.
  const trees = fc
    .record({ assetCount: fc.integer({ min: 1, max: 3 }), count: fc.integer({ min: 1, max: 40 }), seed: fc.string({ maxLength: 8 }) })
    .chain(({ assetCount, count, seed }) =>
      fc.record({
        assetCount: fc.constant(assetCount),
        seed: fc.constant(seed),
        balances: fc.array(fc.array(fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1n << 250n })), { minLength: assetCount, maxLength: assetCount }), { minLength: count, maxLength: count }),
      }),
    )
    .map(({ assetCount, seed, balances }) =>
      buildMerkleSumTree(
        {
          snapshotId: `random-${seed.length}`,
          takenAtMs: TAKEN_AT_MS,
          assets: ASSET_SETS[assetCount - 1]!,
          leaves: balances.map((balancesMinor, i) => ({ userId: `user-${i}`, salt: saltOf(`${seed}/${i}`), balancesMinor })),
        },
        sha256,
      ),
    );

  it('every proof of a random tree verifies and shows its leaf’s balances', async () => {
    await fc.assert(
      fc.asyncProperty(trees, async (tree) => {
        for (const leaf of tree.leaves) {
          const result = await verify(tree.proofFor(leaf.userId), tree.published);
          expect(result.ok).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  const FIELDS = ['balance', 'salt', 'userId', 'index', 'stepHash', 'stepSums', 'rootHash', 'totals', 'leafCount', 'snapshotId', 'takenAt', 'scale'] as const;
  const tampers = fc.record({
    field: fc.constantFrom(...FIELDS),
    at: fc.nat(),
    bit: fc.integer({ min: 0, max: 7 }),
    delta: fc.bigInt({ min: 1n, max: 1n << 64n }),
    down: fc.boolean(),
  });

  it('a random change of any single field never verifies', async () => {
    await fc.assert(
      fc.asyncProperty(trees, tampers, async (tree, { field, at, bit, delta, down }) => {
        const proof = clone(tree.proofFor(tree.leaves[at % tree.leaves.length]!.userId));
        const published = clone(tree.published);
        const nudge = (amounts: bigint[]) => {
          const asset = at % amounts.length;
          amounts[asset] = amounts[asset]! + (down ? -delta : delta);
        };
        const flip = (bytes: Uint8Array) => {
          bytes[at % bytes.length] = bytes[at % bytes.length]! ^ (1 << bit);
        };
        const step = proof.path[at % Math.max(proof.path.length, 1)];
        switch (field) {
          case 'balance': nudge(proof.balancesMinor); break;
          case 'salt': flip(proof.salt); break;
          case 'userId': proof.userId += 'x'; break;
          case 'index': proof.index = (proof.index + 1 + (at % published.leafCount)) % (published.leafCount + 1); break;
          case 'stepHash': if (step) flip(step.hash); else flip(proof.salt); break;
          case 'stepSums': if (step) nudge(step.sumsMinor); else nudge(proof.balancesMinor); break;
          case 'rootHash': flip(published.rootHash); break;
          case 'totals': nudge(published.totalsMinor); break;
          case 'leafCount': published.leafCount += 1 + (at % 5); break;
          case 'snapshotId': published.snapshotId += 'x'; break;
          case 'takenAt': published.takenAtMs += 1 + (at % 1_000); break;
          case 'scale': published.assets = published.assets.map((asset, i) => (i === at % published.assets.length ? { ...asset, scale: (asset.scale + 1) % 19 } : asset)); break;
        }
        expect((await verify(proof, published)).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
