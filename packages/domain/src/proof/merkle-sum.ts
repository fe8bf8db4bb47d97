import { MAX_SCALE } from '../money/amount.ts';
import type { AssetSpec } from '../money/assets.ts';

/**
 * Proof of liabilities (issue 22, ADR 0040): a Merkle-sum tree over every user's balances at one
 * snapshot. A user checks that their balances are counted in the published totals by recomputing
 * the path from their own leaf to the published root.
 *
 * The construction is the one that fixes the flaw of Maxwell's original tree (Hu, Zhang, Guo 2019):
 * a node's hash commits to each child's hash AND each child's sum vector separately, not only to
 * their total. Committing only to the total lets a prover show each of two siblings a different
 * value for the other (the total minus the viewer's own), so the root can carry max(a, b) instead
 * of a + b while both proofs check. With both sums inside the hash, every user sees the same
 * sibling sums, and because every amount is written as 32 unsigned bytes a negative one cannot be
 * committed at all; the verifier also refuses any it is handed.
 *
 * Hashing is a parameter: this package runs in the browser too, so it never imports node:crypto.
 * The server builds with a synchronous SHA-256 (node:crypto); the browser and the command-line
 * verifier check with Web Crypto, which is asynchronous. Every preimage is written by the functions
 * in this file, used by both sides, so the builder and the verifier cannot drift apart.
 */

/** SHA-256 as the server has it (node:crypto): must not keep the array it is given, which is reused. */
export type HashSync = (bytes: Uint8Array) => Uint8Array;
/** SHA-256 as the browser has it (Web Crypto). */
export type HashAsync = (bytes: Uint8Array) => Promise<Uint8Array>;

/** Web Crypto's SHA-256 through globalThis, present in browsers and in Node 24. */
export const webCryptoSha256: HashAsync = async (bytes) => {
  // Web Crypto takes only a view of a plain ArrayBuffer; a copy of a few hundred bytes is nothing.
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(bytes));
  return new Uint8Array(digest);
};

/** The name and version of the file a user saves and a verifier reads. */
export const PROOF_FILE_FORMAT = 'keel-proof-of-liabilities/1';
/** Separates these hashes from any other use of SHA-256 with the same bytes; part of the snapshot's context. */
export const PROOF_SCHEME = 'keel-merkle-sum-sha256/1';

export const PROOF_HASH_BYTES = 32;
export const PROOF_SALT_BYTES = 32;
/** Every amount is 32 bytes, big-endian, unsigned: the largest is 2^256 − 1 and none is negative. */
export const PROOF_AMOUNT_BYTES = 32;
export const PROOF_MAX_AMOUNT_MINOR = (1n << 256n) - 1n;
/** The leaf count is written in 4 bytes. */
export const PROOF_MAX_LEAVES = 0xffff_ffff;
/** Longest user id, snapshot id or asset code, in characters; the published data stays small and printable. */
export const PROOF_MAX_ID_LENGTH = 200;
export const PROOF_MAX_ASSETS = 64;

// One-byte domain tags (as RFC 6962's): a leaf's preimage can never be read as a node's, nor a
// padding node's as either, so no hash can stand for a different kind of node than it was made as.
const TAG_LEAF = 0x00;
const TAG_NODE = 0x01;
const TAG_PADDING = 0x02;
const TAG_SNAPSHOT = 0x03;

const UTF8 = new TextEncoder();
const MASK_64 = (1n << 64n) - 1n;
const ASSET_CODE = /^[A-Za-z0-9._-]{1,32}$/;

/** What the snapshot is of: bound into every leaf, so a proof checks against this snapshot's root only. */
export interface SnapshotHeader {
  snapshotId: string;
  /** The consistent point the balances were read at. */
  takenAtMs: number;
  /** The order every vector of amounts follows; the scale is committed so a verifier can show decimals it can trust. */
  assets: readonly AssetSpec[];
  leafCount: number;
}

export interface SnapshotLeaf {
  userId: string;
  /** 32 random bytes per user and snapshot: without them a leaf hash could be confirmed by guessing a user's balances. */
  salt: Uint8Array;
  /** In the snapshot's asset order, minor units, none negative. */
  balancesMinor: readonly bigint[];
}

export interface SnapshotInput {
  snapshotId: string;
  takenAtMs: number;
  assets: readonly AssetSpec[];
  leaves: readonly SnapshotLeaf[];
}

