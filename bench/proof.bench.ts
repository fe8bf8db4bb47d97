// Proof of liabilities (issue 22): 100,000 users' snapshot built and published ≤ 10 s on
// PostgreSQL; the proof check in the browser ≤ 50 ms.
//
// Setup (not timed): a fresh schema on PostgreSQL (and a fresh PGlite folder on disk, reported
// separately) with BENCH_USERS users (default 100,000), each holding 1–3 assets (USDT, BTC, ETH) in
// coin accounts, some also a leveraged and a DeFi USDT account, and many with a frozen part (an
// open hold: an order on a coin account, a margin on a leveraged one, a principal on a DeFi one).
// Every balance is made through the ledger's own bulk path (`postEntriesTogether`: a funding entry
// from the asset's treasury per account, then a hold entry and its `ledger_holds` row), and the
// ledger check runs on the seed, so the snapshot's "tree totals = ledger totals" holds.
//
// Timed: from inserting a pending row to the published row committed (`takeLiabilitySnapshot`),
// BENCH_RUNS times (default 3; a new snapshot and new salts each run). The database handle is
// wrapped to time each of the snapshot's statements, which splits a run into BEGIN, claim, reads,
// the work in JavaScript between them (balances map, salts, the tree, checks), the level and leaf
// writes, the publishing UPDATE and COMMIT; `buildMerkleSumTree` is also timed on its own on the
// same leaves. Then `myInclusionProof` for 1,000 random users (the user's fetch), and the check
// the page runs — `parseProofFile` then `verifyInclusionProof` with `webCryptoSha256` — on those
// 1,000 proofs in Node and on 200 of them in Debian's Chromium (playwright-core, /usr/bin/chromium
// or CHROMIUM_PATH), the verifier bundled by esbuild from packages/domain/src/proof/merkle-sum.ts
// and timed inside the page with performance.now() (200 checks in one page, and the first check of
// each of 20 freshly loaded pages: what a user meets), at the machine's speed and with Chromium's
// CPU throttled 4× (Lighthouse's mobile preset).
//
// Peers (floors): for the snapshot, the SHA-256 calls the tree makes — the same number, over
// preimages of the same sizes, with the same node:crypto one-call hash — and nothing else (no
// database, no amounts encoded, no sort); for the check, the same number of Web Crypto digests the
// verifier makes for one proof (depth + 2, each of a parent node's preimage size), awaited one
// after another, and nothing else. Writes bench/results/proof.json. `npm run bench:proof`; never
// part of `npm test`. BENCH_DB=postgres|pglite runs one database only; BENCH_PGLITE_USERS sets
// PGlite's user count (default BENCH_USERS).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AssetSpec,
  buildMerkleSumTree,
  PROOF_SALT_BYTES,
  type ProofFileJson,
  parseProofFile,
  placeHoldPostings,
  proofDepth,
  proofNodeBytes,
  transferPostings,
  verifyInclusionProof,
  webCryptoSha256,
} from '@keel/domain';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Deps } from '../apps/server/src/deps.ts';
import { type Db, openPglite, openPostgres, type Queryable } from '../apps/server/src/persistence/db.ts';
import { checkLedger } from '../apps/server/src/persistence/ledger-check.ts';
import { postEntriesTogether } from '../apps/server/src/persistence/ledger-bulk.store.ts';
import { type EntryInput, ensurePlatformAccount } from '../apps/server/src/persistence/ledger.store.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';
import { myInclusionProof, takeLiabilitySnapshot } from '../apps/server/src/use-cases/proof/liability-snapshots.ts';
import { loadAverage, machineInfo } from './machine.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const PGLITE_USERS = Number(process.env.BENCH_PGLITE_USERS ?? USERS);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FETCHES = 1_000;
const BROWSER_PROOFS = 200;
/** Fresh pages each checking one proof: the check as a user meets it, code not yet warm. */
const COLD_PAGES = 20;
const POOL_SIZE = 4;
/** Entries per setup transaction. */
const SEED_CHUNK = 5_000;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGETS = { snapshotSecondsPostgres: 10, browserCheckMs: 50 } as const;

type DbKind = 'pglite' | 'postgres';

// ---------------------------------------------------------------------------------------------
// Numbers.

