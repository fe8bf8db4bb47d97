import {
  DEFAULT_VIP_LEVELS,
  firstTrigger,
  formatPriceMinor,
  MARK_PRICE_TICKS,
  parsePriceMinor,
  type PricedTick,
  priceRange,
  type RecordedPrice,
  vipTermsOf,
  withMarkPrices,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';

/**
 * What a trigger pass needs. The VIP table comes from the configuration; tests and benches that
 * build deps by hand without one get the default table (the one .env.example publishes).
 */
type TriggerDeps = Pick<Deps, 'db' | 'now'> & Partial<Pick<Deps, 'config'>>;
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { applyClosePlans, type ClosePlan, planClose, type UsedTick } from './close-positions.ts';
import { type FilledOrder, fillCrossedOrders } from './limit-orders.ts';
import { leveragePlatformAccounts } from './leverage-support.ts';
import { positionColumns, type PositionRow } from './position-views.ts';

/** Recorded ticks judged per market and pass at most: bounds a pass after a long downtime (the next pass goes on). */
export const TICKS_PER_PASS = 5_000;
/** Positions closed per transaction at most: bounds statement sizes and lock times. */
export const CLOSES_PER_BATCH = 2_000;

export interface TriggeredClose {
  positionId: bigint;
  userId: bigint;
  status: 'closed' | 'liquidated';
}

interface TickRow {
  id: bigint;
  price: string;
  observed_at_ms: bigint;
  source: string;
}

const toRecorded = (row: TickRow): RecordedPrice & { source: string; price: string } => ({
  tickId: row.id,
  priceMinor: parsePriceMinor(row.price),
  atMs: Number(row.observed_at_ms),
  source: row.source,
  price: row.price,
});

/**
 * One engine pass over one market, in ONE transaction (ADR 0034):
 * 1. claim the market's cursor FOR UPDATE SKIP LOCKED — one node works on a market at a time,
 *    the others take other markets; orders and changes wait for the pass (they hold it FOR SHARE);
 * 2. read the ticks recorded after the cursor (and the few before, for the mark price), and each
 *    tick's mark price;
 * 3. fill the pending limit orders the run reached (limit-orders.ts `fillCrossedOrders`, one
 *    indexed query per side), so that the positions they open are judged on the rest of the run;
 * 4. per side, ONE indexed query for the open positions whose liquidation, stop-loss or
 *    take-profit price the run's extremes crossed (no scan of all positions), locked FOR UPDATE in
 *    id order — waiting, not skipping: a position a user is changing is judged on its new state
 *    once the change commits (skipping it would let the cursor pass its trigger);
 * 5. for each, the first tick that fires one of its triggers (packages/domain), and the close at
 *    that tick's price (or the mark, for liquidation), written in batches with their entries;
 * 6. move the cursor to the last tick read.
 * Everything commits together or not at all: a crash before COMMIT leaves the positions open and
 * the cursor where it was, and the next pass (on any node) does the same work again; after COMMIT
 * the positions are closed and each close's journal entry is keyed by the position, so nothing is
 * closed twice.
 */
export async function runTriggerPassForMarket(
  deps: TriggerDeps,
  symbol: string,
): Promise<{ closed: TriggeredClose[]; filled: FilledOrder[]; ticksRead: number } | null> {
  return deps.db.transaction(async (tx) => {
    const [cursor] = await tx.query<{ last_tick_id: bigint }>(
      'SELECT last_tick_id FROM leverage_trigger_cursors WHERE symbol = $1 FOR UPDATE SKIP LOCKED',
      [symbol],
    );
    if (!cursor) return null;
    const ticks = await tx.query<TickRow>(
      'SELECT id, price::text AS price, observed_at_ms, source FROM market_ticks WHERE symbol = $1 AND id > $2 ORDER BY id LIMIT $3',
      [symbol, cursor.last_tick_id, TICKS_PER_PASS],
    );
    if (ticks.length === 0) return { closed: [], filled: [], ticksRead: 0 };
    const earlier = await tx.query<TickRow>(
      'SELECT id, price::text AS price, observed_at_ms, source FROM market_ticks WHERE symbol = $1 AND id <= $2 ORDER BY id DESC LIMIT $3',
      [symbol, cursor.last_tick_id, MARK_PRICE_TICKS - 1],
    );
    const recorded = ticks.map(toRecorded);
    const priced = withMarkPrices(earlier.reverse().map(toRecorded), recorded);
    const lastTickId = recorded.at(-1)!.tickId;
    const tickById = new Map(recorded.map((tick) => [tick.tickId, { tickId: tick.tickId, price: tick.price, atMs: tick.atMs, source: tick.source }]));
    // Limit orders first: a position a tick opens is judged on the rest of the same run.
    const filled = await fillCrossedOrders(tx, symbol, priced, tickById, priceRange(priced), lastTickId, deps.now());
    const closed = await closeTriggered(tx, deps, symbol, priced, tickById, lastTickId);
    await tx.query('UPDATE leverage_trigger_cursors SET last_tick_id = $2 WHERE symbol = $1', [symbol, lastTickId]);
    return { closed, filled, ticksRead: ticks.length };
  });
}

async function closeTriggered(
  tx: Queryable,
  deps: Omit<TriggerDeps, 'db'>,
  symbol: string,
  priced: PricedTick[],
  tickById: ReadonlyMap<bigint, UsedTick>,
  lastTickId: bigint,
): Promise<TriggeredClose[]> {
  const range = priceRange(priced);
  const columns = positionColumns();
  // Both queries compare numeric(38,8) columns with the run's extremes given as exact decimal text
  // (a side without a mark price in the run compares with NULL: no liquidation).
  const exact = (minor: bigint | null) => (minor === null ? null : formatPriceMinor(minor));
  const longs = await tx.query<PositionRow>(
    `SELECT ${columns} FROM leverage_positions
     WHERE symbol = $1 AND side = 'long' AND status = 'open' AND armed_after_tick_id < $2
       AND (liquidation_price >= $3::numeric OR stop_loss_price >= $4::numeric OR take_profit_price <= $5::numeric)
     ORDER BY id FOR UPDATE`,
    [symbol, lastTickId, exact(range.lowMark), exact(range.lowPrice), exact(range.highPrice)],
  );
  const shorts = await tx.query<PositionRow>(
    `SELECT ${columns} FROM leverage_positions
     WHERE symbol = $1 AND side = 'short' AND status = 'open' AND armed_after_tick_id < $2
       AND (liquidation_price <= $3::numeric OR stop_loss_price <= $4::numeric OR take_profit_price >= $5::numeric)
     ORDER BY id FOR UPDATE`,
    [symbol, lastTickId, exact(range.highMark), exact(range.highPrice), exact(range.lowPrice)],
  );
  const candidates = [...longs, ...shorts];
  if (candidates.length === 0) return [];
  const now = deps.now();
  const accounts = await leveragePlatformAccounts(tx);
  // Each owner's VIP level now (ADR 0046): one read for the whole batch.
  const levels = new Map(
    (
      await tx.query<{ user_id: bigint; level: number }>('SELECT user_id, level FROM vip_levels WHERE user_id = ANY($1::bigint[])', [
        [...new Set(candidates.map((row) => row.user_id.toString()))],
      ])
    ).map((row) => [row.user_id.toString(), row.level]),
  );
  const plans: ClosePlan[] = [];
  for (const row of candidates) {
    const event = firstTrigger(
      {
        side: row.side,
        liquidationPriceMinor: row.liquidation_price === null ? null : parsePriceMinor(row.liquidation_price),
        takeProfitPriceMinor: row.take_profit_price === null ? null : parsePriceMinor(row.take_profit_price),
        stopLossPriceMinor: row.stop_loss_price === null ? null : parsePriceMinor(row.stop_loss_price),
        armedAfterTickId: row.armed_after_tick_id,
      },
      priced,
    );
    if (!event) continue;
    const tick = tickById.get(event.tick.tickId)!;
    plans.push(
      planClose({
        row,
        kind: event.kind,
        closeQuantityMinor: toMinor(row.quantity_minor),
        fillPriceMinor: event.fillPriceMinor,
        tick,
        markTickIds: event.kind === 'liquidation' ? event.mark.tickIds : undefined,
        accounts,
        // A position is closed by a trigger at most once: the key makes a second entry impossible.
        idempotencyKey: `leverage.trigger:${row.id}`,
        vip: vipTermsOf(levels.get(row.user_id.toString()) ?? 0, deps.config?.VIP_LEVELS ?? DEFAULT_VIP_LEVELS),
        at: now,
      }),
    );
  }
  for (let start = 0; start < plans.length; start += CLOSES_PER_BATCH) {
    await applyClosePlans(tx, plans.slice(start, start + CLOSES_PER_BATCH), now.getTime());
  }
  return plans.map((plan) => ({ positionId: plan.row.id, userId: plan.row.user_id, status: plan.kind === 'liquidation' ? 'liquidated' : 'closed' }));
}

/**
 * The markets the engine passes over now: those with open positions or pending limit orders, and every market with a cursor
 * when `all` (a slower sweep that moves idle cursors on, so a market's first new position does not
 * start the engine on a long backlog).
 */
async function marketsToJudge(db: Queryable, all: boolean): Promise<string[]> {
  const rows = all
    ? await db.query<{ symbol: string }>('SELECT symbol FROM leverage_trigger_cursors ORDER BY symbol')
    : await db.query<{ symbol: string }>(
        `SELECT c.symbol FROM leverage_trigger_cursors c
         WHERE EXISTS (SELECT 1 FROM leverage_positions p WHERE p.symbol = c.symbol AND p.status = 'open')
            OR EXISTS (SELECT 1 FROM leverage_orders o WHERE o.symbol = c.symbol AND o.status = 'pending') ORDER BY c.symbol`,
      );
  return rows.map((row) => row.symbol);
}

export interface TriggerPassResult {
  closed: TriggeredClose[];
  filled: FilledOrder[];
}

/** One pass over every market that needs one; a market done to its last tick, or busy on another node, is left. */
export async function runTriggerPass(
  deps: TriggerDeps,
  options: { all?: boolean; onCommitted?: (symbol: string, closed: readonly TriggeredClose[], filled: readonly FilledOrder[]) => void } = {},
): Promise<TriggerPassResult> {
  const done: TriggerPassResult = { closed: [], filled: [] };
  for (const symbol of await marketsToJudge(deps.db, options.all ?? false)) {
    for (;;) {
      const result = await runTriggerPassForMarket(deps, symbol);
      if (!result) break;
      done.closed.push(...result.closed);
      done.filled.push(...result.filled);
      if (result.closed.length > 0 || result.filled.length > 0) options.onCommitted?.(symbol, result.closed, result.filled);
      // A full read means a backlog: go on with the same market.
      if (result.ticksRead < TICKS_PER_PASS) break;
    }
  }
  return done;
}

/** Tells each user whose positions closed or whose limit orders filled; after COMMIT, never failing the pass. */
export async function announceTriggered(deps: Pick<Deps, 'events' | 'logger'>, result: TriggerPassResult) {
  await Promise.all([
    ...result.closed.map((each) =>
      publishToUser(deps, each.userId, { kind: 'leverage.position', positionId: each.positionId.toString(), status: each.status }),
    ),
    ...result.filled.map((each) => publishToUser(deps, each.userId, { kind: 'leverage.order', orderId: each.orderId.toString(), status: 'filled' })),
  ]);
}

/** How often the engine sweeps every market, also the idle ones. */
const SWEEP_ALL_EVERY_MS = 10_000;

/**
 * The engine of one node: a pass whenever this node takes in new recorded ticks (`wake`), and every
 * `intervalMs` anyway; passes never overlap (a wake during a pass runs one more after it). Every
 * node may run one: markets are shared with SKIP LOCKED. A failed pass is logged and retried; none
 * of it committed.
 */
export function startTriggerEngine(deps: Deps, intervalMs: number): { wake: () => void; stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let lastSweepMs = 0;
  const pass = async () => {
    try {
      const nowMs = Date.now();
      const all = nowMs - lastSweepMs >= SWEEP_ALL_EVERY_MS;
      if (all) lastSweepMs = nowMs;
      const result = await runTriggerPass(deps, {
        all,
        // Liquidations are worth a line in the log: what closed and filled, per market, once committed.
        onCommitted: (symbol, closed, filled) =>
          deps.logger.info(
            { symbol, closed: closed.length, liquidated: closed.filter((each) => each.status === 'liquidated').length, filled: filled.length },
            'leverage: positions closed by their triggers',
          ),
      });
      if (result.closed.length > 0 || result.filled.length > 0) await announceTriggered(deps, result);
    } catch (error) {
      deps.logger.error({ err: error }, 'leverage: trigger pass failed');
    }
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    running = pass().finally(() => {
      running = null;
      if (stopped) return;
      if (again) {
        again = false;
        run();
      } else {
        timer = setTimeout(run, intervalMs);
      }
    });
  };
  timer = setTimeout(run, 0);
  return {
    wake: run,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