/** What is published for a snapshot; a proof checks against exactly this. */
export interface PublishedSnapshot extends SnapshotHeader {
  rootHash: Uint8Array;
  /** The total liabilities per asset: the root's sums. */
  totalsMinor: bigint[];
}

/** One sibling on the way from a leaf to the root, lowest first. */
export interface ProofStep {
  hash: Uint8Array;
  sumsMinor: bigint[];
}

export interface InclusionProof {
  snapshotId: string;
  assets: AssetSpec[];
  /** The leaf's position in the tree: which side each sibling is on, and which siblings are padding. */
  index: number;
  userId: string;
  salt: Uint8Array;
  balancesMinor: bigint[];
  path: ProofStep[];
}

/**
 * A tree as the server can store it: one byte array per level, leaves first, root last. Each level
 * is its nodes one after another, each node its 32-byte hash then its sums, 32 bytes per asset —
 * the same bytes a parent's hash is taken over, so the layout cannot differ from what is hashed.
 */
export interface StoredSnapshotTree extends SnapshotHeader {
  levels: readonly Uint8Array[];
}

export interface PlacedLeaf {
  userId: string;
  salt: Uint8Array;
  index: number;
}

export interface MerkleSumTree extends StoredSnapshotTree {
  root: ProofStep;
  published: PublishedSnapshot;
  /** Every user's leaf, in tree order (by leaf hash). */
  leaves: readonly PlacedLeaf[];
  indexOf(userId: string): number | undefined;
  /** Throws a RangeError for a user not in the snapshot. */
  proofFor(userId: string): InclusionProof;
}

export type ProofProblem =
  | 'malformed'
  | 'snapshot_mismatch'
  | 'asset_mismatch'
  | 'bad_index'
  | 'bad_path_length'
  | 'negative_sum'
  | 'sum_overflow'
  | 'bad_padding'
  | 'root_mismatch'
  | 'sum_mismatch';

export type ProofVerification =
  | { ok: true; assets: AssetSpec[]; balancesMinor: bigint[]; rootHash: Uint8Array }
  | { ok: false; problem: ProofProblem };

// ---------------------------------------------------------------------------------------------
// Byte encoding: the only place preimages are written.

/** Bytes each node takes in a level: its hash, then its sums. */
export function proofNodeBytes(assetCount: number): number {
  return PROOF_HASH_BYTES + PROOF_AMOUNT_BYTES * assetCount;
}

/** Writes an amount as 32 bytes big-endian; a negative or too large one cannot be written. */
function writeAmount(view: DataView, offset: number, amountMinor: bigint): void {
  if (amountMinor < 0n || amountMinor > PROOF_MAX_AMOUNT_MINOR) throw new RangeError(`amount ${amountMinor} cannot be committed (0 … 2^256 − 1)`);
  view.setBigUint64(offset, amountMinor >> 192n);
  view.setBigUint64(offset + 8, (amountMinor >> 128n) & MASK_64);
  view.setBigUint64(offset + 16, (amountMinor >> 64n) & MASK_64);
  view.setBigUint64(offset + 24, amountMinor & MASK_64);
}

function readAmount(view: DataView, offset: number): bigint {
  return (
    (view.getBigUint64(offset) << 192n) |
    (view.getBigUint64(offset + 8) << 128n) |
    (view.getBigUint64(offset + 16) << 64n) |
    view.getBigUint64(offset + 24)
  );
}

/** Writes one node (hash ‖ sums) at `offset`. */
function writeNode(target: Uint8Array, view: DataView, offset: number, hash: Uint8Array, sumsMinor: readonly bigint[]): void {
  if (hash.length !== PROOF_HASH_BYTES) throw new RangeError('a node hash is 32 bytes');
  target.set(hash, offset);
  for (let asset = 0; asset < sumsMinor.length; asset++) writeAmount(view, offset + PROOF_HASH_BYTES + asset * PROOF_AMOUNT_BYTES, sumsMinor[asset]!);
}

function readNode(level: Uint8Array, view: DataView, offset: number, assetCount: number): ProofStep {
  const sumsMinor: bigint[] = [];
  for (let asset = 0; asset < assetCount; asset++) sumsMinor.push(readAmount(view, offset + PROOF_HASH_BYTES + asset * PROOF_AMOUNT_BYTES));
  // A copy, and a plain one: a Buffer's slice would share the stored level's memory.
  return { hash: new Uint8Array(level.subarray(offset, offset + PROOF_HASH_BYTES)), sumsMinor };
}

