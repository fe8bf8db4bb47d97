import { AppError, type LeverageMarkPrice, type LeveragePosition, type LeveragePositionEvent } from '@keel/contracts';
import {
  formatAmount,
  formatPriceMinor,
  type LeverageProduct,
  MARGIN_SCALE,
  MARK_PRICE_TICKS,
  markPriceAt,
  parsePriceMinor,
  type PositionSide,
  type PositionState,
  QUANTITY_SCALE,
} from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';

export interface PositionRow {
  id: bigint;
  position_no: string;
  user_id: bigint;
  account_id: bigint;
  product: LeverageProduct;
  symbol: string;
  side: PositionSide;
  leverage: number;
  entry_price: string;
  quantity_minor: string;
  entry_notional_minor: string;
  initial_margin_minor: string;
  margin_minor: string;
  hold_id: bigint;
  liquidation_price: string | null;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  armed_after_tick_id: bigint;
  opened_at_ms: bigint;
  open_tick_id: bigint;
  open_tick_price: string;
  open_tick_at_ms: bigint;
  open_tick_source: string;
  status: 'open' | 'closed' | 'liquidated';
  close_reason: 'user' | 'take_profit' | 'stop_loss' | 'liquidation' | null;
  closed_at_ms: bigint | null;
  realized_pnl_minor: string;
  fees_minor: string;
  funding_minor: string;
  charged_through_ms: bigint;
}

/** The columns of a position row, qualified by `alias` when given; money and prices as text. */
export function positionColumns(alias = ''): string {
  const of = alias ? `${alias}.` : '';
  const plain = ['id', 'position_no', 'user_id', 'account_id', 'product', 'symbol', 'side', 'leverage', 'hold_id', 'armed_after_tick_id', 'opened_at_ms',
    'open_tick_id', 'open_tick_at_ms', 'open_tick_source', 'status', 'close_reason', 'closed_at_ms', 'charged_through_ms'];
  const asText = ['entry_price', 'quantity_minor', 'entry_notional_minor', 'initial_margin_minor', 'margin_minor', 'liquidation_price', 'take_profit_price',
    'stop_loss_price', 'open_tick_price', 'realized_pnl_minor', 'fees_minor', 'funding_minor'];
  return [...plain.map((column) => `${of}${column}`), ...asText.map((column) => `${of}${column}::text AS ${column}`)].join(', ');
}

export const POSITION_COLUMNS = positionColumns();

export const formatMarginUsdt = (minor: bigint) => formatAmount(minor, MARGIN_SCALE);
export const formatQuantity = (minor: bigint) => formatAmount(minor, QUANTITY_SCALE);
const priceOrNull = (text: string | null) => (text === null ? null : text);

/** The domain's view of an open position row. */
export function positionState(row: PositionRow): PositionState {
  return {
    product: row.product,
    side: row.side,
    quantityMinor: toMinor(row.quantity_minor),
    entryPriceMinor: parsePriceMinor(row.entry_price),
    marginMinor: toMinor(row.margin_minor),
  };
}

export interface EventRow {
  id: bigint;
  position_id: bigint;
  kind: LeveragePositionEvent['kind'];
  at_ms: bigint;
  quantity_minor: string | null;
  price: string | null;
  tick_id: bigint | null;
  tick_price: string | null;
  tick_at_ms: bigint | null;
  tick_source: string | null;
  mark_tick_ids: (bigint | string)[] | null;
  pnl_minor: string | null;
  fee_minor: string | null;
  insurance_minor: string | null;
  payout_minor: string | null;
  margin_change_minor: string | null;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  period_at_ms: bigint | null;
  entry_id: bigint | null;
}

export const EVENT_COLUMNS = `id, position_id, kind, at_ms, quantity_minor::text AS quantity_minor, price::text AS price, tick_id, tick_price::text AS tick_price,
  tick_at_ms, tick_source, mark_tick_ids, pnl_minor::text AS pnl_minor, fee_minor::text AS fee_minor, insurance_minor::text AS insurance_minor,
  payout_minor::text AS payout_minor, margin_change_minor::text AS margin_change_minor, take_profit_price::text AS take_profit_price,
  stop_loss_price::text AS stop_loss_price, period_at_ms, entry_id`;

const usdtOrNull = (text: string | null) => (text === null ? null : formatMarginUsdt(toMinor(text)));

function toEventView(row: EventRow, symbol: string): LeveragePositionEvent {
  return {
    id: row.id.toString(),
    kind: row.kind,
    atMs: Number(row.at_ms),
    quantity: row.quantity_minor === null ? null : formatQuantity(toMinor(row.quantity_minor)),
    price: priceOrNull(row.price),
    tick:
      row.tick_id === null
        ? null
        : { tickId: row.tick_id.toString(), symbol, price: row.tick_price!, atMs: Number(row.tick_at_ms), source: row.tick_source! },
    markTickIds: row.mark_tick_ids === null ? null : row.mark_tick_ids.map((id) => id.toString()),
    pnl: usdtOrNull(row.pnl_minor),
    fee: usdtOrNull(row.fee_minor),
    insurance: usdtOrNull(row.insurance_minor),
    payout: usdtOrNull(row.payout_minor),
    marginChange: usdtOrNull(row.margin_change_minor),
    takeProfitPrice: priceOrNull(row.take_profit_price),
    stopLossPrice: priceOrNull(row.stop_loss_price),
    periodAtMs: row.period_at_ms === null ? null : Number(row.period_at_ms),
    entryId: row.entry_id === null ? null : row.entry_id.toString(),
  };
}

