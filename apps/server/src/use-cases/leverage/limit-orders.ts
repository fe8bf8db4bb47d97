import { AppError, type LeverageLimitOrder } from '@keel/contracts';
import {
  firstLimitCross,
  formatPriceMinor,
  LedgerError,
  type LeverageProduct,
  limitFillPriceMinor,
  MARGIN_ASSET,
  parsePriceMinor,
  type PositionSide,
  type PricedTick,
  PRICE_SCALE,
  quoteOpen,
  triggerProblem,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { postEntriesTogether } from '../../persistence/ledger-bulk.store.ts';
import { placeHold, releaseHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, type EntryInput, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import type { UsedTick } from './close-positions.ts';
import { exposureLimitMinor, freshTick, leveragePlatformAccounts, lowerExposure, raiseExposure, shareMarketCursor } from './leverage-support.ts';
import { acceptedQuote, checkOrderTerms, type OpenPositionInput } from './open-position.ts';
import { formatMarginUsdt } from './position-views.ts';
import { insertOpenedPositions, type NewPosition } from './position-writes.ts';
import { vipTermsOfUser } from '../vip/vip-levels.ts';

interface OrderRow {
  id: bigint;
  order_no: string;
  user_id: bigint;
  account_id: bigint;
  product: LeverageProduct;
  symbol: string;
  side: PositionSide;
  leverage: number;
  margin_minor: string;
  fee_minor: string;
  notional_minor: string;
  limit_price: string;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  hold_id: bigint;
  place_entry_id: bigint;
  armed_after_tick_id: bigint;
  placed_at_ms: bigint;
  status: 'pending' | 'filled' | 'cancelled';
  position_id: bigint | null;
  fill_tick_id: bigint | null;
  fill_tick_price: string | null;
  fill_tick_at_ms: bigint | null;
  fill_tick_source: string | null;
  closed_at_ms: bigint | null;
  close_entry_id: bigint | null;
}

const ORDER_COLUMNS = `id, order_no, user_id, account_id, product, symbol, side, leverage, margin_minor::text AS margin_minor, fee_minor::text AS fee_minor,
  notional_minor::text AS notional_minor, limit_price::text AS limit_price, take_profit_price::text AS take_profit_price,
  stop_loss_price::text AS stop_loss_price, hold_id, place_entry_id, armed_after_tick_id, placed_at_ms, status, position_id, fill_tick_id,
  fill_tick_price::text AS fill_tick_price, fill_tick_at_ms, fill_tick_source, closed_at_ms, close_entry_id`;

function toOrderView(row: OrderRow): LeverageLimitOrder {
  return {
    id: row.id.toString(),
    orderNo: row.order_no,
    product: row.product,
    symbol: row.symbol,
    side: row.side,
    leverage: row.leverage,
    margin: formatMarginUsdt(toMinor(row.margin_minor)),
    fee: formatMarginUsdt(toMinor(row.fee_minor)),
    notional: formatMarginUsdt(toMinor(row.notional_minor)),
    limitPrice: row.limit_price,
    takeProfitPrice: row.take_profit_price,
    stopLossPrice: row.stop_loss_price,
    status: row.status,
    placedAtMs: Number(row.placed_at_ms),
    closedAtMs: row.closed_at_ms === null ? null : Number(row.closed_at_ms),
    positionId: row.position_id === null ? null : row.position_id.toString(),
    fillTick:
      row.fill_tick_id === null
        ? null
        : { tickId: row.fill_tick_id.toString(), symbol: row.symbol, price: row.fill_tick_price!, atMs: Number(row.fill_tick_at_ms), source: row.fill_tick_source! },
    placeEntryId: row.place_entry_id.toString(),
    closeEntryId: row.close_entry_id === null ? null : row.close_entry_id.toString(),
  };
}

async function findOrder(db: Queryable, userId: bigint, orderId: bigint): Promise<LeverageLimitOrder> {
  const [row] = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM leverage_orders WHERE id = $1 AND user_id = $2`, [orderId, userId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toOrderView(row);
}

export async function listLimitOrders(
  db: Queryable,
  input: { userId: bigint; scope: 'open' | 'history'; product?: LeverageProduct; page: number; pageSize: number },
) {
  const params: unknown[] = [input.userId];
  let where = `user_id = $1 AND ${input.scope === 'open' ? `status = 'pending'` : `status <> 'pending'`}`;
  if (input.product) {
    params.push(input.product);
    where += ` AND product = $${params.length}`;
  }
  const [{ total }] = (await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM leverage_orders WHERE ${where}`, params)) as [{ total: number }];
  const rows = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM leverage_orders WHERE ${where} ORDER BY id DESC LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}`,
    params,
  );
  return { items: rows.map(toOrderView), total, page: input.page, pageSize: input.pageSize };
}

/**
 * Places a limit order. The same checks as a market order, with the limit price as the fill price
 * the quote is made at (the worst the order can fill at) and as the price the take-profit and
 * stop-loss are checked against; a fresh recorded tick must exist (the market is live). One
 * transaction: the market's cursor shared (the order is watched from the ticks after it), the
 * house's exposure raised now (an order that fills can then never pass the limit), margin + fee
 * frozen as one hold on the leveraged account, the order row. Answer committed with it (ADR 0019).
 */
export async function placeLimitOrder(
  deps: Deps,
  userId: bigint,
  input: OpenPositionInput & { limitPrice: string },
  idempotency?: IdempotentRequest<LeverageLimitOrder>,
): Promise<LeverageLimitOrder> {
  const { marginMinor, takeProfitPriceMinor, stopLossPriceMinor } = await checkOrderTerms(deps, userId, input);
  const limitPriceMinor = parseUserAmount(input.limitPrice, PRICE_SCALE, 'limitPrice');
  const now = deps.now();
  const nowMs = now.getTime();
  const tick = freshTick(deps, input.symbol, nowMs);
  // The opening fee is reserved at placement with the user's VIP level then (ADR 0046).
  const vip = await vipTermsOfUser(deps.db, deps.config.VIP_LEVELS, userId);
  const quote = acceptedQuote(quoteOpen({ product: input.product, side: input.side, marginMinor, leverage: input.leverage, fillPriceMinor: limitPriceMinor, vip }));
  const problem = triggerProblem(input.side, { takeProfitPriceMinor, stopLossPriceMinor }, limitPriceMinor, quote.liquidationPriceMinor);
  if (problem) throw new AppError('TRIGGER_PRICE_INVALID', { problem });
  let view: LeverageLimitOrder;
  try {
    view = await deps.db.transaction(async (tx) => {
      const cursorTickId = await shareMarketCursor(tx, input.symbol, tick.tickId);
      await raiseExposure(tx, input.symbol, input.side, quote.notionalMinor, exposureLimitMinor(deps));
      const accountId = await ensureUserAccount(tx, userId, 'leveraged', MARGIN_ASSET);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('leverage_orders', 'id')) AS id`)) as [{ id: bigint }];
      const { holdId, placedEntryId } = await placeHold(tx, {
        accountId,
        amountMinor: marginMinor + quote.feeMinor,
        reason: 'leverage.order',
        referenceType: 'leverage_order',
        referenceId: id.toString(),
        at: now,
      });
      await tx.query(
        `INSERT INTO leverage_orders (id, order_no, user_id, account_id, product, symbol, side, leverage, margin_minor, fee_minor, notional_minor,
           limit_price, take_profit_price, stop_loss_price, hold_id, place_entry_id, armed_after_tick_id, placed_at_ms)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
        [
          id,
          `${input.product === 'futures' ? 'FO' : 'LO'}${now.toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`,
          userId,
          accountId,
          input.product,
          input.symbol,
          input.side,
          input.leverage,
          marginMinor.toString(),
          quote.feeMinor.toString(),
          quote.notionalMinor.toString(),
          formatPriceMinor(limitPriceMinor),
          takeProfitPriceMinor === null ? null : formatPriceMinor(takeProfitPriceMinor),
          stopLossPriceMinor === null ? null : formatPriceMinor(stopLossPriceMinor),
          holdId,
          placedEntryId,
          cursorTickId > tick.tickId ? cursorTickId : tick.tickId,
          nowMs,
        ],
      );
      const placed = await findOrder(tx, userId, id);
      await idempotency?.answerInTransaction(tx, placed);
      return placed;
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  await publishToUser(deps, userId, { kind: 'leverage.order', orderId: view.id, status: view.status });
  return view;
}

/** Cancels a pending limit order: margin and fee back, the exposure freed. ORDER_STATE_CHANGED once it filled or was cancelled. */
export async function cancelLimitOrder(
  deps: Deps,
  userId: bigint,
  orderId: bigint,
  idempotency?: IdempotentRequest<LeverageLimitOrder>,
): Promise<LeverageLimitOrder> {
  const [found] = await deps.db.query<{ symbol: string }>('SELECT symbol FROM leverage_orders WHERE id = $1 AND user_id = $2', [orderId, userId]);
  if (!found) throw new AppError('RECORD_NOT_FOUND');
  const now = deps.now();
  const view = await deps.db.transaction(async (tx) => {
    const latest = deps.market.latest(found.symbol)?.tickId ?? 0n;
    await shareMarketCursor(tx, found.symbol, latest);
    const [row] = await tx.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM leverage_orders WHERE id = $1 FOR UPDATE`, [orderId]);
    if (row!.status !== 'pending') throw new AppError('ORDER_STATE_CHANGED', { status: row!.status });
    await lowerExposure(tx, row!.symbol, row!.side, toMinor(row!.notional_minor));
    const entryId = await releaseHold(tx, { holdId: row!.hold_id, reason: 'leverage.order_cancel', at: now });
    await tx.query(`UPDATE leverage_orders SET status = 'cancelled', closed_at_ms = $2, close_entry_id = $3 WHERE id = $1`, [orderId, now.getTime(), entryId]);
    const cancelled = await findOrder(tx, userId, orderId);
    await idempotency?.answerInTransaction(tx, cancelled);
    return cancelled;
  });
  await publishToUser(deps, userId, { kind: 'leverage.order', orderId: view.id, status: view.status });
  return view;
}