/**
 * One stored node (its hash, then 32 bytes per asset) as a proof step: for a server that reads only
 * the nodes a proof needs out of the stored levels instead of whole levels.
 */
export function readProofNode(node: Uint8Array, assetCount: number): ProofStep {
  if (node.length !== proofNodeBytes(assetCount)) throw new RangeError(`a node of ${assetCount} assets is ${proofNodeBytes(assetCount)} bytes, not ${node.length}`);
  return readNode(node, new DataView(node.buffer, node.byteOffset, node.byteLength), 0, assetCount);
}

/** A small writer for the variable-length preimages (the snapshot's context and a leaf). */
class Preimage {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  private at = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  u8(value: number): this {
    this.view.setUint8(this.at, value);
    this.at += 1;
    return this;
  }

  u32(value: number): this {
    this.view.setUint32(this.at, value);
    this.at += 4;
    return this;
  }

  u64(value: number): this {
    this.view.setBigUint64(this.at, BigInt(value));
    this.at += 8;
    return this;
  }

  raw(bytes: Uint8Array): this {
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }

  /** A string: its UTF-8 byte length in 4 bytes, then the bytes, so no two sequences of strings share an encoding. */
  text(encoded: Uint8Array): this {
    return this.u32(encoded.length).raw(encoded);
  }

  amounts(amountsMinor: readonly bigint[]): this {
    for (const amount of amountsMinor) {
      writeAmount(this.view, this.at, amount);
      this.at += PROOF_AMOUNT_BYTES;
    }
    return this;
  }

  done(): Uint8Array {
    if (this.at !== this.bytes.length) throw new Error(`preimage written to ${this.at} of ${this.bytes.length} bytes`);
    return this.bytes;
  }
}

/**
 * The snapshot's context: 0x03 ‖ text(scheme) ‖ text(snapshotId) ‖ u64 takenAtMs ‖ u32 leafCount ‖
 * u32 asset count ‖ per asset text(code) ‖ u8 scale. Its hash goes into every leaf and padding
 * node, so each published field but the totals (which the root's sums carry) is committed by the root.
 */
function contextPreimage(header: SnapshotHeader): Uint8Array {
  const scheme = UTF8.encode(PROOF_SCHEME);
  const snapshotId = UTF8.encode(header.snapshotId);
  const codes = header.assets.map((asset) => UTF8.encode(asset.code));
  const size = 1 + 4 + scheme.length + 4 + snapshotId.length + 8 + 4 + 4 + codes.reduce((sum, code) => sum + 4 + code.length + 1, 0);
  const preimage = new Preimage(size).u8(TAG_SNAPSHOT).text(scheme).text(snapshotId).u64(header.takenAtMs).u32(header.leafCount).u32(codes.length);
  for (let at = 0; at < codes.length; at++) preimage.text(codes[at]!).u8(header.assets[at]!.scale);
  return preimage.done();
}

/** A leaf: 0x00 ‖ context hash ‖ salt (32) ‖ text(userId) ‖ balances (32 each). */
function leafPreimage(context: Uint8Array, salt: Uint8Array, userId: Uint8Array, balancesMinor: readonly bigint[]): Uint8Array {
  const size = 1 + PROOF_HASH_BYTES + PROOF_SALT_BYTES + 4 + userId.length + PROOF_AMOUNT_BYTES * balancesMinor.length;
  return new Preimage(size).u8(TAG_LEAF).raw(context).raw(salt).text(userId).amounts(balancesMinor).done();
}

/**
 * A padding node, where a level has an odd number of nodes: 0x02 ‖ context hash ‖ u32 level ‖
 * u32 index, with sums of zero. A verifier knows from the leaf count and the index exactly which
 * siblings are padding and recomputes them, so padding can never carry a sum.
 */
function paddingPreimage(context: Uint8Array, level: number, index: number): Uint8Array {
  return new Preimage(1 + PROOF_HASH_BYTES + 8).u8(TAG_PADDING).raw(context).u32(level).u32(index).done();
}

/** A parent: 0x01 ‖ left node ‖ right node (each its hash then its sums), written into `scratch`. */
function nodePreimage(scratch: Uint8Array, pair: Uint8Array): Uint8Array {
  scratch[0] = TAG_NODE;
  scratch.set(pair, 1);
  return scratch;
}