/** A small seeded generator (mulberry32): the same users and balances every run of the bench. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sortedOf = (values: readonly number[]) => [...values].sort((a, b) => a - b);
/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const round = (value: number, digits = 2) => Number(value.toFixed(digits));
function summary(values: readonly number[]) {
  const sorted = sortedOf(values);
  return { n: sorted.length, p50: round(percentile(sorted, 50), 3), p99: round(percentile(sorted, 99), 3), max: round(sorted[sorted.length - 1]!, 3) };
}
function minMedMax(values: readonly number[]) {
  const sorted = sortedOf(values);
  return { min: round(sorted[0]!, 3), median: round(percentile(sorted, 50), 3), max: round(sorted[sorted.length - 1]!, 3) };
}

// ---------------------------------------------------------------------------------------------
// The seed.

const ASSET_SCALE: Record<string, number> = { USDT: 6, BTC: 8, ETH: 18 };
/** Whole units a balance lies between (log-uniform): small wallets are common, large ones rare. */
const ASSET_RANGE: Record<string, [number, number]> = { USDT: [1, 250_000], BTC: [0.0001, 5], ETH: [0.001, 60] };
/** How likely a user holds each asset (USDT most, ETH least). */
const ASSET_WEIGHT: Record<string, number> = { USDT: 3, BTC: 1.5, ETH: 1 };

interface PlannedAccount {
  userIndex: number;
  kind: 'coin' | 'leveraged' | 'defi';
  asset: string;
  fundMinor: bigint;
  /** The open hold's amount (0: none). */
  holdMinor: bigint;
}

function minorOf(units: number, asset: string): bigint {
  // Every scale here is ≥ 6: micro-units, then the rest of the scale in zeros.
  return BigInt(Math.max(1, Math.round(units * 1e6))) * 10n ** BigInt(ASSET_SCALE[asset]! - 6);
}

/** Each user's accounts, balances and holds: 1–3 assets (55 % one, 30 % two, 15 % three). */
function planAccounts(users: number): PlannedAccount[] {
  const next = random(22);
  const amount = (asset: string) => {
    const [lo, hi] = ASSET_RANGE[asset]!;
    return minorOf(10 ** (Math.log10(lo) + next() * (Math.log10(hi) - Math.log10(lo))), asset);
  };
  const part = (total: bigint, from: number, to: number) => {
    const ppm = BigInt(Math.round((from + next() * (to - from)) * 1e6));
    const held = (total * ppm) / 1_000_000n;
    return held > 0n ? held : 0n;
  };
  const planned: PlannedAccount[] = [];
  for (let userIndex = 0; userIndex < users; userIndex++) {
    const draw = next();
    const count = draw < 0.55 ? 1 : draw < 0.85 ? 2 : 3;
    const assets = Object.keys(ASSET_WEIGHT)
      .map((asset) => ({ asset, key: next() ** (1 / ASSET_WEIGHT[asset]!) }))
      .sort((a, b) => b.key - a.key)
      .slice(0, count)
      .map((each) => each.asset);
    for (const asset of assets) {
      const fund = amount(asset);
      // An open order on a fifth of the coin accounts: 10–60 % of the balance frozen.
      planned.push({ userIndex, kind: 'coin', asset, fundMinor: fund, holdMinor: next() < 0.2 ? part(fund, 0.1, 0.6) : 0n });
      if (asset === 'USDT' && next() < 0.15) {
        const margin = amount(asset);
        // A leveraged account: most have an open position's margin held.
        planned.push({ userIndex, kind: 'leveraged', asset, fundMinor: margin, holdMinor: next() < 0.6 ? part(margin, 0.2, 0.9) : 0n });
      }
      if (next() < 0.08) {
        const principal = amount(asset);
        // A DeFi (earn) account: most of it is an active subscription's principal.
        planned.push({ userIndex, kind: 'defi', asset, fundMinor: principal, holdMinor: next() < 0.7 ? part(principal, 0.5, 0.95) : 0n });
      }
    }
  }
  return planned;
}

/** Posts entries in transactions of SEED_CHUNK through the production bulk path; `after` runs in the same transaction. */
async function postInChunks<T>(db: Db, items: readonly T[], entryOf: (item: T) => EntryInput, after?: (tx: Queryable, items: readonly T[], entryIds: bigint[]) => Promise<void>) {
  for (let start = 0; start < items.length; start += SEED_CHUNK) {
    const chunk = items.slice(start, start + SEED_CHUNK);
    await db.transaction(async (tx) => {
      const answers = await postEntriesTogether(tx, chunk.map(entryOf));
      await after?.(tx, chunk, answers.map((answer) => answer.entryId));
    });
  }
}

interface Seeded {
  users: number;
  accounts: number;
  holds: number;
  accountsByKind: Record<string, number>;
  usersByAssetCount: Record<string, number>;
  /** What every user holds per asset, available + frozen: what the snapshot must publish. */
  expectedTotalsMinor: Record<string, string>;
  frozenTotalsMinor: Record<string, string>;
  ledgerCheck: { ok: boolean; counts: unknown };
  seconds: number;
}

