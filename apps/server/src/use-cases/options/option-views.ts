import type { OptionOrder } from '@keel/contracts';
import { AppError } from '@keel/contracts';
import { formatAmount, OPTIONS_SCALE, type OptionDirection, type OptionOrderStatus } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';

export interface OptionOrderRow {
  id: bigint;
  order_no: string;
  user_id: bigint;
  account_id: bigint;
  symbol: string;
  direction: OptionDirection;
  cycle_seconds: number;
  yield_bps: number;
  stake_minor: string;
  expected_profit_minor: string;
  hold_id: bigint;
  place_entry_id: bigint;
  placed_at_ms: bigint;
  expires_at_ms: bigint;
  open_tick_id: bigint;
  open_price: string;
  open_tick_at_ms: bigint;
  open_tick_source: string;
  status: OptionOrderStatus;
  close_tick_id: bigint | null;
  close_price: string | null;
  close_tick_at_ms: bigint | null;
  close_tick_source: string | null;
  profit_minor: string | null;
  settle_entry_id: bigint | null;
  settled_at_ms: bigint | null;
}

/**
 * The columns of an order row, each qualified by `alias` when given; money and prices as text
 * (prices keep their 8 decimals, numeric(38,8)::text, the way ticks are served everywhere).
 */
export function optionOrderColumns(alias = ''): string {
  const of = alias ? `${alias}.` : '';
  const plain = ['id', 'order_no', 'user_id', 'account_id', 'symbol', 'direction', 'cycle_seconds', 'yield_bps', 'hold_id', 'place_entry_id',
    'placed_at_ms', 'expires_at_ms', 'open_tick_id', 'open_tick_at_ms', 'open_tick_source', 'status', 'close_tick_id', 'close_tick_at_ms',
    'close_tick_source', 'settle_entry_id', 'settled_at_ms'];
  const asText = ['stake_minor', 'expected_profit_minor', 'open_price', 'close_price', 'profit_minor'];
  return [...plain.map((column) => `${of}${column}`), ...asText.map((column) => `${of}${column}::text AS ${column}`)].join(', ');
}

export const OPTION_ORDER_COLUMNS = optionOrderColumns();

/** Contract money (USDT, 6 decimals) as the wire's decimal text. */
export const formatUsdt = (minor: bigint) => formatAmount(minor, OPTIONS_SCALE);
/** 8000 bps → "80.00". */
export const yieldPercentOf = (yieldBps: number) => formatAmount(BigInt(yieldBps), 2);

export function toOptionOrderView(row: OptionOrderRow): OptionOrder {
  return {
    id: row.id.toString(),
    orderNo: row.order_no,
    symbol: row.symbol,
    direction: row.direction,
    cycleSeconds: row.cycle_seconds,
    yieldBps: row.yield_bps,
    yieldPercent: yieldPercentOf(row.yield_bps),
    stake: formatUsdt(toMinor(row.stake_minor)),
    expectedProfit: formatUsdt(toMinor(row.expected_profit_minor)),
    status: row.status,
    actualProfit: row.profit_minor === null ? null : formatUsdt(toMinor(row.profit_minor)),
    placedAtMs: Number(row.placed_at_ms),
    expiresAtMs: Number(row.expires_at_ms),
    settledAtMs: row.settled_at_ms === null ? null : Number(row.settled_at_ms),
    openTick: {
      tickId: row.open_tick_id.toString(),
      symbol: row.symbol,
      price: row.open_price,
      atMs: Number(row.open_tick_at_ms),
      source: row.open_tick_source,
    },
    closeTick:
      row.close_tick_id === null
        ? null
        : {
            tickId: row.close_tick_id.toString(),
            symbol: row.symbol,
            price: row.close_price!,
            atMs: Number(row.close_tick_at_ms),
            source: row.close_tick_source!,
          },
    placeEntryId: row.place_entry_id.toString(),
    settleEntryId: row.settle_entry_id === null ? null : row.settle_entry_id.toString(),
  };
}

/** One of the user's orders; someone else's is "record does not exist", like one that is not there. */
export async function findOptionOrder(db: Queryable, userId: bigint, orderId: bigint): Promise<OptionOrder> {
  const [row] = await db.query<OptionOrderRow>(`SELECT ${OPTION_ORDER_COLUMNS} FROM option_orders WHERE id = $1 AND user_id = $2`, [orderId, userId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toOptionOrderView(row);
}

/** Open orders soonest expiry first (what the countdowns show); history newest settlement first. */
export async function listOptionOrders(db: Queryable, input: { userId: bigint; scope: 'open' | 'history'; page: number; pageSize: number }) {
  const open = input.scope === 'open';
  const where = open ? `user_id = $1 AND status = 'open'` : `user_id = $1 AND status <> 'open'`;
  const order = open ? 'expires_at_ms, id' : 'settled_at_ms DESC, id DESC';
  const rows = await db.query<OptionOrderRow>(
    `SELECT ${OPTION_ORDER_COLUMNS} FROM option_orders WHERE ${where} ORDER BY ${order} LIMIT $2 OFFSET $3`,
    [input.userId, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM option_orders WHERE ${where}`, [input.userId]);
  return { items: rows.map(toOptionOrderView), total: count?.total ?? 0, page: input.page, pageSize: input.pageSize };
}

/** For staff: every user's orders, newest first, optionally one status or one user. Read only. */
export async function listStaffOptionOrders(
  db: Queryable,
  input: { status?: OptionOrderStatus; userId?: bigint; page: number; pageSize: number },
) {
  const rows = await db.query<OptionOrderRow>(
    `SELECT ${OPTION_ORDER_COLUMNS} FROM option_orders
     WHERE ($1::text IS NULL OR status = $1) AND ($2::bigint IS NULL OR user_id = $2)
     ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [input.status ?? null, input.userId ?? null, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM option_orders WHERE ($1::text IS NULL OR status = $1) AND ($2::bigint IS NULL OR user_id = $2)`,
    [input.status ?? null, input.userId ?? null],
  );
  return {
    items: rows.map((row) => ({ ...toOptionOrderView(row), userId: row.user_id.toString() })),
    total: count?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}