// ---------------------------------------------------------------------------------------------
// Shape of a tree.

/** Nodes on a level before padding: ⌈leafCount ÷ 2^level⌉. */
function widthAt(leafCount: number, level: number): number {
  return Math.ceil(leafCount / 2 ** level);
}

/** How many siblings a proof has: ⌈log2 leafCount⌉ (none for a single leaf, which is the root). */
export function proofDepth(leafCount: number): number {
  let depth = 0;
  while (widthAt(leafCount, depth) > 1) depth++;
  return depth;
}

/**
 * An id fit to commit and to print: 1 … 200 characters, none a control character or a bidirectional
 * override (the verifiers print ids, and a printed id must not be able to rewrite the line that says
 * whether the proof verified), and no lone surrogate (which UTF-8 would turn into U+FFFD, so two
 * different ids would share one encoding).
 */
function isPrintableId(text: string): boolean {
  if (text.length === 0 || text.length > PROOF_MAX_ID_LENGTH) return false;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
    if (code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return false;
    if (code >= 0xd800 && code <= 0xdfff) return false;
  }
  return true;
}

/** Why a snapshot's header cannot be committed, or null. */
function headerProblem(header: SnapshotHeader): string | null {
  if (!isPrintableId(header.snapshotId)) return 'the snapshot id is empty, too long or unprintable';
  if (!Number.isSafeInteger(header.takenAtMs) || header.takenAtMs < 0) return 'the snapshot time is not a time';
  if (!Number.isInteger(header.leafCount) || header.leafCount < 1 || header.leafCount > PROOF_MAX_LEAVES) return 'a tree has 1 … 2^32 − 1 leaves';
  if (header.assets.length < 1 || header.assets.length > PROOF_MAX_ASSETS) return `a snapshot has 1 … ${PROOF_MAX_ASSETS} assets`;
  const codes = new Set<string>();
  for (const asset of header.assets) {
    if (!ASSET_CODE.test(asset.code) || codes.has(asset.code)) return `asset code ${JSON.stringify(asset.code)} is not a code or is repeated`;
    if (!Number.isInteger(asset.scale) || asset.scale < 0 || asset.scale > MAX_SCALE) return `asset ${asset.code} has a bad scale`;
    codes.add(asset.code);
  }
  return null;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

// ---------------------------------------------------------------------------------------------
// Building (server).

/**
 * Builds the tree of one snapshot. Leaves are placed in the order of their hashes: a hash covers
 * the user's fresh salt, so the order is a new random one each snapshot and a position says nothing
 * of when a user signed up. Throws a RangeError on input that cannot be committed (a negative or
 * too large balance, a salt that is not 32 bytes, a repeated user, a vector of the wrong length).
 */
export function buildMerkleSumTree(input: SnapshotInput, hash: HashSync): MerkleSumTree {
  const header: SnapshotHeader = { snapshotId: input.snapshotId, takenAtMs: input.takenAtMs, assets: input.assets.map((asset) => ({ ...asset })), leafCount: input.leaves.length };
  const problem = headerProblem(header);
  if (problem !== null) throw new RangeError(problem);
  const assetCount = header.assets.length;
  const context = hash(contextPreimage(header));

  const seen = new Set<string>();
  const hashed = input.leaves.map((leaf) => {
    if (!isPrintableId(leaf.userId)) throw new RangeError(`user id ${JSON.stringify(leaf.userId.slice(0, 40))} is empty, too long or unprintable`);
    if (seen.has(leaf.userId)) throw new RangeError(`user ${leaf.userId} is in the snapshot twice`);
    seen.add(leaf.userId);
    if (leaf.salt.length !== PROOF_SALT_BYTES) throw new RangeError(`the salt of user ${leaf.userId} is not ${PROOF_SALT_BYTES} bytes`);
    if (leaf.balancesMinor.length !== assetCount) throw new RangeError(`user ${leaf.userId} has ${leaf.balancesMinor.length} balances for ${assetCount} assets`);
    return { leaf, hash: Uint8Array.from(hash(leafPreimage(context, leaf.salt, UTF8.encode(leaf.userId), leaf.balancesMinor))) };
  });
  hashed.sort((a, b) => compareBytes(a.hash, b.hash));

  const nodeBytes = proofNodeBytes(assetCount);
  const scratch = new Uint8Array(1 + 2 * nodeBytes);
  const zeros: bigint[] = Array.from({ length: assetCount }, () => 0n);
  const levels: Uint8Array[] = [];
  let sums: bigint[][] = hashed.map((each) => [...each.leaf.balancesMinor]);
  let hashes: Uint8Array[] = hashed.map((each) => each.hash);

  for (let level = 0; ; level++) {
    const width = hashes.length;
    // A level with an odd number of nodes (but the root's) gets one padding node at its end.
    if (width > 1 && width % 2 === 1) {
      hashes.push(hash(paddingPreimage(context, level, width)));
      sums.push(zeros);
    }
    const bytes = new Uint8Array(hashes.length * nodeBytes);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < hashes.length; i++) writeNode(bytes, view, i * nodeBytes, hashes[i]!, sums[i]!);
    levels.push(bytes);
    if (hashes.length === 1) break;

    const parentHashes: Uint8Array[] = [];
    const parentSums: bigint[][] = [];
    for (let i = 0; i < hashes.length; i += 2) {
      const left = sums[i]!;
      const right = sums[i + 1]!;
      // The sum of two amounts of 32 bytes may not fit 32 bytes; writeNode refuses it at the next level.
      parentSums.push(left.map((amount, asset) => amount + right[asset]!));
      parentHashes.push(Uint8Array.from(hash(nodePreimage(scratch, bytes.subarray(i * nodeBytes, (i + 2) * nodeBytes)))));
    }
    hashes = parentHashes;
    sums = parentSums;
  }

  const stored: StoredSnapshotTree = { ...header, levels };
  const leaves = hashed.map((each, index): PlacedLeaf => ({ userId: each.leaf.userId, salt: each.leaf.salt, index }));
  const indexByUser = new Map(leaves.map((leaf) => [leaf.userId, leaf.index]));
  const published = publishedFromLevels(stored);
  return {
    ...stored,
    root: { hash: published.rootHash, sumsMinor: published.totalsMinor },
    published,
    leaves,
    indexOf: (userId) => indexByUser.get(userId),
    proofFor(userId) {
      const index = indexByUser.get(userId);
      if (index === undefined) throw new RangeError(`user ${userId} is not in snapshot ${header.snapshotId}`);
      return proofFromLevels(stored, index, leaves[index]!);
    },
  };
}

