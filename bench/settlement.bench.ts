// Contract settlement (issue 7): 10,000 orders expiring within the same second, settled from
// recorded ticks. Keel's side is the production settler pass (`settleDueOptionOrders`: up to 1,000
// orders per transaction — claim with SKIP LOCKED, one statement for every closing tick, the
// journal entries of the whole batch posted by one ledger_write_batch call, holds and orders
// updated by one statement each). The peer is the obvious design it replaced: one transaction per
// order (lock the order, find its closing tick, postEntry, close the hold, write the result), run
// by 4 concurrent workers, on the same database, with the same domain rules and the same number
// of orders. Orders are placed through the real use case (`placeOptionOrder`) by 1,000 verified
// users; the peer's orders expire ten minutes after Keel's, so each side settles only its own.
// Afterwards everything is reconciled exactly: every order settled once, each result recomputed
// from the ticks in SQL, the house balance equal to the sum of results, money conserved, the ledger
// check clean. Targets: Keel ≤ 3 s on PostgreSQL, ≤ 5 s on PGlite (on disk). Writes
// bench/results/settlement.json. `npm run bench:settlement`; never part of `npm test`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrng, decideSettlement, OPTIONS_ASSET, parseAmount, parsePriceMinor, settlementPostings, transferPostings } from '@keel/domain';
import { testConfig } from '../apps/server/test/helpers/test-app.ts';
import type { Deps } from '../apps/server/src/deps.ts';
import { type Db, openPglite, openPostgres } from '../apps/server/src/persistence/db.ts';
import { checkLedger } from '../apps/server/src/persistence/ledger-check.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, toMinor } from '../apps/server/src/persistence/ledger.store.ts';
import { recordTickBatch } from '../apps/server/src/persistence/market-ticks.store.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';
import { hashPassword } from '../apps/server/src/security/passwords.ts';
import { OPTION_ORDER_COLUMNS, type OptionOrderRow } from '../apps/server/src/use-cases/options/option-views.ts';
import { acceptOptionsDisclosure, placeOptionOrder } from '../apps/server/src/use-cases/options/place-option-order.ts';
import { RECORDING_LAG_MS, settleDueOptionOrders } from '../apps/server/src/use-cases/options/settle-option-orders.ts';
import { loadAverage, machineInfo } from './machine.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const USERS = 1_000;
const PEER_WORKERS = 4;
const POOL_SIZE = 8;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGET_SECONDS = { postgres: 3, pglite: 5 } as const;
const SYMBOLS = ['BTC/USDT', 'ETH/USDT'] as const;
const OPEN_PRICES = { 'BTC/USDT': '50000', 'ETH/USDT': '3000' } as const;
const CYCLE_SECONDS = 30;
const KEEL_START_MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const PEER_START_MS = KEEL_START_MS + 600_000;
const FUNDING = '100000';
/** Price history recorded before the run, so the closing-tick lookups search a table of realistic size. */
const HISTORY_HOURS = Number(process.env.BENCH_HISTORY_HOURS ?? 2);
const HISTORY_SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT', 'DOGE/USDT', 'ADA/USDT', 'TRX/USDT', 'LTC/USDT'];
const HISTORY_STEP_MS = 150;
const config = testConfig({ OPTIONS_PRODUCTS: `${CYCLE_SECONDS}/80/10/5000` });

type DbKind = 'pglite' | 'postgres';

