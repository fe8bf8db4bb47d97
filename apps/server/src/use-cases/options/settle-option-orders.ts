import {
  decideSettlement,
  OPTIONS_ASSET,
  type OptionSettledStatus,
  parsePriceMinor,
  type SettlementTick,
  settlementPostings,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { postEntriesTogether } from '../../persistence/ledger-bulk.store.ts';
import { ensurePlatformAccount, type EntryInput, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { type OptionOrderRow, optionOrderColumns } from './option-views.ts';

/** Orders settled per transaction at most: bounds statement sizes and how long the locks are held. */
export const SETTLE_BATCH_SIZE = 1_000;

/**
 * How long after the close-tick deadline the settler still waits for a tick before voiding: ticks
 * are buffered for a fraction of a second before they are recorded, so a minute is ample.
 */
export const RECORDING_LAG_MS = 60_000;

export interface SettledOrder {
  orderId: bigint;
  userId: bigint;
  status: OptionSettledStatus;
}

/** A due order with its closing tick, when one is recorded (c_*: null otherwise). */
interface DueOrderRow extends OptionOrderRow {
  c_id: bigint | null;
  c_price: string | null;
  c_observed_at_ms: bigint | null;
  c_source: string | null;
}

/**
 * Settles up to `limit` open orders whose expiry has passed, in ONE transaction: claim them with
 * FOR UPDATE SKIP LOCKED (any number of settlers on any number of nodes share the work and never
 * take the same order), find their closing ticks, decide each (packages/domain options rules),
 * post one journal entry per order between the user's options account and the options house
 * account (keyed `options.settle:{id}`), close the stake holds and write the results. The entries
 * and the results commit together or not at all, which is what makes settlement exactly-once: a
 * crash before COMMIT leaves the orders open for the next pass, after COMMIT they are no longer
 * open. Orders whose closing tick is not recorded yet stay open. Returns what it settled.
 */
export async function settleDueOptionOrders(deps: Pick<Deps, 'db' | 'now' | 'config'>, limit = SETTLE_BATCH_SIZE): Promise<SettledOrder[]> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const nowMs = now.getTime();
    const limits = { maxCloseDelayMs: deps.config.OPTIONS_CLOSE_TICK_MAX_DELAY_MS, recordingLagMs: RECORDING_LAG_MS };
    // Claims due orders with their closing tick: the first tick recorded after the opening tick
    // whose observed time is at or after expiry. A market's observed times never go back in
    // recording order (market-ticks.store.ts leaves stale ticks out) and ids follow commit order,
    // so that is the tick with the lowest (observed time, id) at or after expiry — one probe of
    // the (symbol, observed_at_ms, id) index — and once it exists no later tick can come before
    // it: the answer never changes. Only orders that can be settled now are claimed (a closing
    // tick is recorded, or the wait for one is over), so a stalled market cannot fill the batch.
    const due = await tx.query<DueOrderRow>(
      `SELECT ${optionOrderColumns('o')},
              c.id AS c_id, c.price::text AS c_price, c.observed_at_ms AS c_observed_at_ms, c.source AS c_source
       FROM option_orders o
       LEFT JOIN LATERAL (
         SELECT m.id, m.price, m.observed_at_ms, m.source FROM market_ticks m
         WHERE m.symbol = o.symbol AND m.observed_at_ms >= o.expires_at_ms AND m.id > o.open_tick_id
         ORDER BY m.observed_at_ms, m.id LIMIT 1
       ) c ON true
       WHERE o.status = 'open' AND o.expires_at_ms <= $1 AND (o.expires_at_ms <= $3 OR c.id IS NOT NULL)
       ORDER BY o.expires_at_ms, o.id LIMIT $2 FOR UPDATE OF o SKIP LOCKED`,
      [nowMs, limit, nowMs - limits.maxCloseDelayMs - limits.recordingLagMs],
    );
    if (due.length === 0) return [];
    const houseAccountId = await ensurePlatformAccount(tx, 'options_house', OPTIONS_ASSET, { allowNegative: true });

    const decided: { order: OptionOrderRow; status: OptionSettledStatus; closeTick: (SettlementTick & { price: string; source: string }) | null; profitMinor: bigint }[] = [];
    for (const order of due) {
      const closeTick =
        order.c_id === null ? undefined : { tickId: order.c_id, priceMinor: parsePriceMinor(order.c_price!), atMs: Number(order.c_observed_at_ms) };
      const decision = decideSettlement(
        {
          direction: order.direction,
          stakeMinor: toMinor(order.stake_minor),
          yieldBps: order.yield_bps,
          openPriceMinor: parsePriceMinor(order.open_price),
          expiresAtMs: Number(order.expires_at_ms),
        },
        closeTick,
        nowMs,
        limits,
      );
      if (decision.kind === 'wait') continue;
      decided.push({
        order,
        status: decision.status,
        closeTick: decision.closeTick ? { ...decision.closeTick, price: order.c_price!, source: order.c_source! } : null,
        profitMinor: decision.profitMinor,
      });
    }
    if (decided.length === 0) return [];

    const entries: EntryInput[] = decided.map(({ order, status, profitMinor }) => ({
      reason: 'options.settle',
      referenceType: 'option_order',
      referenceId: order.id.toString(),
      idempotencyKey: `options.settle:${order.id}`,
      memo: status,
      postings: settlementPostings({
        userAccountId: order.account_id,
        houseAccountId,
        asset: OPTIONS_ASSET,
        stakeMinor: toMinor(order.stake_minor),
        status,
        profitMinor,
      }),
      at: now,
    }));
    const posted = await postEntriesTogether(tx, entries);
    // An entry already in the journal for an order still open would mean a settlement committed
    // without its status change: impossible by construction, so it stops the batch rather than
    // being papered over.
    if (posted.some((entry) => entry.replayed)) throw new Error('an open option order already has a settlement entry');

    const closedHolds = await tx.query(
      `UPDATE ledger_holds h SET status = c.status, closed_entry_id = c.entry_id, closed_at = $4
       FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS c(hold_id, status, entry_id)
       WHERE h.id = c.hold_id AND h.status = 'open' RETURNING h.id`,
      [
        decided.map(({ order }) => order.hold_id.toString()),
        decided.map(({ status }) => (status === 'lost' ? 'posted' : 'released')),
        posted.map((entry) => entry.entryId.toString()),
        now,
      ],
    );
    if (closedHolds.length !== decided.length) throw new Error(`closed ${closedHolds.length} stake holds for ${decided.length} orders`);

    await tx.query(
      `UPDATE option_orders o SET status = s.status, close_tick_id = s.close_tick_id, close_price = s.close_price,
         close_tick_at_ms = s.close_tick_at_ms, close_tick_source = s.close_tick_source, profit_minor = s.profit_minor,
         settle_entry_id = s.entry_id, settled_at_ms = $9
       FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::numeric[], $5::bigint[], $6::text[], $7::numeric[], $8::bigint[])
         AS s(id, status, close_tick_id, close_price, close_tick_at_ms, close_tick_source, profit_minor, entry_id)
       WHERE o.id = s.id AND o.status = 'open'`,
      [
        decided.map(({ order }) => order.id.toString()),
        decided.map(({ status }) => status),
        decided.map(({ closeTick }) => closeTick?.tickId.toString() ?? null),
        decided.map(({ closeTick }) => closeTick?.price ?? null),
        decided.map(({ closeTick }) => (closeTick ? String(closeTick.atMs) : null)),
        decided.map(({ closeTick }) => closeTick?.source ?? null),
        decided.map(({ profitMinor }) => profitMinor.toString()),
        posted.map((entry) => entry.entryId.toString()),
        nowMs,
      ],
    );
    return decided.map(({ order, status }) => ({ orderId: order.id, userId: order.user_id, status }));
  });
}

/** Tells each user whose orders settled; after COMMIT, never failing the settlement. */
export async function announceSettled(deps: Pick<Deps, 'events' | 'logger'>, settled: readonly SettledOrder[]) {
  await Promise.all(settled.map((order) => publishToUser(deps, order.userId, { kind: 'options.order', orderId: order.orderId.toString(), status: order.status })));
}

/**
 * The settler of one node: every `intervalMs`, settles due orders batch after batch until a batch
 * comes back short, then announces them. Every node may run one (SKIP LOCKED). A failed pass is
 * logged and retried on the next tick; nothing of it committed.
 */
export function startOptionsSettler(deps: Deps, intervalMs: number): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      for (;;) {
        const settled = await settleDueOptionOrders(deps);
        if (settled.length > 0) await announceSettled(deps, settled);
        if (settled.length < SETTLE_BATCH_SIZE || stopped) break;
      }
    } catch (error) {
      deps.logger.error({ err: error }, 'options: settlement pass failed');
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), intervalMs);
  };
  timer = setTimeout(() => (running = pass()), 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