/** What to publish for a stored tree: the root's hash and sums, with the header. */
export function publishedFromLevels(stored: StoredSnapshotTree): PublishedSnapshot {
  const top = stored.levels[stored.levels.length - 1];
  if (top === undefined || top.length !== proofNodeBytes(stored.assets.length)) throw new RangeError('the last level is not a single root');
  const root = readNode(top, new DataView(top.buffer, top.byteOffset, top.byteLength), 0, stored.assets.length);
  return {
    snapshotId: stored.snapshotId,
    takenAtMs: stored.takenAtMs,
    assets: stored.assets.map((asset) => ({ ...asset })),
    leafCount: stored.leafCount,
    rootHash: root.hash,
    totalsMinor: root.sumsMinor,
  };
}

/** The siblings from leaf `index` to the root, read from stored levels: one node per level, no hashing. */
export function proofPathFromLevels(levels: readonly Uint8Array[], assetCount: number, index: number): ProofStep[] {
  const nodeBytes = proofNodeBytes(assetCount);
  const path: ProofStep[] = [];
  for (let level = 0; level < levels.length - 1; level++) {
    const bytes = levels[level]!;
    const sibling = (index >>> level) ^ 1;
    if (bytes.length % nodeBytes !== 0 || (sibling + 1) * nodeBytes > bytes.length) throw new RangeError(`level ${level} has no node ${sibling}`);
    path.push(readNode(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), sibling * nodeBytes, assetCount));
  }
  return path;
}

/**
 * A user's proof from a stored tree: the path from the levels, the balances from the leaf level,
 * and the user id and salt the server kept beside the leaf's index.
 */
