// Liquidation (issue 16): 100,000 open positions across nine markets, and one price move that
// crosses 10,000 liquidation prices, settled and reconciled exactly. Keel's side is the production
// trigger engine (`runTriggerPass`: per market one transaction, one indexed query per side for the
// positions the run of ticks crossed, their closes written in batches of 2,000 — entries by one
// ledger_write_batch call, holds, positions, events and exposure by one statement each). The peer
// is the obvious design: the crossed positions found the same way, then one transaction per
// position (lock it, the same close plan, the same writes), 4 concurrent workers on PostgreSQL,
// on the same database with the same rules; its own 10,000 crossed positions are in another
// market, crossed by its own move. Positions are written by a bulk seeder that makes exactly what
// opening one does (a journal entry freezing the margin and paying the fee, the hold, the position
// and its event, the exposure, the market's cursor) — the ledger check runs on the seed before the
// run, so the seed is a state the real code could have made. Afterwards: every crossed position
// liquidated once and no other, each close recomputed from its position and mark price by the
// domain rule, the ledger check clean. Targets: Keel ≤ 2 s on PostgreSQL, ≤ 4 s on PGlite, Keel ≥
// 10× the peer. Writes bench/results/liquidation.json. `npm run bench:liquidation`; never in `npm test`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closeSplit,
  createPrng,
  defaultSimulatedMarkets,
  formatPriceMinor,
  initialMarginMinor,
  MARGIN_ASSET,
  openFillPriceMinor,
  parseAmount,
  parsePriceMinor,
  placeHoldPostings,
  quoteOpen,
  transferPostings,
  mergePostings,
} from '@keel/domain';
import { type Db, openPglite, openPostgres } from '../apps/server/src/persistence/db.ts';
import { checkLedger } from '../apps/server/src/persistence/ledger-check.ts';
import { postEntriesTogether } from '../apps/server/src/persistence/ledger-bulk.store.ts';
import { ensurePlatformAccount, type EntryInput } from '../apps/server/src/persistence/ledger.store.ts';
import { recordTickBatch } from '../apps/server/src/persistence/market-ticks.store.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';
import { applyClosePlans, planClose } from '../apps/server/src/use-cases/leverage/close-positions.ts';
import { leveragePlatformAccounts, shareMarketCursor } from '../apps/server/src/use-cases/leverage/leverage-support.ts';
import { POSITION_COLUMNS, type PositionRow } from '../apps/server/src/use-cases/leverage/position-views.ts';
import { runTriggerPass } from '../apps/server/src/use-cases/leverage/trigger-engine.ts';
import { loadAverage, machineInfo } from './machine.ts';

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 100_000);
const CROSSED = Number(process.env.BENCH_CROSSED ?? 10_000);
const USERS = 2_000;
const PEER_WORKERS = 4;
const POOL_SIZE = 8;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGET_SECONDS = { postgres: 2, pglite: 4 } as const;
const TARGET_RATIO = 10;
const MARKETS = defaultSimulatedMarkets.map((market) => market.symbol);
const KEEL_MARKET = 'BTC/USDT';
const PEER_MARKET = 'ETH/USDT';
const OPEN_PRICE = '100';
/** The move: every market at 100, then the two measured ones gap to 90 (marks 100, 100, 90). */
const CRASH_PRICE = '90';
const START_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
const FUNDING = '60000';

type DbKind = 'pglite' | 'postgres';