async function pool<T>(items: readonly T[], workers: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/** Users (verified, disclosure accepted, options account funded) and 2 × ORDERS orders placed through the use case. */
async function setUp(db: Db, workers: number) {
  await migrate(db);
  const passwordHash = await hashPassword('benchpass1');
  const userIds: bigint[] = [];
  for (let start = 0; start < USERS; start += 500) {
    const count = Math.min(500, USERS - start);
    const rows = await db.query<{ id: bigint }>(
      `INSERT INTO users (username, password_hash, invite_code)
       SELECT 'settlebench' || n, $1, 'SB' || n FROM generate_series($2::int, $3::int) AS n RETURNING id`,
      [passwordHash, start, start + count - 1],
    );
    userIds.push(...rows.map((row) => row.id));
  }
  const [upload] = await db.query<{ id: bigint }>(
    `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
     VALUES ($1, 'verification', 'bench/none', 'png', 1, 1, 1, now()) RETURNING id`,
    [userIds[0]],
  );
  await db.query(
    `INSERT INTO verification_submissions (user_id, level, status, fields, front_upload_id, back_upload_id, holding_upload_id, submitted_at, reviewed_at)
     SELECT id, 'identity', 'verified', '{}', $2, $2, $2, now(), now() FROM users WHERE id = ANY($1::bigint[])`,
    [userIds.map(String), upload!.id],
  );
  // Hours of ticks for nine markets every 150 ms before the run (what a node keeps by default is
  // 48 h): the settlement's index probes must not depend on a nearly empty table.
  const historyTicks = Math.floor((HISTORY_HOURS * 3_600_000) / HISTORY_STEP_MS);
  await db.query(
    `INSERT INTO market_ticks (symbol, price, observed_at_ms, source)
     SELECT s.symbol, 100 + (n % 997) / 100.0, $1::bigint + n * $2::bigint, 'bench-history'
     FROM generate_series(0, $3::int - 1) AS n CROSS JOIN unnest($4::text[]) AS s(symbol)
     ORDER BY n`,
    [KEEL_START_MS - historyTicks * HISTORY_STEP_MS, HISTORY_STEP_MS, historyTicks, HISTORY_SYMBOLS],
  );
  const treasury = await ensurePlatformAccount(db, 'treasury', OPTIONS_ASSET, { allowNegative: true });
  const deps = (nowMs: () => number, market: Deps['market']) =>
    ({ db, config, now: () => new Date(nowMs()), logger: console, market, events: undefined }) as unknown as Deps;
  await pool(userIds, workers, async (userId) => {
    await db.transaction(async (tx) => {
      const account = await ensureUserAccount(tx, userId, 'options', OPTIONS_ASSET);
      await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, account, OPTIONS_ASSET, parseAmount(FUNDING, 6)), at: new Date(KEEL_START_MS) });
    });
    await acceptOptionsDisclosure(deps(() => KEEL_START_MS, { latest: () => undefined }), userId, 1);
  });

  const prng = createPrng('settlement-bench');
  const random = () => prng.nextFloat();
  for (const [side, startMs] of [
    ['keel', KEEL_START_MS],
    ['peer', PEER_START_MS],
  ] as const) {
    const opening = await recordTickBatch(
      db,
      SYMBOLS.map((symbol) => ({ symbol, price: OPEN_PRICES[symbol], atMs: startMs, source: 'bench' })),
    );
    const latest = new Map(opening.map((tick) => [tick.symbol, tick]));
    const orders = Array.from({ length: ORDERS }, (_, n) => ({
      userId: userIds[n % USERS]!,
      symbol: SYMBOLS[n % SYMBOLS.length]!,
      direction: random() < 0.5 ? ('up' as const) : ('down' as const),
      amount: `${10 + Math.floor(random() * 90)}.${String(Math.floor(random() * 1_000_000)).padStart(6, '0')}`,
      // Placed across one second, so they expire across the same second.
      placedAtMs: startMs + (n % 1000),
    }));
    await pool(orders, workers, async (order) => {
      const placed = await placeOptionOrder(deps(() => order.placedAtMs, { latest: (symbol) => latest.get(symbol) }), order.userId, {
        symbol: order.symbol,
        direction: order.direction,
        cycleSeconds: CYCLE_SECONDS,
        amount: order.amount,
      });
      if (placed.status !== 'open') throw new Error(`${side}: order not open`);
    });
    // Closing ticks every 100 ms through the expiry second: above, below and at the open price.
    const expiryMs = startMs + CYCLE_SECONDS * 1000;
    const closes = [];
    for (let k = 0; k <= 10; k += 1) {
      for (const symbol of SYMBOLS) {
        const open = parsePriceMinor(OPEN_PRICES[symbol]);
        const offset = [1n, -1n, 0n][k % 3]! * 100_000_000n;
        closes.push({ symbol, price: ((open + offset) / 100_000_000n).toString(), atMs: expiryMs + k * 100, source: 'bench' });
      }
    }
    await recordTickBatch(db, closes);
  }
}