export interface FilledOrder {
  orderId: bigint;
  positionId: bigint;
  userId: bigint;
}

/**
 * The engine's step before it judges positions (inside its market transaction, the cursor held):
 * per side ONE indexed query for the pending orders whose limit the run's extremes reached, locked
 * FOR UPDATE in id order; each fills on the first tick after it was placed that reaches its limit,
 * at that tick's price with the spread and never worse than the limit. A fill is one journal entry
 * (keyed by the order) taking the fee from the frozen margin + fee to the fee account; the order's
 * hold closes and the margin becomes the new position's hold; the position is written as a market
 * order's would be, watched from its fill tick on — so the same pass goes on to judge it on the
 * rest of the run. The exposure was raised when the order was placed and is the position's now.
 */
export async function fillCrossedOrders(
  tx: Queryable,
  symbol: string,
  priced: readonly PricedTick[],
  ticks: ReadonlyMap<bigint, UsedTick>,
  range: { lowPrice: bigint; highPrice: bigint },
  lastTickId: bigint,
  now: Date,
): Promise<FilledOrder[]> {
  // One indexed query per side; the engine alone locks several orders, one market at a time.
  const longs = await tx.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM leverage_orders
     WHERE symbol = $1 AND side = 'long' AND status = 'pending' AND limit_price >= $2::numeric AND armed_after_tick_id < $3 ORDER BY id FOR UPDATE`,
    [symbol, formatPriceMinor(range.lowPrice), lastTickId],
  );
  const shorts = await tx.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM leverage_orders
     WHERE symbol = $1 AND side = 'short' AND status = 'pending' AND limit_price <= $2::numeric AND armed_after_tick_id < $3 ORDER BY id FOR UPDATE`,
    [symbol, formatPriceMinor(range.highPrice), lastTickId],
  );
  const crossed = [...longs, ...shorts];
  if (crossed.length === 0) return [];
  const { feeAccountId } = await leveragePlatformAccounts(tx);
  const fills: { row: OrderRow; tick: UsedTick; quote: ReturnType<typeof quoteOpen> & { ok: true } }[] = [];
  for (const row of crossed) {
    const limitPriceMinor = parsePriceMinor(row.limit_price);
    const tick = firstLimitCross({ side: row.side, limitPriceMinor, armedAfterTickId: row.armed_after_tick_id }, priced);
    if (!tick) continue;
    const quote = quoteOpen({
      product: row.product,
      side: row.side,
      marginMinor: toMinor(row.margin_minor),
      leverage: row.leverage,
      fillPriceMinor: limitFillPriceMinor(row.side, tick.priceMinor, limitPriceMinor),
    });
    // The notional and its bracket were checked when the order was placed and do not depend on
    // the price; only a fill price so high that not one quantity unit fits could fail here.
    if (!quote.ok) throw new Error(`limit order ${row.id} cannot fill: ${quote.problem}`);
    fills.push({ row, tick: ticks.get(tick.tickId)!, quote });
  }
  if (fills.length === 0) return [];
  const entries: EntryInput[] = fills.map(({ row, quote }) => ({
    reason: 'leverage.fill',
    referenceType: 'leverage_order',
    referenceId: row.id.toString(),
    idempotencyKey: `leverage.fill:${row.id}`,
    memo: `${row.order_no} ${formatPriceMinor(quote.quote.fillPriceMinor)}`,
    postings: [
      { accountId: row.account_id, asset: MARGIN_ASSET, bucket: 'frozen', amountMinor: -toMinor(row.fee_minor) },
      { accountId: feeAccountId, asset: MARGIN_ASSET, bucket: 'available', amountMinor: toMinor(row.fee_minor) },
    ],
    at: now,
  }));
  const posted = await postEntriesTogether(tx, entries);
  if (posted.some((entry) => entry.replayed)) throw new Error('a pending limit order already has its fill entry');
  const positionIds = await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('leverage_positions', 'id')) AS id FROM generate_series(1, $1::int)`, [
    fills.length,
  ]);
  await tx.query(
    `UPDATE ledger_holds h SET status = 'posted', closed_entry_id = c.entry_id, closed_at = $3
     FROM unnest($1::bigint[], $2::bigint[]) AS c(hold_id, entry_id) WHERE h.id = c.hold_id AND h.status = 'open'`,
    [fills.map(({ row }) => row.hold_id.toString()), posted.map((entry) => entry.entryId.toString()), now],
  );
  const holds = await tx.query<{ id: bigint }>(
    `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
     SELECT c.account_id, c.amount, 'leverage_position', c.reference_id, c.entry_id, $5
     FROM unnest($1::bigint[], $2::numeric[], $3::text[], $4::bigint[]) WITH ORDINALITY AS c(account_id, amount, reference_id, entry_id, n)
     ORDER BY c.n RETURNING id`,
    [
      fills.map(({ row }) => row.account_id.toString()),
      fills.map(({ row }) => row.margin_minor),
      positionIds.map((each) => each.id.toString()),
      posted.map((entry) => entry.entryId.toString()),
      now,
    ],
  );
  const positions: NewPosition[] = fills.map(({ row, tick, quote }, index) => ({
    id: positionIds[index]!.id,
    userId: row.user_id,
    accountId: row.account_id,
    product: row.product,
    symbol,
    side: row.side,
    leverage: row.leverage,
    entryPriceMinor: quote.quote.fillPriceMinor,
    quantityMinor: quote.quote.quantityMinor,
    notionalMinor: quote.quote.notionalMinor,
    marginMinor: toMinor(row.margin_minor),
    feeMinor: toMinor(row.fee_minor),
    holdId: holds[index]!.id,
    liquidationPriceMinor: quote.quote.liquidationPriceMinor,
    takeProfitPriceMinor: row.take_profit_price === null ? null : parsePriceMinor(row.take_profit_price),
    stopLossPriceMinor: row.stop_loss_price === null ? null : parsePriceMinor(row.stop_loss_price),
    armedAfterTickId: tick.tickId,
    openedAtMs: now.getTime(),
    tick,
    entryId: posted[index]!.entryId,
  }));
  await insertOpenedPositions(tx, positions);
  await tx.query(
    `UPDATE leverage_orders o SET status = 'filled', position_id = c.position_id, fill_tick_id = c.tick_id, fill_tick_price = c.tick_price,
       fill_tick_at_ms = c.tick_at_ms, fill_tick_source = c.tick_source, closed_at_ms = $7, close_entry_id = c.entry_id
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::numeric[], $5::bigint[], $6::text[], $8::bigint[])
       AS c(id, position_id, tick_id, tick_price, tick_at_ms, tick_source, entry_id)
     WHERE o.id = c.id AND o.status = 'pending'`,
    [
      fills.map(({ row }) => row.id.toString()),
      positionIds.map((each) => each.id.toString()),
      fills.map(({ tick }) => tick.tickId.toString()),
      fills.map(({ tick }) => tick.price),
      fills.map(({ tick }) => String(tick.atMs)),
      fills.map(({ tick }) => tick.source),
      now.getTime(),
      posted.map((entry) => entry.entryId.toString()),
    ],
  );
  return fills.map(({ row }, index) => ({ orderId: row.id, positionId: positionIds[index]!.id, userId: row.user_id }));
}