async function pool<T>(items: readonly T[], workers: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

interface Seeded {
  id: bigint;
  userIndex: number;
  symbol: string;
  side: 'long' | 'short';
  leverage: number;
  marginMinor: bigint;
  crossing: boolean;
}

/**
 * The positions: in the two measured markets CROSSED longs at 10–50x (liquidation prices 90.5 and
 * up: all crossed by a mark of 90) and the rest shorts; elsewhere longs and shorts at 2–50x.
 */
function plan(): Omit<Seeded, 'id'>[] {
  const prng = createPrng('liquidation-bench');
  const random = () => prng.nextFloat();
  const perMarket = Math.floor(POSITIONS / MARKETS.length);
  const positions: Omit<Seeded, 'id'>[] = [];
  MARKETS.forEach((symbol, marketIndex) => {
    const count = marketIndex === MARKETS.length - 1 ? POSITIONS - perMarket * (MARKETS.length - 1) : perMarket;
    const measured = symbol === KEEL_MARKET || symbol === PEER_MARKET;
    for (let n = 0; n < count; n += 1) {
      const crossing = measured && n < CROSSED;
      const side = crossing ? 'long' : measured ? 'short' : random() < 0.5 ? 'long' : 'short';
      const leverage = crossing ? 10 + Math.floor(random() * 41) : 2 + Math.floor(random() * 49);
      const marginMinor = parseAmount(String(10 + Math.floor(random() * 990)), 6);
      positions.push({ userIndex: positions.length % USERS, symbol, side, leverage, marginMinor, crossing });
    }
  });
  return positions;
}

/** Writes users, funded leveraged accounts, and every position as opening it would. */
async function seed(db: Db): Promise<{ seeded: Seeded[]; openTickIds: Map<string, bigint> }> {
  await migrate(db);
  const users = await db.query<{ id: bigint }>(
    `INSERT INTO users (username, password_hash, invite_code)
     SELECT 'liqbench' || n, 'x', 'LB' || n FROM generate_series(1, $1::int) AS n RETURNING id`,
    [USERS],
  );
  const accounts = await db.query<{ id: bigint; user_id: bigint }>(
    `INSERT INTO ledger_accounts (user_id, kind, asset) SELECT id, 'leveraged', $2 FROM unnest($1::bigint[]) AS u(id) RETURNING id, user_id`,
    [users.map((user) => user.id.toString()), MARGIN_ASSET],
  );
  const accountOf = new Map(accounts.map((account) => [account.user_id, account.id]));
  const treasury = await ensurePlatformAccount(db, 'treasury', MARGIN_ASSET, { allowNegative: true });
  const at = new Date(START_MS);
  await db.transaction((tx) =>
    postEntriesTogether(
      tx,
      users.map((user) => ({ reason: 'demo.fund', postings: transferPostings(treasury, accountOf.get(user.id)!, MARGIN_ASSET, parseAmount(FUNDING, 6)), at })),
    ),
  );
  const openTickIds = new Map<string, bigint>();
  for (let n = 0; n < 3; n += 1) {
    const ticks = await recordTickBatch(db, MARKETS.map((symbol) => ({ symbol, price: OPEN_PRICE, atMs: START_MS - 3_000 + n * 1_000, source: 'bench' })));
    for (const tick of ticks) openTickIds.set(tick.symbol, tick.tickId);
  }
  const { feeAccountId } = await db.transaction((tx) => leveragePlatformAccounts(tx));
  for (const symbol of MARKETS) await db.transaction((tx) => shareMarketCursor(tx, symbol, openTickIds.get(symbol)!));

  const planned = plan();
  const seeded: Seeded[] = [];
  const BATCH = 2_000;
  for (let start = 0; start < planned.length; start += BATCH) {
    const batch = planned.slice(start, start + BATCH);
    await db.transaction(async (tx) => {
      const ids = await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('leverage_positions', 'id')) AS id FROM generate_series(1, $1::int)`, [batch.length]);
      const rows = batch.map((position, index) => {
        const userId = users[position.userIndex]!.id;
        const accountId = accountOf.get(userId)!;
        const tickPrice = parsePriceMinor(OPEN_PRICE);
        const result = quoteOpen({ product: 'futures', side: position.side, marginMinor: position.marginMinor, leverage: position.leverage, fillPriceMinor: openFillPriceMinor(position.side, tickPrice) });
        if (!result.ok) throw new Error(`seed: ${result.problem}`);
        return { ...position, id: ids[index]!.id, userId, accountId, quote: result.quote };
      });
      const entries: EntryInput[] = rows.map((row) => ({
        reason: 'leverage.open',
        referenceType: 'leverage_position',
        referenceId: row.id.toString(),
        postings: mergePostings([...placeHoldPostings(row.accountId, MARGIN_ASSET, row.marginMinor), ...transferPostings(row.accountId, feeAccountId, MARGIN_ASSET, row.quote.feeMinor)]),
        at,
      }));
      const posted = await postEntriesTogether(tx, entries);
      const holds = await tx.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         SELECT a, m, 'leverage_position', r, e, $5 FROM unnest($1::bigint[], $2::numeric[], $3::text[], $4::bigint[]) WITH ORDINALITY AS c(a, m, r, e, n) ORDER BY n RETURNING id`,
        [rows.map((row) => row.accountId.toString()), rows.map((row) => row.marginMinor.toString()), rows.map((row) => row.id.toString()), posted.map((entry) => entry.entryId.toString()), at],
      );
      await tx.query(
        `INSERT INTO leverage_positions (id, position_no, user_id, account_id, product, symbol, side, leverage, entry_price, quantity_minor,
           entry_notional_minor, initial_margin_minor, margin_minor, hold_id, liquidation_price, armed_after_tick_id, opened_at_ms, open_tick_id,
           open_tick_price, open_tick_at_ms, open_tick_source, fees_minor, charged_through_ms)
         OVERRIDING SYSTEM VALUE
         SELECT id, 'B' || id, user_id, account_id, 'futures', symbol, side, leverage, entry_price, quantity, notional, initial_margin, margin, hold_id,
                liquidation_price, tick_id, $14, tick_id, $15, $14, 'bench', fee, $14
         FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::int[], $7::numeric[], $8::numeric[], $9::numeric[],
                     $10::numeric[], $11::numeric[], $12::bigint[], $13::numeric[], $16::bigint[], $17::numeric[])
           AS c(id, user_id, account_id, symbol, side, leverage, entry_price, quantity, notional, initial_margin, margin, hold_id, liquidation_price, tick_id, fee)`,
        [
          rows.map((row) => row.id.toString()),
          rows.map((row) => row.userId.toString()),
          rows.map((row) => row.accountId.toString()),
          rows.map((row) => row.symbol),
          rows.map((row) => row.side),
          rows.map((row) => row.leverage),
          rows.map((row) => formatPriceMinor(row.quote.fillPriceMinor)),
          rows.map((row) => row.quote.quantityMinor.toString()),
          rows.map((row) => row.quote.notionalMinor.toString()),
          rows.map((row) => initialMarginMinor(row.quote.notionalMinor, row.leverage).toString()),
          rows.map((row) => row.marginMinor.toString()),
          holds.map((hold) => hold.id.toString()),
          rows.map((row) => (row.quote.liquidationPriceMinor === null ? null : formatPriceMinor(row.quote.liquidationPriceMinor))),
          START_MS,
          `${OPEN_PRICE}.00000000`,
          rows.map((row) => openTickIds.get(row.symbol)!.toString()),
          rows.map((row) => row.quote.feeMinor.toString()),
        ],
      );
      await tx.query(
        `INSERT INTO leverage_position_events (position_id, kind, at_ms, quantity_minor, price, tick_id, tick_price, tick_at_ms, tick_source, fee_minor, margin_change_minor, entry_id)
         SELECT id, 'open', $1, quantity, price, tick_id, $2, $1, 'bench', fee, margin, entry_id
         FROM unnest($3::bigint[], $4::numeric[], $5::numeric[], $6::bigint[], $7::numeric[], $8::numeric[], $9::bigint[]) AS c(id, quantity, price, tick_id, fee, margin, entry_id)`,
        [
          START_MS,
          `${OPEN_PRICE}.00000000`,
          rows.map((row) => row.id.toString()),
          rows.map((row) => row.quote.quantityMinor.toString()),
          rows.map((row) => formatPriceMinor(row.quote.fillPriceMinor)),
          rows.map((row) => openTickIds.get(row.symbol)!.toString()),
          rows.map((row) => row.quote.feeMinor.toString()),
          rows.map((row) => row.marginMinor.toString()),
          posted.map((entry) => entry.entryId.toString()),
        ],
      );
      seeded.push(...rows.map((row) => ({ id: row.id, userIndex: row.userIndex, symbol: row.symbol, side: row.side, leverage: row.leverage, marginMinor: row.marginMinor, crossing: row.crossing })));
    });
  }
  await db.query(
    `INSERT INTO leverage_exposures (symbol, side, open_notional_minor)
     SELECT symbol, side, sum(entry_notional_minor) FROM leverage_positions WHERE status = 'open' GROUP BY symbol, side`,
  );
  return { seeded, openTickIds };
}