export function proofFromLevels(stored: StoredSnapshotTree, index: number, leaf: { userId: string; salt: Uint8Array }): InclusionProof {
  if (!Number.isInteger(index) || index < 0 || index >= stored.leafCount) throw new RangeError(`no leaf ${index} in a tree of ${stored.leafCount}`);
  const assetCount = stored.assets.length;
  const leaves = stored.levels[0]!;
  const own = readNode(leaves, new DataView(leaves.buffer, leaves.byteOffset, leaves.byteLength), index * proofNodeBytes(assetCount), assetCount);
  return {
    snapshotId: stored.snapshotId,
    assets: stored.assets.map((asset) => ({ ...asset })),
    index,
    userId: leaf.userId,
    salt: Uint8Array.from(leaf.salt),
    balancesMinor: own.sumsMinor,
    path: proofPathFromLevels(stored.levels, assetCount, index),
  };
}

// ---------------------------------------------------------------------------------------------
// Verifying (browser, command line).

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && compareBytes(a, b) === 0;
}

function sameAssets(a: readonly AssetSpec[], b: readonly AssetSpec[]): boolean {
  return a.length === b.length && a.every((asset, at) => asset.code === b[at]!.code && asset.scale === b[at]!.scale);
}

function amountProblem(amounts: readonly bigint[]): 'negative_sum' | 'sum_overflow' | null {
  if (amounts.some((amount) => amount < 0n)) return 'negative_sum';
  if (amounts.some((amount) => amount > PROOF_MAX_AMOUNT_MINOR)) return 'sum_overflow';
  return null;
}

/**
 * Checks a user's proof against the published snapshot: the proof is of this snapshot and its
 * assets; every amount (the leaf's, each sibling's, the totals) is non-negative and fits 32 bytes;
 * each padding sibling is exactly the padding node the leaf count puts there, with sums of zero;
 * the hashes from the user's own leaf lead to the published root hash; and the sums, added level by
 * level, come to the published totals. Returns the user's balances when all of it holds.
 */
export async function verifyInclusionProof(proof: InclusionProof, published: PublishedSnapshot, hash: HashAsync): Promise<ProofVerification> {
  const fail = (problem: ProofProblem): ProofVerification => ({ ok: false, problem });
  if (headerProblem(published) !== null || !isPrintableId(proof.userId)) return fail('malformed');
  if (proof.salt.length !== PROOF_SALT_BYTES || published.rootHash.length !== PROOF_HASH_BYTES || proof.path.some((step) => step.hash.length !== PROOF_HASH_BYTES)) return fail('malformed');
  if (proof.snapshotId !== published.snapshotId) return fail('snapshot_mismatch');
  const assetCount = published.assets.length;
  if (!sameAssets(proof.assets, published.assets)) return fail('asset_mismatch');
  if (proof.balancesMinor.length !== assetCount || published.totalsMinor.length !== assetCount || proof.path.some((step) => step.sumsMinor.length !== assetCount)) return fail('asset_mismatch');
  if (!Number.isInteger(proof.index) || proof.index < 0 || proof.index >= published.leafCount) return fail('bad_index');
  if (proof.path.length !== proofDepth(published.leafCount)) return fail('bad_path_length');
  for (const amounts of [proof.balancesMinor, published.totalsMinor, ...proof.path.map((step) => step.sumsMinor)]) {
    const problem = amountProblem(amounts);
    if (problem !== null) return fail(problem);
  }

  const context = await hash(contextPreimage(published));
  let current: ProofStep = { hash: await hash(leafPreimage(context, proof.salt, UTF8.encode(proof.userId), proof.balancesMinor)), sumsMinor: proof.balancesMinor };
  const nodeBytes = proofNodeBytes(assetCount);
  const pair = new Uint8Array(2 * nodeBytes);
  const view = new DataView(pair.buffer);
  for (let level = 0; level < proof.path.length; level++) {
    const sibling = proof.path[level]!;
    const position = proof.index >>> level;
    const siblingIndex = position ^ 1;
    if (siblingIndex >= widthAt(published.leafCount, level)) {
      const padding = await hash(paddingPreimage(context, level, siblingIndex));
      if (!sameBytes(sibling.hash, padding) || sibling.sumsMinor.some((amount) => amount !== 0n)) return fail('bad_padding');
    }
    const [left, right] = position % 2 === 0 ? [current, sibling] : [sibling, current];
    const sumsMinor = left.sumsMinor.map((amount, asset) => amount + right.sumsMinor[asset]!);
    if (amountProblem(sumsMinor) !== null) return fail('sum_overflow');
    writeNode(pair, view, 0, left.hash, left.sumsMinor);
    writeNode(pair, view, nodeBytes, right.hash, right.sumsMinor);
    current = { hash: await hash(nodePreimage(new Uint8Array(1 + pair.length), pair)), sumsMinor };
  }

  // The hash first: if it differs, the path is not this tree's. If it matches but the sums do not,
  // the tree is the published one and the published totals are not its sums.
  if (!sameBytes(current.hash, published.rootHash)) return fail('root_mismatch');
  if (current.sumsMinor.some((amount, asset) => amount !== published.totalsMinor[asset])) return fail('sum_mismatch');
  return { ok: true, assets: published.assets.map((asset) => ({ ...asset })), balancesMinor: [...proof.balancesMinor], rootHash: Uint8Array.from(published.rootHash) };
}