export function toPositionView(row: PositionRow, events: readonly EventRow[]): LeveragePosition {
  return {
    id: row.id.toString(),
    positionNo: row.position_no,
    product: row.product,
    symbol: row.symbol,
    side: row.side,
    leverage: row.leverage,
    status: row.status,
    closeReason: row.close_reason,
    quantity: formatQuantity(toMinor(row.quantity_minor)),
    entryPrice: row.entry_price,
    entryNotional: formatMarginUsdt(toMinor(row.entry_notional_minor)),
    initialMargin: formatMarginUsdt(toMinor(row.initial_margin_minor)),
    margin: formatMarginUsdt(toMinor(row.margin_minor)),
    liquidationPrice: priceOrNull(row.liquidation_price),
    takeProfitPrice: priceOrNull(row.take_profit_price),
    stopLossPrice: priceOrNull(row.stop_loss_price),
    realizedPnl: formatMarginUsdt(toMinor(row.realized_pnl_minor)),
    fees: formatMarginUsdt(toMinor(row.fees_minor)),
    funding: formatMarginUsdt(toMinor(row.funding_minor)),
    openedAtMs: Number(row.opened_at_ms),
    closedAtMs: row.closed_at_ms === null ? null : Number(row.closed_at_ms),
    openTick: {
      tickId: row.open_tick_id.toString(),
      symbol: row.symbol,
      price: row.open_tick_price,
      atMs: Number(row.open_tick_at_ms),
      source: row.open_tick_source,
    },
    events: events.map((event) => toEventView(event, row.symbol)),
  };
}

/** How many of a position's latest events a list carries (the detail carries all). */
export const LIST_EVENTS = 5;

/** One of the user's positions with all its events; RECORD_NOT_FOUND for anyone else's. */
export async function findPosition(db: Queryable, userId: bigint, positionId: bigint): Promise<LeveragePosition> {
  const [row] = await db.query<PositionRow>(`SELECT ${POSITION_COLUMNS} FROM leverage_positions WHERE id = $1 AND user_id = $2`, [positionId, userId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  const events = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM leverage_position_events WHERE position_id = $1 ORDER BY id`, [positionId]);
  return toPositionView(row, events);
}

/**
 * The mark price of each market: the published median rule over its last recorded ticks. Read
 * from the table, so every node and the trigger engine agree on it.
 */
export async function markPricesOf(db: Queryable, symbols: readonly string[]): Promise<LeverageMarkPrice[]> {
  if (symbols.length === 0) return [];
  const rows = await db.query<{ symbol: string; id: bigint; price: string; observed_at_ms: bigint }>(
    `SELECT s.symbol, t.id, t.price::text AS price, t.observed_at_ms
     FROM unnest($1::text[]) AS s(symbol)
     CROSS JOIN LATERAL (SELECT id, price, observed_at_ms FROM market_ticks m WHERE m.symbol = s.symbol ORDER BY id DESC LIMIT $2) t
     ORDER BY s.symbol, t.id`,
    [symbols, MARK_PRICE_TICKS],
  );
  const marks: LeverageMarkPrice[] = [];
  for (const symbol of symbols) {
    const ticks = rows.filter((row) => row.symbol === symbol).map((row) => ({ tickId: row.id, priceMinor: parsePriceMinor(row.price), atMs: Number(row.observed_at_ms) }));
    const mark = markPriceAt(ticks);
    if (mark) marks.push({ symbol, price: formatPriceMinor(mark.priceMinor), tickIds: mark.tickIds.map(String), atMs: ticks.at(-1)!.atMs });
  }
  return marks;
}

export async function listPositions(
  db: Queryable,
  input: { userId: bigint; scope: 'open' | 'history'; product?: LeverageProduct; page: number; pageSize: number },
) {
  const statusFilter = input.scope === 'open' ? `status = 'open'` : `status <> 'open'`;
  const params: unknown[] = [input.userId];
  let productFilter = '';
  if (input.product) {
    params.push(input.product);
    productFilter = ` AND product = $${params.length}`;
  }
  const where = `user_id = $1 AND ${statusFilter}${productFilter}`;
  const [{ total }] = (await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM leverage_positions WHERE ${where}`, params)) as [{ total: number }];
  const rows = await db.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM leverage_positions WHERE ${where} ORDER BY id DESC LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}`,
    params,
  );
  const events =
    rows.length === 0
      ? []
      : await db.query<EventRow>(
          `SELECT e.* FROM unnest($1::bigint[]) AS p(id)
           CROSS JOIN LATERAL (SELECT ${EVENT_COLUMNS} FROM leverage_position_events WHERE position_id = p.id ORDER BY id DESC LIMIT ${LIST_EVENTS}) e
           ORDER BY e.id`,
          [rows.map((row) => row.id.toString())],
        );
  const items = rows.map((row) => toPositionView(row, events.filter((event) => event.position_id === row.id)));
  const marks = input.scope === 'open' ? await markPricesOf(db, [...new Set(rows.map((row) => row.symbol))]) : [];
  return { items, total, page: input.page, pageSize: input.pageSize, marks };
}