/** The peer: one transaction per order, as a job per order would do it. */
async function settlePeer(db: Db, nowMs: number): Promise<number> {
  const due = await db.query<{ id: bigint }>(`SELECT id FROM option_orders WHERE status = 'open' AND expires_at_ms <= $1 ORDER BY expires_at_ms, id`, [nowMs]);
  const house = await ensurePlatformAccount(db, 'options_house', OPTIONS_ASSET, { allowNegative: true });
  let settled = 0;
  await pool(due, PEER_WORKERS, async ({ id }) => {
    await db.transaction(async (tx) => {
      const [order] = await tx.query<OptionOrderRow>(`SELECT ${OPTION_ORDER_COLUMNS} FROM option_orders WHERE id = $1 AND status = 'open' FOR UPDATE`, [id]);
      if (!order) return;
      const [tick] = await tx.query<{ id: bigint; price: string; observed_at_ms: bigint; source: string }>(
        `SELECT id, price::text AS price, observed_at_ms, source FROM market_ticks
         WHERE symbol = $1 AND observed_at_ms >= $2 AND id > $3 ORDER BY observed_at_ms, id LIMIT 1`,
        [order.symbol, order.expires_at_ms, order.open_tick_id],
      );
      const decision = decideSettlement(
        {
          direction: order.direction,
          stakeMinor: toMinor(order.stake_minor),
          yieldBps: order.yield_bps,
          openPriceMinor: parsePriceMinor(order.open_price),
          expiresAtMs: Number(order.expires_at_ms),
        },
        tick ? { tickId: tick.id, priceMinor: parsePriceMinor(tick.price), atMs: Number(tick.observed_at_ms) } : undefined,
        nowMs,
        { maxCloseDelayMs: config.OPTIONS_CLOSE_TICK_MAX_DELAY_MS, recordingLagMs: RECORDING_LAG_MS },
      );
      if (decision.kind === 'wait') return;
      const { entryId } = await postEntry(tx, {
        reason: 'options.settle',
        referenceType: 'option_order',
        referenceId: order.id.toString(),
        idempotencyKey: `options.settle:${order.id}`,
        memo: decision.status,
        postings: settlementPostings({
          userAccountId: order.account_id,
          houseAccountId: house,
          asset: OPTIONS_ASSET,
          stakeMinor: toMinor(order.stake_minor),
          status: decision.status,
          profitMinor: decision.profitMinor,
        }),
        at: new Date(nowMs),
      });
      await tx.query(`UPDATE ledger_holds SET status = $2, closed_entry_id = $3, closed_at = $4 WHERE id = $1 AND status = 'open'`, [
        order.hold_id,
        decision.status === 'lost' ? 'posted' : 'released',
        entryId,
        new Date(nowMs),
      ]);
      await tx.query(
        `UPDATE option_orders SET status = $2, close_tick_id = $3, close_price = $4, close_tick_at_ms = $5, close_tick_source = $6,
           profit_minor = $7, settle_entry_id = $8, settled_at_ms = $9 WHERE id = $1`,
        [
          order.id,
          decision.status,
          decision.closeTick ? tick!.id : null,
          decision.closeTick ? tick!.price : null,
          decision.closeTick ? tick!.observed_at_ms : null,
          decision.closeTick ? tick!.source : null,
          decision.profitMinor.toString(),
          entryId,
          nowMs,
        ],
      );
      settled += 1;
    });
  });
  return settled;
}