async function crash(db: Db, symbol: string) {
  for (let n = 0; n < 3; n += 1) await recordTickBatch(db, [{ symbol, price: CRASH_PRICE, atMs: START_MS + 10_000 + n * 1_000, source: 'bench' }]);
}

/** The peer: the crossed positions found by the same index, then one transaction per position. */
async function peerLiquidate(db: Db, workers: number): Promise<number> {
  const mark = parsePriceMinor(CRASH_PRICE);
  const [cursor] = await db.query<{ last_tick_id: bigint }>('SELECT last_tick_id FROM leverage_trigger_cursors WHERE symbol = $1', [PEER_MARKET]);
  const ticks = await db.query<{ id: bigint; price: string; observed_at_ms: bigint; source: string }>(
    'SELECT id, price::text AS price, observed_at_ms, source FROM market_ticks WHERE symbol = $1 AND id > $2 ORDER BY id',
    [PEER_MARKET, cursor!.last_tick_id],
  );
  // The third crash tick is the first whose mark (the median of 100, 100, 90, 90, 90) is 90.
  const markTick = ticks[2]!;
  const markTickIds = (await db.query<{ id: bigint }>('SELECT id FROM market_ticks WHERE symbol = $1 AND id <= $2 ORDER BY id DESC LIMIT 5', [PEER_MARKET, markTick.id])).map((row) => row.id).reverse();
  const crossed = await db.query<{ id: bigint }>(
    `SELECT id FROM leverage_positions WHERE symbol = $1 AND side = 'long' AND status = 'open' AND liquidation_price >= $2::numeric ORDER BY id`,
    [PEER_MARKET, formatPriceMinor(mark)],
  );
  let closed = 0;
  await pool(crossed, workers, async ({ id }) => {
    await db.transaction(async (tx) => {
      await shareMarketCursor(tx, PEER_MARKET, 0n);
      const [row] = await tx.query<PositionRow>(`SELECT ${POSITION_COLUMNS} FROM leverage_positions WHERE id = $1 FOR UPDATE`, [id]);
      if (row!.status !== 'open') return;
      const accounts = await leveragePlatformAccounts(tx);
      const plan = planClose({
        row: row!,
        kind: 'liquidation',
        closeQuantityMinor: BigInt(row!.quantity_minor),
        fillPriceMinor: mark,
        tick: { tickId: markTick.id, price: markTick.price, atMs: Number(markTick.observed_at_ms), source: markTick.source },
        markTickIds,
        accounts,
        idempotencyKey: `leverage.trigger:${row!.id}`,
        at: new Date(),
      });
      await applyClosePlans(tx, [plan], Date.now());
      closed += 1;
    });
  });
  await db.query('UPDATE leverage_trigger_cursors SET last_tick_id = $2 WHERE symbol = $1', [PEER_MARKET, ticks.at(-1)!.id]);
  return closed;
}