// ---------------------------------------------------------------------------------------------
// The file a user saves: JSON with hex hashes and decimal minor-unit amounts.

export interface AssetJson {
  code: string;
  scale: number;
}

export interface InclusionProofJson {
  snapshotId: string;
  assets: AssetJson[];
  index: number;
  userId: string;
  /** 64 hex digits. */
  salt: string;
  /** Decimal integers in minor units (the committed numbers, not formatted amounts). */
  balancesMinor: string[];
  path: { hash: string; sumsMinor: string[] }[];
}

export interface PublishedSnapshotJson {
  snapshotId: string;
  /** ISO 8601 in UTC with milliseconds, as Date#toISOString writes it. */
  takenAt: string;
  assets: AssetJson[];
  leafCount: number;
  rootHash: string;
  totalsMinor: string[];
}

export interface ProofFileJson {
  format: typeof PROOF_FILE_FORMAT;
  published: PublishedSnapshotJson;
  proof: InclusionProofJson;
}

export interface ProofFile {
  published: PublishedSnapshot;
  proof: InclusionProof;
}

export type ProofParse<T> = { ok: true; value: T } | { ok: false; problem: 'malformed'; at: string };

/** Lower-case hex of a hash or salt. */
export function proofBytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const assetsToJson = (assets: readonly AssetSpec[]): AssetJson[] => assets.map((asset) => ({ code: asset.code, scale: asset.scale }));
const amountsToJson = (amounts: readonly bigint[]): string[] => amounts.map((amount) => amount.toString());

export function proofToJson(proof: InclusionProof): InclusionProofJson {
  return {
    snapshotId: proof.snapshotId,
    assets: assetsToJson(proof.assets),
    index: proof.index,
    userId: proof.userId,
    salt: proofBytesToHex(proof.salt),
    balancesMinor: amountsToJson(proof.balancesMinor),
    path: proof.path.map((step) => ({ hash: proofBytesToHex(step.hash), sumsMinor: amountsToJson(step.sumsMinor) })),
  };
}

export function publishedToJson(published: PublishedSnapshot): PublishedSnapshotJson {
  return {
    snapshotId: published.snapshotId,
    takenAt: new Date(published.takenAtMs).toISOString(),
    assets: assetsToJson(published.assets),
    leafCount: published.leafCount,
    rootHash: proofBytesToHex(published.rootHash),
    totalsMinor: amountsToJson(published.totalsMinor),
  };
}

export function proofFileToJson(file: ProofFile): ProofFileJson {
  return { format: PROOF_FILE_FORMAT, published: publishedToJson(file.published), proof: proofToJson(file.proof) };
}

/** Thrown inside the parser only, caught at its edge: a bad file is a returned problem, never an exception. */
class Malformed extends Error {
  readonly at: string;
  constructor(at: string) {
    super(`malformed at ${at}`);
    this.at = at;
  }
}

type Json = unknown;
const HEX_32 = /^[0-9a-fA-F]{64}$/;
// A sign is accepted so that a negative amount reaches the verifier and is reported as one.
const INTEGER_TEXT = /^-?(0|[1-9][0-9]{0,79})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAX_PATH = 64;

function object(value: Json, at: string, keys: readonly string[]): Record<string, Json> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Malformed(at);
  const record = value as Record<string, Json>;
  const present = Object.keys(record);
  // Exactly these keys: a file with more or fewer is not one this version wrote.
  if (present.length !== keys.length || !keys.every((key) => Object.hasOwn(record, key))) throw new Malformed(at);
  return record;
}