/** Everything checked after both sides ran: the settlement is exact, or the bench fails. */
async function reconcile(db: Db) {
  const problems: string[] = [];
  const [counts] = await db.query<{ total: number; open: number; entries: number; distinct_orders: number }>(
    `SELECT (SELECT count(*) FROM option_orders)::int AS total, (SELECT count(*) FROM option_orders WHERE status = 'open')::int AS open,
            (SELECT count(*) FROM journal_entries WHERE reason = 'options.settle')::int AS entries,
            (SELECT count(DISTINCT reference_id) FROM journal_entries WHERE reason = 'options.settle')::int AS distinct_orders`,
  );
  if (counts!.total !== 2 * ORDERS) problems.push(`${counts!.total} orders, expected ${2 * ORDERS}`);
  if (counts!.open !== 0) problems.push(`${counts!.open} orders still open`);
  if (counts!.entries !== counts!.total || counts!.distinct_orders !== counts!.total) problems.push(`${counts!.entries} settlement entries for ${counts!.distinct_orders} orders`);
  // The recording rule settlement relies on: per market, observed times never go back in id order.
  const [backwards] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT observed_at_ms < lag(observed_at_ms) OVER (PARTITION BY symbol ORDER BY id) AS back FROM market_ticks) t WHERE back`,
  );
  if (backwards!.n !== 0) problems.push(`${backwards!.n} ticks observed before the previous tick of their market`);
  // Each result recomputed from market_ticks by the written rule, in SQL, independently of the code.
  const [mismatch] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM option_orders o
     CROSS JOIN LATERAL (SELECT id, price FROM market_ticks m WHERE m.symbol = o.symbol AND m.observed_at_ms >= o.expires_at_ms AND m.id > o.open_tick_id
                         ORDER BY m.observed_at_ms, m.id LIMIT 1) c
     WHERE o.close_tick_id IS DISTINCT FROM c.id
        OR o.status <> CASE WHEN c.price = o.open_price THEN 'flat'
                            WHEN (c.price > o.open_price) = (o.direction = 'up') THEN 'won' ELSE 'lost' END
        OR o.profit_minor <> CASE WHEN c.price = o.open_price THEN 0
                                  WHEN (c.price > o.open_price) = (o.direction = 'up') THEN floor(o.stake_minor * o.yield_bps / 10000)
                                  ELSE -o.stake_minor END`,
  );
  if (mismatch!.n !== 0) problems.push(`${mismatch!.n} orders whose result differs from the rule recomputed in SQL`);
  const [money] = await db.query<{ users: string; house: string; funded: string }>(
    `SELECT (SELECT sum(available_minor + frozen_minor) FROM ledger_accounts WHERE kind = 'options')::text AS users,
            (SELECT available_minor FROM ledger_accounts WHERE kind = 'options_house')::text AS house,
            (SELECT sum(amount_minor) FROM postings p JOIN journal_entries e ON e.id = p.entry_id WHERE e.reason = 'demo.fund' AND p.amount_minor > 0)::text AS funded`,
  );
  if (toMinor(money!.users) + toMinor(money!.house) !== toMinor(money!.funded)) problems.push(`money not conserved: users ${money!.users} + house ${money!.house} ≠ funded ${money!.funded}`);
  const ledger = await checkLedger(db);
  problems.push(...ledger.problems);
  const byStatus = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM option_orders GROUP BY status ORDER BY status`);
  return { ok: problems.length === 0, problems, byStatus: Object.fromEntries(byStatus.map((row) => [row.status, row.n])), houseBalanceMinor: money!.house };
}

async function measure(kind: DbKind, db: Db) {
  const keelNow = KEEL_START_MS + CYCLE_SECONDS * 1000 + 1_500;
  const started = performance.now();
  let keelSettled = 0;
  let passes = 0;
  for (;;) {
    const settled = await settleDueOptionOrders({ db, config, now: () => new Date(keelNow) });
    if (settled.length === 0) break;
    keelSettled += settled.length;
    passes += 1;
  }
  const keelSeconds = (performance.now() - started) / 1000;
  const peerNow = PEER_START_MS + CYCLE_SECONDS * 1000 + 1_500;
  const peerStarted = performance.now();
  const peerSettled = await settlePeer(db, peerNow);
  const peerSeconds = (performance.now() - peerStarted) / 1000;
  const reconciled = await reconcile(db);
  const result = {
    db: kind,
    orders: ORDERS,
    keel: { seconds: Number(keelSeconds.toFixed(3)), settled: keelSettled, transactions: passes, ordersPerSecond: Math.round(keelSettled / keelSeconds) },
    peer: { seconds: Number(peerSeconds.toFixed(3)), settled: peerSettled, workers: PEER_WORKERS, ordersPerSecond: Math.round(peerSettled / peerSeconds) },
    speedup: Number((peerSeconds / keelSeconds).toFixed(2)),
    targetSeconds: TARGET_SECONDS[kind],
    met: keelSeconds <= TARGET_SECONDS[kind] && keelSettled === ORDERS,
    reconciled,
  };
  console.log(
    `${kind}: Keel settled ${keelSettled} in ${result.keel.seconds} s (${passes} transactions; target ≤ ${TARGET_SECONDS[kind]} s: ${result.met ? 'met' : 'MISSED'}); ` +
      `peer ${peerSettled} in ${result.peer.seconds} s; reconciled: ${reconciled.ok ? 'exact' : reconciled.problems.join('; ')}`,
  );
  return result;
}

async function onPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-settlement-'));
  const setup = await openPglite(join(dir, 'pgdata'));
  const setupStarted = performance.now();
  await setUp(setup, 1);
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  await setup.close();
  // Opened again: the measured session starts with nothing planned or cached in it.
  const db = await openPglite(join(dir, 'pgdata'));
  try {
    return { ...(await measure('pglite', db)), setupSeconds: Math.round(setupSeconds) };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const schema = `keel_bench_settle_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(POSTGRES_URL, 1);
  try {
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const setup = await openPostgres(POSTGRES_URL, POOL_SIZE, schema);
    const setupStarted = performance.now();
    await setUp(setup, POOL_SIZE);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    await setup.close();
    const db = await openPostgres(POSTGRES_URL, POOL_SIZE, schema);
    try {
      await db.query('ANALYZE');
      const [settings] = await db.query<{ version: string; synchronous_commit: string; fsync: string }>(
        `SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS synchronous_commit, current_setting('fsync') AS fsync`,
      );
      return { ...(await measure('postgres', db)), setupSeconds: Math.round(setupSeconds), settings };
    } finally {
      await db.close();
    }
  } finally {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
}