/** Every crossed position liquidated once, no other; each close recomputed by the domain rule; the ledger check. */
async function reconcile(db: Db, seeded: readonly Seeded[]) {
  const problems: string[] = [];
  const rows = await db.query<{ id: bigint; side: 'long' | 'short'; entry_price: string; status: string; events: number; pnl: string | null; insurance: string | null; payout: string | null; price: string | null; margin: string; quantity: string }>(
    `SELECT p.id, p.side, p.entry_price::text AS entry_price, p.status,
            (SELECT count(*)::int FROM leverage_position_events e WHERE e.position_id = p.id AND e.kind = 'liquidation') AS events,
            l.pnl_minor::text AS pnl, l.insurance_minor::text AS insurance, l.payout_minor::text AS payout, l.price::text AS price,
            o.margin_change_minor::text AS margin, o.quantity_minor::text AS quantity
     FROM leverage_positions p
     JOIN leverage_position_events o ON o.position_id = p.id AND o.kind = 'open'
     LEFT JOIN leverage_position_events l ON l.position_id = p.id AND l.kind = 'liquidation'`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  let liquidated = 0;
  for (const position of seeded) {
    const row = byId.get(position.id);
    if (!row) {
      problems.push(`position ${position.id} missing`);
      continue;
    }
    if (!position.crossing) {
      if (row.status !== 'open' || row.events !== 0) problems.push(`position ${position.id} was not crossed but is ${row.status}`);
      continue;
    }
    if (row.status !== 'liquidated' || row.events !== 1) {
      problems.push(`crossed position ${position.id} is ${row.status} with ${row.events} liquidation events`);
      continue;
    }
    liquidated += 1;
    const split = closeSplit({
      kind: 'liquidation',
      side: row.side,
      quantityMinor: BigInt(row.quantity),
      entryPriceMinor: parsePriceMinor(row.entry_price),
      priceMinor: parsePriceMinor(CRASH_PRICE),
      marginMinor: BigInt(row.margin),
    });
    if (row.price !== `${CRASH_PRICE}.00000000` || BigInt(row.pnl!) !== split.pnlMinor || BigInt(row.insurance!) !== split.insuranceMinor || BigInt(row.payout!) !== split.payoutMinor) {
      problems.push(`position ${position.id}: closed at ${row.price} with ${row.pnl}/${row.insurance}/${row.payout}, the rule says ${split.pnlMinor}/${split.insuranceMinor}/${split.payoutMinor}`);
    }
    if (problems.length > 20) break;
  }
  const check = await checkLedger(db);
  problems.push(...check.problems);
  return { ok: problems.length === 0, liquidated, problems: problems.slice(0, 20) };
}

async function measure(kind: DbKind, db: Db, seeded: readonly Seeded[]) {
  const seedCheck = await checkLedger(db);
  if (!seedCheck.ok) throw new Error(`the seed is not a valid ledger state: ${seedCheck.problems.join('; ')}`);
  // The peer first, on its own market (its move recorded first, so Keel's pass finds it done).
  await crash(db, PEER_MARKET);
  const peerStarted = performance.now();
  const peerClosed = await peerLiquidate(db, kind === 'postgres' ? PEER_WORKERS : 1);
  const peerSeconds = (performance.now() - peerStarted) / 1000;
  await crash(db, KEEL_MARKET);
  // The plan of the engine's query for one side (BENCH_EXPLAIN=1): index ranges, no scan of all positions.
  const plan = process.env.BENCH_EXPLAIN
    ? (
        await db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM leverage_positions
           WHERE symbol = $1 AND side = 'long' AND status = 'open' AND armed_after_tick_id < $2
             AND (liquidation_price >= $3::numeric OR stop_loss_price >= $4::numeric OR take_profit_price <= $5::numeric) ORDER BY id FOR UPDATE`,
          [KEEL_MARKET, '9223372036854775807', `${CRASH_PRICE}.00000000`, `${CRASH_PRICE}.00000000`, `${OPEN_PRICE}.00000000`],
        )
      ).map((row) => row['QUERY PLAN'])
    : undefined;
  if (plan) console.log(`${kind}: the engine's query for one side:\n${plan.join('\n')}`);
  const keelStarted = performance.now();
  const { closed: keelClosed } = await runTriggerPass({ db, now: () => new Date() }, { all: true });
  const keelSeconds = (performance.now() - keelStarted) / 1000;
  const reconciled = await reconcile(db, seeded);
  const result = {
    db: kind,
    positions: seeded.length,
    crossed: CROSSED,
    keel_s: Number(keelSeconds.toFixed(3)),
    peer_s: Number(peerSeconds.toFixed(3)),
    ratio: Number((peerSeconds / keelSeconds).toFixed(1)),
    keelClosed: keelClosed.length,
    ...(plan ? { plan } : {}),
    peerClosed,
    targets: { keelSeconds: TARGET_SECONDS[kind], ratio: TARGET_RATIO },
    met: keelSeconds <= TARGET_SECONDS[kind] && peerSeconds / keelSeconds >= TARGET_RATIO,
    reconciled,
  };
  console.log(
    `${kind}: Keel liquidated ${keelClosed.length} of ${seeded.length} positions in ${result.keel_s} s (target ≤ ${TARGET_SECONDS[kind]} s); ` +
      `peer ${peerClosed} in ${result.peer_s} s; ratio ${result.ratio} (target ≥ ${TARGET_RATIO}): ${result.met ? 'met' : 'MISSED'}; ` +
      `reconciled: ${reconciled.ok ? `exact (${reconciled.liquidated})` : reconciled.problems.join('; ')}`,
  );
  return result;
}

async function onPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-liquidation-'));
  try {
    const setup = await openPglite(join(dir, 'pgdata'));
    const setupStarted = performance.now();
    const { seeded } = await seed(setup);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    await setup.close();
    const db = await openPglite(join(dir, 'pgdata'));
    try {
      return { ...(await measure('pglite', db, seeded)), setupSeconds: Math.round(setupSeconds) };
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const schema = `keel_bench_liquidation_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(POSTGRES_URL, 1);
  try {
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const setup = await openPostgres(POSTGRES_URL, POOL_SIZE, schema);
    const setupStarted = performance.now();
    const { seeded } = await seed(setup);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    await setup.close();
    const db = await openPostgres(POSTGRES_URL, POOL_SIZE, schema);
    try {
      await db.query('ANALYZE');
      const [settings] = await db.query<{ version: string; synchronous_commit: string; fsync: string }>(
        `SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS synchronous_commit, current_setting('fsync') AS fsync`,
      );
      return { ...(await measure('postgres', db, seeded)), setupSeconds: Math.round(setupSeconds), settings };
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
const only = process.env.BENCH_DB as DbKind | undefined;
const pglite = only === 'postgres' ? undefined : await onPglite();
let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
let postgresSkipped: string | undefined;
if (only !== 'pglite') {
  try {
    postgres = await onPostgres();
  } catch (error) {
    postgresSkipped = `PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ':***@')} unavailable: ${String(error)}`;
    console.error(postgresSkipped);
  }
}
const cases = [...(pglite ? [pglite] : []), ...(postgres ? [postgres] : [])];
const results = {
  benchmark: 'liquidation',
  date: new Date().toISOString(),
  machine: machineInfo(loadAtStart, postgres?.settings ?? null),
  settings: {
    positions: POSITIONS,
    crossed: CROSSED,
    users: USERS,
    markets: MARKETS,
    move: `every market at ${OPEN_PRICE}; ${KEEL_MARKET} (Keel) and ${PEER_MARKET} (peer) then gap to ${CRASH_PRICE}: marks 100, 100, 90`,
    keel: 'runTriggerPass over every market: per market one transaction, one indexed query per side, closes in batches of 2,000',
    peer: `the crossed positions by the same index, then one transaction per position (same close plan and writes), ${PEER_WORKERS} workers on PostgreSQL, 1 on PGlite`,
    pgliteStorage: 'on disk (a temporary folder)',
  },
  // The issue's shape, one row per database.
  rows: cases.map(({ db, positions, crossed, keel_s, peer_s, ratio }) => ({ db, positions, crossed, keel_s, peer_s, ratio })),
  cases,
  ...(postgresSkipped ? { postgresSkipped } : {}),
  elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/liquidation.json', import.meta.url), `${JSON.stringify(results, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
console.log(`wrote bench/results/liquidation.json in ${results.elapsedSeconds} s`);
const broken = cases.some((each) => !each.reconciled.ok || each.keelClosed !== CROSSED || each.peerClosed !== CROSSED);
process.exit(broken || postgresSkipped ? 1 : 0);
