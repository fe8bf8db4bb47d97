import {
  fundingMinor,
  formatPriceMinor,
  interestMinor,
  liquidationPriceMinor,
  MARGIN_ASSET,
  MARK_PRICE_TICKS,
  MARK_PRICE_WINDOW_MS,
  markPriceAt,
  parsePriceMinor,
  periodTimesBetween,
  type Posting,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { postEntriesTogether } from '../../persistence/ledger-bulk.store.ts';
import { type EntryInput, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { fundingRatePpm, leveragePlatformAccounts, shareMarketCursor } from './leverage-support.ts';
import { chargeIntervalOf } from './position-writes.ts';
import { POSITION_COLUMNS, type PositionRow, positionState } from './position-views.ts';

/** How often each node looks for positions whose funding or interest fell due. */
export const POSITION_CHARGES_INTERVAL_MS = 30_000;

/** Positions charged per transaction at most. */
export const CHARGES_PER_BATCH = 500;
/** Periods charged per position and pass at most (a long downtime catches up over several passes). */
export const PERIODS_PER_PASS = 48;

export interface ChargedPosition {
  positionId: bigint;
  userId: bigint;
}

/**
 * The mark price at a funding time: the published median rule over the market's last recorded
 * ticks observed at or before it, the newest within the rule's window of it. Null when none was recorded near it (the market stalled, or its
 * ticks aged out): then no funding is charged for that period (ADR 0034).
 */
async function markPriceAtTime(tx: Queryable, symbol: string, atMs: number) {
  const rows = await tx.query<{ id: bigint; price: string; observed_at_ms: bigint }>(
    `SELECT id, price::text AS price, observed_at_ms FROM market_ticks WHERE symbol = $1 AND observed_at_ms <= $2
     ORDER BY observed_at_ms DESC, id DESC LIMIT $3`,
    [symbol, atMs, MARK_PRICE_TICKS],
  );
  const newest = rows[0];
  if (!newest || atMs - Number(newest.observed_at_ms) > MARK_PRICE_WINDOW_MS) return null;
  return markPriceAt(rows.reverse().map((row) => ({ tickId: row.id, priceMinor: parsePriceMinor(row.price), atMs: Number(row.observed_at_ms) })));
}

/**
 * Charges, for one market, the open positions whose next period time has passed: futures funding
 * every 8 hours at the market's published rate on the notional at the mark price then (longs pay a
 * positive rate to the house, shorts receive it; a negative rate the reverse), and interest every
 * hour on what a leveraged position borrowed. Each charge moves margin between the position's hold
 * and the house in one journal entry keyed by position and period, and is an event of the
 * position; the liquidation price is computed again. A charge never takes the last minor unit of
 * margin (a hold is never empty while its position is open): a position whose margin is used up
 * is liquidated by the next tick.
 * One transaction: the market's cursor FOR SHARE (so a charge lands between two engine passes),
 * the due positions FOR UPDATE SKIP LOCKED (nodes share the work; a position a user is changing is
 * taken by the next pass), every period since the last one charged (catch-up after downtime), all
 * or nothing. A period is charged once: the position's `charged_through_ms` moves with its entries,
 * and each entry's key and each event's unique index name the period.
 */
export async function chargeDuePositionsOfMarket(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  symbol: string,
  limit = CHARGES_PER_BATCH,
): Promise<ChargedPosition[]> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const nowMs = now.getTime();
    const [latest] = await tx.query<{ id: bigint }>('SELECT coalesce(max(id), 0) AS id FROM market_ticks WHERE symbol = $1', [symbol]);
    await shareMarketCursor(tx, symbol, BigInt(latest!.id));
    const due = await tx.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM leverage_positions
       WHERE symbol = $1 AND status = 'open' AND charged_through_ms <= $4 - $3::bigint
         AND charged_through_ms + CASE product WHEN 'futures' THEN $2::bigint ELSE $3::bigint END <= $4
       ORDER BY id LIMIT $5 FOR UPDATE SKIP LOCKED`,
      [symbol, chargeIntervalOf('futures'), chargeIntervalOf('leveraged'), nowMs, limit],
    );
    if (due.length === 0) return [];
    const { houseAccountId } = await leveragePlatformAccounts(tx);
    const ratePpm = BigInt(fundingRatePpm(deps, symbol));
    const interestPpm = BigInt(deps.config.LEVERAGE_INTEREST_RATE_PPM);
    const marks = new Map<number, Awaited<ReturnType<typeof markPriceAtTime>>>();

    const entries: EntryInput[] = [];
    const events: { positionId: bigint; kind: 'funding' | 'interest'; periodAtMs: number; changeMinor: bigint; mark: string | null; entryIndex: number }[] = [];
    const updates: { row: PositionRow; marginMinor: bigint; fundingMinor: bigint; chargedThroughMs: number }[] = [];
    for (const row of due) {
      const state = positionState(row);
      const interval = chargeIntervalOf(row.product);
      const periods = periodTimesBetween(Number(row.charged_through_ms), nowMs, interval).slice(0, PERIODS_PER_PASS);
      let margin = state.marginMinor;
      let charged = 0n;
      for (const periodAtMs of periods) {
        let change: bigint;
        let markText: string | null = null;
        if (row.product === 'futures') {
          if (!marks.has(periodAtMs)) marks.set(periodAtMs, await markPriceAtTime(tx, symbol, periodAtMs));
          const mark = marks.get(periodAtMs);
          if (!mark) continue;
          markText = formatPriceMinor(mark.priceMinor);
          change = fundingMinor(row.side, state.quantityMinor, mark.priceMinor, ratePpm);
        } else {
          change = -interestMinor(toMinor(row.entry_notional_minor), margin, interestPpm);
        }
        // Never the last minor unit: see above.
        if (change < 0n && -change > margin - 1n) change = -(margin - 1n);
        if (change === 0n) continue;
        const postings: Posting[] = [
          { accountId: row.account_id, asset: MARGIN_ASSET, bucket: 'frozen', amountMinor: change },
          { accountId: houseAccountId, asset: MARGIN_ASSET, bucket: 'available', amountMinor: -change },
        ];
        const kind = row.product === 'futures' ? 'funding' : 'interest';
        entries.push({
          reason: `leverage.${kind}`,
          referenceType: 'leverage_position',
          referenceId: row.id.toString(),
          idempotencyKey: `leverage.${kind}:${row.id}:${periodAtMs}`,
          memo: `${row.position_no} ${kind} ${new Date(periodAtMs).toISOString()}`,
          postings,
          at: now,
        });
        events.push({ positionId: row.id, kind, periodAtMs, changeMinor: change, mark: markText, entryIndex: entries.length - 1 });
        margin += change;
        charged += change;
      }
      if (periods.length > 0) updates.push({ row, marginMinor: margin, fundingMinor: charged, chargedThroughMs: periods.at(-1)! });
    }

    const posted = await postEntriesTogether(tx, entries);
    if (posted.some((entry) => entry.replayed)) throw new Error('a period already charged was due again');
    await tx.query(
      `UPDATE ledger_holds h SET amount_minor = c.margin
       FROM unnest($1::bigint[], $2::numeric[]) AS c(hold_id, margin) WHERE h.id = c.hold_id AND h.status = 'open'`,
      [updates.map((update) => update.row.hold_id.toString()), updates.map((update) => update.marginMinor.toString())],
    );
    await tx.query(
      `UPDATE leverage_positions p SET margin_minor = c.margin, liquidation_price = c.liquidation_price,
         funding_minor = p.funding_minor + c.charged, charged_through_ms = c.charged_through_ms
       FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::bigint[]) AS c(id, margin, liquidation_price, charged, charged_through_ms)
       WHERE p.id = c.id AND p.status = 'open'`,
      [
        updates.map((update) => update.row.id.toString()),
        updates.map((update) => update.marginMinor.toString()),
        updates.map((update) => {
          const price = liquidationPriceMinor({ ...positionState(update.row), marginMinor: update.marginMinor });
          return price === null ? null : formatPriceMinor(price);
        }),
        updates.map((update) => update.fundingMinor.toString()),
        updates.map((update) => String(update.chargedThroughMs)),
      ],
    );
    if (events.length > 0) {
      await tx.query(
        `INSERT INTO leverage_position_events (position_id, kind, at_ms, price, margin_change_minor, period_at_ms, entry_id)
         SELECT c.position_id, c.kind, $1, c.price, c.change, c.period_at_ms, c.entry_id
         FROM unnest($2::bigint[], $3::text[], $4::numeric[], $5::numeric[], $6::bigint[], $7::bigint[]) AS c(position_id, kind, price, change, period_at_ms, entry_id)`,
        [
          nowMs,
          events.map((event) => event.positionId.toString()),
          events.map((event) => event.kind),
          events.map((event) => event.mark),
          events.map((event) => event.changeMinor.toString()),
          events.map((event) => String(event.periodAtMs)),
          events.map((event) => posted[event.entryIndex]!.entryId.toString()),
        ],
      );
    }
    return updates.filter((update) => update.fundingMinor !== 0n).map((update) => ({ positionId: update.row.id, userId: update.row.user_id }));
  });
}

/** One charging pass over every market with open positions; returns the positions whose margin changed. */
export async function chargeDuePositions(deps: Pick<Deps, 'db' | 'now' | 'config'>): Promise<ChargedPosition[]> {
  const markets = await deps.db.query<{ symbol: string }>(`SELECT DISTINCT symbol FROM leverage_positions WHERE status = 'open' ORDER BY symbol`);
  const charged: ChargedPosition[] = [];
  for (const { symbol } of markets) {
    for (;;) {
      const batch = await chargeDuePositionsOfMarket(deps, symbol);
      charged.push(...batch);
      if (batch.length < CHARGES_PER_BATCH) break;
    }
  }
  return charged;
}

/**
 * The charging loop of one node: a pass every `intervalMs` (periods are hours apart; a pass finds
 * due positions through an index). Every node may run one (SKIP LOCKED). A failed pass is logged
 * and retried; nothing of it committed.
 */
export function startPositionCharges(deps: Deps, intervalMs: number): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const charged = await chargeDuePositions(deps);
      await Promise.all(
        charged.map((each) => publishToUser(deps, each.userId, { kind: 'leverage.position', positionId: each.positionId.toString(), status: 'open' })),
      );
    } catch (error) {
      deps.logger.error({ err: error }, 'leverage: charging pass failed');
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), intervalMs);
  };
  timer = setTimeout(() => (running = pass()), intervalMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