const startedAt = Date.now();
const loadAtStart = loadAverage();
const pglite = await onPglite();
let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
let postgresSkipped: string | undefined;
try {
  postgres = await onPostgres();
} catch (error) {
  postgresSkipped = `PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ':***@')} unavailable: ${String(error)}`;
  console.error(postgresSkipped);
}
const results = {
  benchmark: 'settlement',
  date: new Date().toISOString(),
  machine: machineInfo(loadAtStart, postgres?.settings ?? null),
  settings: {
    orders: ORDERS,
    users: USERS,
    symbols: SYMBOLS,
    cycleSeconds: CYCLE_SECONDS,
    expiries: 'placed across one second, so all expire within the same second; closing ticks every 100 ms through it',
    history: `${HISTORY_HOURS} h of ticks for ${HISTORY_SYMBOLS.length} markets every ${HISTORY_STEP_MS} ms before the run`,
    keel: 'settleDueOptionOrders passes until none is due (1,000 orders per transaction), one settler',
    peer: `one transaction per order (lock, closing tick, postEntry, hold, result), ${PEER_WORKERS} concurrent workers`,
    pgliteStorage: 'on disk (a temporary DATA_DIR)',
  },
  cases: [pglite, ...(postgres ? [postgres] : [])],
  ...(postgresSkipped ? { postgresSkipped } : {}),
  elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/settlement.json', import.meta.url), `${JSON.stringify(results, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
console.log(`wrote bench/results/settlement.json in ${results.elapsedSeconds} s`);
const broken = !pglite.reconciled.ok || (postgres && !postgres.reconciled.ok) || pglite.keel.settled !== ORDERS || (postgres && postgres.keel.settled !== ORDERS);
process.exit(broken || postgresSkipped ? 1 : 0);