function array(value: Json, at: string, max: number): Json[] {
  if (!Array.isArray(value) || value.length > max) throw new Malformed(at);
  return value;
}

function id(value: Json, at: string): string {
  if (typeof value !== 'string' || !isPrintableId(value)) throw new Malformed(at);
  return value;
}

function count(value: Json, at: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new Malformed(at);
  return value;
}

function hex32(value: Json, at: string): Uint8Array {
  if (typeof value !== 'string' || !HEX_32.test(value)) throw new Malformed(at);
  return hexToBytes(value);
}

function amounts(value: Json, at: string): bigint[] {
  return array(value, at, PROOF_MAX_ASSETS).map((each, i) => {
    if (typeof each !== 'string' || !INTEGER_TEXT.test(each) || each === '-0') throw new Malformed(`${at}[${i}]`);
    return BigInt(each);
  });
}

function assets(value: Json, at: string): AssetSpec[] {
  return array(value, at, PROOF_MAX_ASSETS).map((each, i) => {
    const record = object(each, `${at}[${i}]`, ['code', 'scale']);
    const code = record.code;
    if (typeof code !== 'string' || !ASSET_CODE.test(code)) throw new Malformed(`${at}[${i}].code`);
    return { code, scale: count(record.scale, `${at}[${i}].scale`, 0, MAX_SCALE) };
  });
}

function takenAt(value: Json, at: string): number {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) throw new Malformed(at);
  const ms = Date.parse(value);
  // The round trip refuses dates that do not exist (2026-02-30), which Date.parse would roll over.
  if (!Number.isSafeInteger(ms) || ms < 0 || new Date(ms).toISOString() !== value) throw new Malformed(at);
  return ms;
}

function parsing<T>(read: () => T): ProofParse<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof Malformed) return { ok: false, problem: 'malformed', at: error.at };
    throw error;
  }
}

function readProof(value: Json, at: string): InclusionProof {
  const record = object(value, at, ['snapshotId', 'assets', 'index', 'userId', 'salt', 'balancesMinor', 'path']);
  return {
    snapshotId: id(record.snapshotId, `${at}.snapshotId`),
    assets: assets(record.assets, `${at}.assets`),
    index: count(record.index, `${at}.index`, 0, PROOF_MAX_LEAVES - 1),
    userId: id(record.userId, `${at}.userId`),
    salt: hex32(record.salt, `${at}.salt`),
    balancesMinor: amounts(record.balancesMinor, `${at}.balancesMinor`),
    path: array(record.path, `${at}.path`, MAX_PATH).map((step, i) => {
      const stepRecord = object(step, `${at}.path[${i}]`, ['hash', 'sumsMinor']);
      return { hash: hex32(stepRecord.hash, `${at}.path[${i}].hash`), sumsMinor: amounts(stepRecord.sumsMinor, `${at}.path[${i}].sumsMinor`) };
    }),
  };
}

function readPublished(value: Json, at: string): PublishedSnapshot {
  const record = object(value, at, ['snapshotId', 'takenAt', 'assets', 'leafCount', 'rootHash', 'totalsMinor']);
  return {
    snapshotId: id(record.snapshotId, `${at}.snapshotId`),
    takenAtMs: takenAt(record.takenAt, `${at}.takenAt`),
    assets: assets(record.assets, `${at}.assets`),
    leafCount: count(record.leafCount, `${at}.leafCount`, 1, PROOF_MAX_LEAVES),
    rootHash: hex32(record.rootHash, `${at}.rootHash`),
    totalsMinor: amounts(record.totalsMinor, `${at}.totalsMinor`),
  };
}

/** Reads a proof from parsed JSON; anything but exactly the format is 'malformed', with where. */
export function proofFromJson(value: unknown): ProofParse<InclusionProof> {
  return parsing(() => readProof(value, 'proof'));
}

export function publishedFromJson(value: unknown): ProofParse<PublishedSnapshot> {
  return parsing(() => readPublished(value, 'published'));
}

/** Reads a saved proof file from its text. */
export function parseProofFile(text: string): ProofParse<ProofFile> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'malformed', at: 'json' };
  }
  return parsing(() => {
    const record = object(value, 'file', ['format', 'published', 'proof']);
    if (record.format !== PROOF_FILE_FORMAT) throw new Malformed('file.format');
    return { published: readPublished(record.published, 'published'), proof: readProof(record.proof, 'proof') };
  });
}