async function seed(db: Db, users: number): Promise<Seeded> {
  const started = performance.now();
  await migrate(db);
  const at = new Date();
  const rows = await db.query<{ id: bigint }>(
    `INSERT INTO users (username, password_hash, invite_code)
     SELECT 'proofbench' || n, 'x', 'PB' || n FROM generate_series(1, $1::int) AS n ORDER BY n RETURNING id`,
    [users],
  );
  const userIds = rows.map((row) => row.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const planned = planAccounts(users);
  const inserted = await db.query<{ id: bigint; user_id: bigint; kind: string; asset: string }>(
    `INSERT INTO ledger_accounts (user_id, kind, asset)
     SELECT u, k, a FROM unnest($1::bigint[], $2::text[], $3::text[]) AS x (u, k, a) RETURNING id, user_id, kind, asset`,
    [planned.map((each) => userIds[each.userIndex]!.toString()), planned.map((each) => each.kind), planned.map((each) => each.asset)],
  );
  const idOf = new Map(inserted.map((row) => [`${row.user_id}/${row.kind}/${row.asset}`, row.id]));
  const accounts = planned.map((each) => ({ ...each, accountId: idOf.get(`${userIds[each.userIndex]}/${each.kind}/${each.asset}`)! }));
  const treasury: Record<string, bigint> = {};
  for (const asset of Object.keys(ASSET_SCALE)) treasury[asset] = await ensurePlatformAccount(db, 'treasury', asset, { allowNegative: true });
  await postInChunks(db, accounts, (account) => ({
    reason: 'demo.fund',
    postings: transferPostings(treasury[account.asset]!, account.accountId, account.asset, account.fundMinor),
    at,
  }));
  const held = accounts.filter((account) => account.holdMinor > 0n);
  await postInChunks(
    db,
    held,
    (account) => ({
      reason: 'hold.place',
      referenceType: `bench.${account.kind}`,
      referenceId: account.accountId.toString(),
      postings: placeHoldPostings(account.accountId, account.asset, account.holdMinor),
      at,
    }),
    async (tx, chunk, entryIds) => {
      await tx.query(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         SELECT a, m, 'bench.' || k, a::text, e, $5 FROM unnest($1::bigint[], $2::numeric[], $3::text[], $4::bigint[]) AS x (a, m, k, e)`,
        [chunk.map((each) => each.accountId.toString()), chunk.map((each) => each.holdMinor.toString()), chunk.map((each) => each.kind), entryIds.map(String), at],
      );
    },
  );
  if (db.kind === 'postgres') await db.query('ANALYZE');
  const check = await checkLedger(db);
  if (!check.ok) throw new Error(`the seed is not a valid ledger state: ${check.problems.join('; ')}`);

  const expected: Record<string, bigint> = {};
  const frozen: Record<string, bigint> = {};
  const byKind: Record<string, number> = {};
  const assetsOfUser = new Map<number, Set<string>>();
  for (const account of accounts) {
    expected[account.asset] = (expected[account.asset] ?? 0n) + account.fundMinor;
    frozen[account.asset] = (frozen[account.asset] ?? 0n) + account.holdMinor;
    byKind[account.kind] = (byKind[account.kind] ?? 0) + 1;
    const set = assetsOfUser.get(account.userIndex) ?? new Set<string>();
    set.add(account.asset);
    assetsOfUser.set(account.userIndex, set);
  }
  const byAssetCount: Record<string, number> = {};
  for (const set of assetsOfUser.values()) byAssetCount[set.size] = (byAssetCount[set.size] ?? 0) + 1;
  const text = (record: Record<string, bigint>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, value.toString()]));
  return {
    users,
    accounts: accounts.length,
    holds: held.length,
    accountsByKind: byKind,
    usersByAssetCount: byAssetCount,
    expectedTotalsMinor: text(expected),
    frozenTotalsMinor: text(frozen),
    ledgerCheck: { ok: check.ok, counts: check.counts },
    seconds: round((performance.now() - started) / 1000, 1),
  };
}

// ---------------------------------------------------------------------------------------------
// The timed snapshot: the handle times each statement of the snapshot's transaction.

interface Timings {
  statements: { label: string; ms: number }[];
  transactionCalledAt: number;
  workStartedAt: number;
  workEndedAt: number;
  committedAt: number;
}

function statementLabel(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  if (text.startsWith('SET TRANSACTION')) return 'begin';
  if (text.startsWith('SELECT id FROM liability_snapshots')) return 'claim';
  if (text.startsWith('SELECT code, scale FROM ledger_assets')) return 'readAssets';
  if (text.startsWith('SELECT u.id AS user_id')) return 'readBalances';
  if (text.startsWith('SELECT asset, sum(')) return 'readLedgerTotals';
  if (text.startsWith('INSERT INTO liability_snapshot_levels')) return 'writeLevels';
  if (text.startsWith('INSERT INTO liability_snapshot_leaves')) return 'writeLeaves';
  if (text.startsWith('UPDATE liability_snapshots')) return 'publish';
  return 'other';
}

function timedQueryable(target: Queryable, timings: Timings): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly unknown[], options?: { statementName?: string }): Promise<Row[]> {
      const started = performance.now();
      try {
        return await target.query<Row>(sql, params, options);
      } finally {
        timings.statements.push({ label: statementLabel(sql), ms: performance.now() - started });
      }
    },
    exec: (sql) => target.exec(sql),
  };
}

/** The same database, the snapshot's statements, BEGIN and COMMIT timed; nothing else changes. */
function timedDb(db: Db, timings: Timings): Db {
  return {
    kind: db.kind,
    ...timedQueryable(db, timings),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      timings.transactionCalledAt = performance.now();
      const result = await db.transaction(async (tx) => {
        timings.workStartedAt = performance.now();
        const answer = await work(timedQueryable(tx, timings));
        timings.workEndedAt = performance.now();
        return answer;
      });
      timings.committedAt = performance.now();
      return result;
    },
    close: () => db.close(),
  };
}

const quietLogger = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => quietLogger } as unknown as Deps['logger'];

/** The same leaves the snapshot read (its own query, outside any timing), fresh salts: for timing the tree alone. */
async function snapshotInput(db: Db) {
  const assets = (await db.query<{ code: string; scale: number }>('SELECT code, scale FROM ledger_assets ORDER BY code')).map(
    (row): AssetSpec => ({ code: row.code, scale: Number(row.scale) }),
  );
  const column = new Map(assets.map((asset, index) => [asset.code, index]));
  const rows = await db.query<{ user_id: bigint; asset: string | null; total: string | null }>(
    `SELECT u.id AS user_id, a.asset, sum(a.available_minor + a.frozen_minor)::text AS total
       FROM users u LEFT JOIN ledger_accounts a ON a.user_id = u.id GROUP BY u.id, a.asset ORDER BY u.id`,
  );
  const balances = new Map<bigint, bigint[]>();
  for (const row of rows) {
    const vector = balances.get(row.user_id) ?? assets.map(() => 0n);
    balances.set(row.user_id, vector);
    if (row.asset !== null) vector[column.get(row.asset)!] = BigInt(row.total ?? '0');
  }
  return {
    snapshotId: 'bench',
    takenAtMs: Date.now(),
    assets,
    leaves: [...balances].map(([userId, balancesMinor]) => ({ userId: userId.toString(), salt: randomBytes(PROOF_SALT_BYTES), balancesMinor })),
  };
}

const sha256 = (bytes: Uint8Array): Uint8Array => createHash('sha256').update(bytes).digest();

/**
 * The peer: the SHA-256 calls the tree makes and nothing else — one per leaf over a preimage of the
 * leaf's size, one per padding node, one per parent over a parent's preimage size — with the
 * server's hash. The preimages are made before the clock starts.
 */
function hashingFloorMs(input: Awaited<ReturnType<typeof snapshotInput>>): { ms: number; hashes: number } {
  const assetCount = input.assets.length;
  const leafPreimages = input.leaves.map((leaf) => randomBytes(1 + 32 + 32 + 4 + Buffer.byteLength(leaf.userId) + 32 * assetCount));
  const node = randomBytes(1 + 2 * proofNodeBytes(assetCount));
  const padding = randomBytes(1 + 32 + 8);
  let parents = 0;
  let paddings = 0;
  for (let width = input.leaves.length; width > 1; width = Math.ceil(width / 2)) {
    if (width % 2 === 1) paddings++;
    parents += Math.ceil(width / 2);
  }
  const started = performance.now();
  sha256(node); // the context's hash
  for (const preimage of leafPreimages) sha256(preimage);
  for (let i = 0; i < paddings; i++) sha256(padding);
  for (let i = 0; i < parents; i++) sha256(node);
  return { ms: performance.now() - started, hashes: 1 + leafPreimages.length + paddings + parents };
}

async function oneRun(db: Db, run: number) {
  const load = loadAverage();
  const timings: Timings = { statements: [], transactionCalledAt: 0, workStartedAt: 0, workEndedAt: 0, committedAt: 0 };
  const timed = timedDb(db, timings);
  const started = performance.now();
  const [pending] = await db.query<{ id: bigint }>(
    `INSERT INTO liability_snapshots (kind, slot_at, requested_at) VALUES ('scheduled', clock_timestamp(), now()) RETURNING id`,
  );
  const pendingInsertedAt = performance.now();
  const published = await takeLiabilitySnapshot({ db: timed, now: () => new Date(), logger: quietLogger });
  const totalMs = performance.now() - started;
  if (published !== pending!.id) throw new Error(`run ${run}: published ${published}, expected ${pending!.id}`);

  const sumOf = (label: string) => timings.statements.filter((each) => each.label === label).reduce((sum, each) => sum + each.ms, 0);
  const inWork = timings.statements.reduce((sum, each) => sum + each.ms, 0);
  const split = {
    insertPendingMs: pendingInsertedAt - started,
    beginMs: timings.workStartedAt - timings.transactionCalledAt + sumOf('begin'),
    claimMs: sumOf('claim'),
    readMs: sumOf('readAssets') + sumOf('readBalances') + sumOf('readLedgerTotals'),
    readBalancesMs: sumOf('readBalances'),
    javascriptMs: timings.workEndedAt - timings.workStartedAt - inWork,
    writeLevelsMs: sumOf('writeLevels'),
    writeLeavesMs: sumOf('writeLeaves'),
    publishMs: sumOf('publish'),
    commitMs: timings.committedAt - timings.workEndedAt,
    otherMs: sumOf('other'),
  };

  // Not timed with the run: the same leaves, the tree alone, then the hashing floor.
  const input = await snapshotInput(db);
  const treeStarted = performance.now();
  const tree = buildMerkleSumTree(input, sha256);
  const treeBuildMs = performance.now() - treeStarted;
  const floor = hashingFloorMs(input);
  const [row] = await db.query<{ leaf_count: number; totals: unknown; ledger: unknown; level_bytes: string }>(
    `SELECT s.leaf_count, s.totals_minor AS totals, s.ledger_totals_minor AS ledger,
            (SELECT sum(length(nodes)) FROM liability_snapshot_levels WHERE snapshot_id = s.id)::text AS level_bytes
       FROM liability_snapshots s WHERE s.id = $1 AND s.status = 'published'`,
    [published],
  );
  const result = {
    run,
    snapshotId: published!.toString(),
    loadAverage: load,
    totalMs: round(totalMs, 1),
    split: Object.fromEntries(Object.entries(split).map(([key, value]) => [key, round(value, 1)])),
    treeBuildMs: round(treeBuildMs, 1),
    treeLevels: tree.levels.length,
    peerHashingFloorMs: round(floor.ms, 1),
    hashes: floor.hashes,
    leafCount: row!.leaf_count,
    levelBytes: Number(row!.level_bytes),
    totalsMinor: typeof row!.totals === 'string' ? JSON.parse(row!.totals) : row!.totals,
    ledgerTotalsMinor: typeof row!.ledger === 'string' ? JSON.parse(row!.ledger) : row!.ledger,
  };
  console.log(
    `  run ${run}: ${(totalMs / 1000).toFixed(2)} s (load ${load.join(' ')}): read ${split.readMs.toFixed(0)} ms, JS ${split.javascriptMs.toFixed(0)} ms ` +
      `(tree alone ${treeBuildMs.toFixed(0)} ms, hashing floor ${floor.ms.toFixed(0)} ms), levels ${split.writeLevelsMs.toFixed(0)} ms, ` +
      `leaves ${split.writeLeavesMs.toFixed(0)} ms, commit ${split.commitMs.toFixed(0)} ms`,
  );
  return result;
}

/** The user's fetch: `myInclusionProof` for FETCHES random users of the snapshot, one after another. */
async function fetchProofs(db: Db, snapshotId: string) {
  const picked = await db.query<{ user_id: bigint }>('SELECT user_id FROM liability_snapshot_leaves WHERE snapshot_id = $1 ORDER BY random() LIMIT $2', [
    snapshotId,
    FETCHES,
  ]);
  const files: ProofFileJson[] = [];
  const ms: number[] = [];
  for (const { user_id } of picked) {
    const started = performance.now();
    files.push(await myInclusionProof(db, user_id, BigInt(snapshotId)));
    ms.push(performance.now() - started);
  }
  return { files, fetch: summary(ms) };
}

async function measureDb(kind: DbKind, db: Db, users: number) {
  const seeded = await seed(db, users);
  console.log(
    `${kind}: seeded ${seeded.users} users, ${seeded.accounts} accounts (${JSON.stringify(seeded.accountsByKind)}), ${seeded.holds} open holds in ${seeded.seconds} s; ledger check clean`,
  );
  const runs = [];
  for (let run = 1; run <= RUNS; run++) runs.push(await oneRun(db, run));
  const problems: string[] = [];
  for (const run of runs) {
    if (run.leafCount !== users) problems.push(`run ${run.run}: ${run.leafCount} leaves, expected ${users}`);
    const expected = ['BTC', 'ETH', 'USDT'].map((asset) => seeded.expectedTotalsMinor[asset] ?? '0');
    if (JSON.stringify(run.totalsMinor) !== JSON.stringify(expected)) problems.push(`run ${run.run}: totals ${JSON.stringify(run.totalsMinor)}, expected ${JSON.stringify(expected)}`);
  }
  const after = await checkLedger(db);
  problems.push(...after.problems);
  const last = runs[runs.length - 1]!;
  const fetchLoad = loadAverage();
  const { files, fetch } = await fetchProofs(db, last.snapshotId);
  console.log(`  myInclusionProof × ${fetch.n}: p50 ${fetch.p50} ms, p99 ${fetch.p99} ms (load ${fetchLoad.join(' ')})`);
  const totals = minMedMax(runs.map((run) => run.totalMs / 1000));
  return {
    summary: {
      db: kind,
      users,
      snapshotSeconds: totals,
      proofFetchMs: fetch,
      target: kind === 'postgres' ? TARGETS.snapshotSecondsPostgres : null,
      met: kind === 'postgres' ? totals.max <= TARGETS.snapshotSecondsPostgres : null,
    },
    detail: { seed: seeded, runs, proofFetch: { ...fetch, loadAverage: fetchLoad }, checks: { ok: problems.length === 0, problems: problems.slice(0, 20) } },
    files,
  };
}

// ---------------------------------------------------------------------------------------------
// The check a user's page runs.

/** In Node: the page's two calls on each file, timed; and the Web Crypto floor (the same number of digests, nothing else). */
async function verifyInNode(files: readonly ProofFileJson[]) {
  const texts = files.map((file) => JSON.stringify(file));
  const totalMs: number[] = [];
  const verifyMs: number[] = [];
  const floorMs: number[] = [];
  const failures: string[] = [];
  for (const text of texts) {
    const started = performance.now();
    const parsed = parseProofFile(text);
    const parsedAt = performance.now();
    if (!parsed.ok) {
      failures.push(`malformed at ${parsed.at}`);
      continue;
    }
    const verified = await verifyInclusionProof(parsed.value.proof, parsed.value.published, webCryptoSha256);
    const done = performance.now();
    if (!verified.ok) failures.push(verified.problem);
    totalMs.push(done - started);
    verifyMs.push(done - parsedAt);
  }
  const assetCount = files[0]!.published.assets.length;
  const digests = proofDepth(files[0]!.published.leafCount) + 2;
  const preimage = new Uint8Array(1 + 2 * proofNodeBytes(assetCount));
  for (let i = 0; i < texts.length; i++) {
    const started = performance.now();
    for (let k = 0; k < digests; k++) await webCryptoSha256(preimage);
    floorMs.push(performance.now() - started);
  }
  return {
    proofs: texts.length,
    ok: failures.length === 0,
    failures: failures.slice(0, 5),
    firstMs: round(totalMs[0] ?? Number.NaN, 3),
    parseAndVerifyMs: summary(totalMs),
    verifyMs: summary(verifyMs),
    peerDigestsOnlyMs: { digests, ...summary(floorMs) },
    proofFileBytes: summary(texts.map((text) => text.length)),
  };
}

// Plain JavaScript run in the page (a string, so no build step rewrites it): the page's two calls per file.
const PAGE_SCRIPT = `
window.measureProofs = async (texts) => {
  const { parseProofFile, verifyInclusionProof, webCryptoSha256 } = window.KeelProof;
  const rows = [];
  for (const text of texts) {
    const started = performance.now();
    const parsed = parseProofFile(text);
    const parsedAt = performance.now();
    if (!parsed.ok) { rows.push({ ok: false, problem: 'malformed at ' + parsed.at }); continue; }
    const verified = await verifyInclusionProof(parsed.value.proof, parsed.value.published, webCryptoSha256);
    const done = performance.now();
    rows.push({ ok: verified.ok, problem: verified.ok ? null : verified.problem, totalMs: done - started, verifyMs: done - parsedAt });
  }
  return rows;
};
window.measureFloor = async (times, digests, size) => {
  const preimage = new Uint8Array(size);
  const rows = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    for (let k = 0; k < digests; k++) await crypto.subtle.digest('SHA-256', new Uint8Array(preimage));
    rows.push(performance.now() - started);
  }
  return rows;
};
`;

interface CheckRow {
  ok: boolean;
  problem: string | null;
  totalMs: number;
  verifyMs: number;
}

/** In Debian's Chromium: the verifier bundled, served from 127.0.0.1 (a secure context: Web Crypto), BROWSER_PROOFS files checked in the page. */
async function verifyInBrowser(files: readonly ProofFileJson[]) {
  const bundled = await build({
    entryPoints: [new URL('../packages/domain/src/proof/merkle-sum.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    globalName: 'KeelProof',
    target: 'es2022',
    minify: true,
    write: false,
  });
  const bundle = bundled.outputFiles[0]!.text;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>proof check</title></head><body><script>${bundle}</script><script>${PAGE_SCRIPT}</script></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  const texts = files.slice(0, BROWSER_PROOFS).map((file) => JSON.stringify(file));
  const digests = proofDepth(files[0]!.published.leafCount) + 2;
  const preimageSize = 1 + 2 * proofNodeBytes(files[0]!.published.assets.length);
  try {
    const cases = [];
    for (const cpuSlowdown of [1, 4]) {
      // A fresh page each time: its first check is a cold one, as on a user's visit.
      const page = await browser.newPage();
      await page.goto(url);
      if (cpuSlowdown !== 1) {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      }
      const load = loadAverage();
      const rows = (await page.evaluate(`window.measureProofs(${JSON.stringify(texts)})`)) as CheckRow[];
      const floor = (await page.evaluate(`window.measureFloor(${texts.length}, ${digests}, ${preimageSize})`)) as number[];
      await page.close();
      // What a user meets: a page just loaded checks one proof (cold code), COLD_PAGES times.
      const cold: CheckRow[] = [];
      for (let i = 0; i < COLD_PAGES; i++) {
        const fresh = await browser.newPage();
        await fresh.goto(url);
        if (cpuSlowdown !== 1) await (await fresh.context().newCDPSession(fresh)).send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
        cold.push(...((await fresh.evaluate(`window.measureProofs(${JSON.stringify([texts[texts.length - 1 - i]])})`)) as CheckRow[]));
        await fresh.close();
      }
      const version = browser.version();
      const failures = [...rows, ...cold].filter((row) => !row.ok).map((row) => row.problem);
      const total = summary(rows.filter((row) => row.ok).map((row) => row.totalMs));
      const coldTotal = summary(cold.filter((row) => row.ok).map((row) => row.totalMs));
      cases.push({
        cpuSlowdown,
        chromium: version,
        loadAverage: load,
        proofs: rows.length,
        ok: failures.length === 0,
        failures: failures.slice(0, 5),
        firstMs: round(rows[0]?.totalMs ?? Number.NaN, 3),
        parseAndVerifyMs: total,
        verifyMs: summary(rows.filter((row) => row.ok).map((row) => row.verifyMs)),
        coldPageMs: coldTotal,
        peerDigestsOnlyMs: { digests, ...summary(floor) },
        target: TARGETS.browserCheckMs,
        // Met when every cold check (a fresh page's first) and the p99 of the checks in one page are within it.
        met: failures.length === 0 && total.p99 <= TARGETS.browserCheckMs && coldTotal.max <= TARGETS.browserCheckMs,
      });
      console.log(
        `  Chromium${cpuSlowdown === 1 ? '' : ` (CPU ${cpuSlowdown}× slower)`}: ${rows.length} checks in one page, p50 ${total.p50} ms, p99 ${total.p99} ms; ` +
          `${cold.length} fresh pages' first check p50 ${coldTotal.p50} ms, max ${coldTotal.max} ms; ${digests} bare digests p50 ${summary(floor).p50} ms (load ${load.join(' ')})`,
      );
    }
    return { bundleBytes: bundle.length, cases };
  } finally {
    await browser.close();
    server.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function onPostgres() {
  const schema = `keel_bench_proof_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(POSTGRES_URL, 1);
  try {
    const [settings] = await admin.query<{ version: string; synchronous_commit: string; fsync: string; shared_buffers: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS synchronous_commit,
              current_setting('fsync') AS fsync, current_setting('shared_buffers') AS shared_buffers`,
    );
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const db = await openPostgres(POSTGRES_URL, POOL_SIZE, schema);
    try {
      return { ...(await measureDb('postgres', db, USERS)), settings };
    } finally {
      await db.close();
    }
  } finally {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
}

async function onPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-proof-'));
  try {
    const db = await openPglite(join(dir, 'keel'));
    try {
      return await measureDb('pglite', db, PGLITE_USERS);
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const startedAt = Date.now();
const loadAtStart = loadAverage();
const only = process.env.BENCH_DB as DbKind | undefined;
let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
let postgresSkipped: string | undefined;
if (only !== 'pglite') {
  try {
    postgres = await onPostgres();
  } catch (error) {
    postgresSkipped = `PostgreSQL run failed: ${String(error)}`;
    console.error(postgresSkipped);
  }
}
let pglite: Awaited<ReturnType<typeof onPglite>> | undefined;
if (only !== 'postgres') pglite = await onPglite();

// The check runs on the proofs of the 100,000-user snapshot (PostgreSQL's; PGlite's if only it ran).
const files = (postgres ?? pglite)?.files ?? [];
let node: Awaited<ReturnType<typeof verifyInNode>> | undefined;
let browser: Awaited<ReturnType<typeof verifyInBrowser>> | undefined;
let browserSkipped: string | undefined;
if (files.length > 0) {
  node = await verifyInNode(files);
  console.log(
    `  Node, Web Crypto: ${node.proofs} checks, first ${node.firstMs} ms, p50 ${node.parseAndVerifyMs.p50} ms, p99 ${node.parseAndVerifyMs.p99} ms; ` +
      `${node.peerDigestsOnlyMs.digests} bare digests p50 ${node.peerDigestsOnlyMs.p50} ms`,
  );
  try {
    browser = await verifyInBrowser(files);
  } catch (error) {
    browserSkipped = `Chromium at ${CHROMIUM_PATH}: ${String(error)}`;
    console.error(browserSkipped);
  }
}

const dbs = [postgres, pglite].filter((each) => each !== undefined);
const browserAtSpeed = browser?.cases.find((each) => each.cpuSlowdown === 1);
const results = {
  benchmark: 'proof',
  date: new Date().toISOString(),
  machine: machineInfo(loadAtStart, postgres?.settings ?? null),
  settings: {
    users: { postgres: USERS, pglite: PGLITE_USERS },
    runs: RUNS,
    fetches: FETCHES,
    browserProofs: BROWSER_PROOFS,
    seed: '1–3 assets per user (USDT, BTC, ETH) in coin accounts, some also leveraged and DeFi USDT accounts; open holds on a fifth of coin accounts, most leveraged and DeFi ones; every balance posted through postEntriesTogether, the ledger check clean',
    timed: "from INSERT of a pending liability_snapshots row to takeLiabilitySnapshot's COMMIT; split by timing each statement of its transaction",
    peers: {
      snapshot: 'hashing floor: the same number of SHA-256 calls (node:crypto, one call each) over preimages of the same sizes as the tree, nothing else',
      check: 'Web Crypto floor: depth + 2 digests of a parent preimage, awaited one after another, nothing else',
    },
    databases: 'PostgreSQL: a fresh schema, ANALYZEd after the seed, pool of 4; PGlite: a fresh folder on disk',
  },
  targets: {
    snapshotSecondsPostgres: TARGETS.snapshotSecondsPostgres,
    browserCheckMs: TARGETS.browserCheckMs,
    metSnapshot: postgres ? postgres.summary.met : null,
    metBrowserCheck: browserAtSpeed ? browserAtSpeed.met : null,
    metBrowserCheckAtCpu4x: browser?.cases.find((each) => each.cpuSlowdown === 4)?.met ?? null,
  },
  rows: dbs.map((each) => each.summary),
  check: { node, browser, ...(browserSkipped ? { browserSkipped } : {}) },
  details: Object.fromEntries(dbs.map((each) => [each.summary.db, each.detail])),
  ...(postgresSkipped ? { postgresSkipped } : {}),
  elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/proof.json', import.meta.url), `${JSON.stringify(results, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);

console.log('\n| db | users | snapshot s (min / median / max) | target | proof fetch p50 / p99 ms |');
console.log('|---|---|---|---|---|');
for (const each of dbs) {
  const s = each.summary;
  const target = s.db === 'postgres' ? `≤ ${TARGETS.snapshotSecondsPostgres} s: ${s.met ? 'met' : 'MISSED'}` : '—';
  console.log(`| ${s.db} | ${s.users} | ${s.snapshotSeconds.min} / ${s.snapshotSeconds.median} / ${s.snapshotSeconds.max} | ${target} | ${s.proofFetchMs.p50} / ${s.proofFetchMs.p99} |`);
}
console.log('\n| check (parse + verify) | proofs | p50 ms | p99 ms | fresh page p50 / max ms | bare digests p50 ms | ≤ 50 ms |');
console.log('|---|---|---|---|---|---|---|');
if (node) console.log(`| Node, Web Crypto | ${node.proofs} | ${node.parseAndVerifyMs.p50} | ${node.parseAndVerifyMs.p99} | first ${node.firstMs} | ${node.peerDigestsOnlyMs.p50} | — |`);
for (const each of browser?.cases ?? []) {
  console.log(
    `| Chromium${each.cpuSlowdown === 1 ? '' : `, CPU ${each.cpuSlowdown}× slower`} | ${each.proofs} | ${each.parseAndVerifyMs.p50} | ${each.parseAndVerifyMs.p99} | ${each.coldPageMs.p50} / ${each.coldPageMs.max} | ${each.peerDigestsOnlyMs.p50} | ${each.met ? 'met' : 'MISSED'} |`,
  );
}
console.log(`\nwrote bench/results/proof.json in ${results.elapsedSeconds} s`);
const broken = dbs.some((each) => !each.detail.checks.ok) || (node !== undefined && !node.ok) || (browser?.cases.some((each) => !each.ok) ?? false);
if (broken) console.error(`checks failed: ${JSON.stringify(dbs.map((each) => each.detail.checks.problems))}`);
process.exit(broken || postgresSkipped ? 1 : 0);
