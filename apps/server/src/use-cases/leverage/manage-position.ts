import { AppError, type LeveragePosition } from '@keel/contracts';
import {
  formatPriceMinor,
  LedgerError,
  liquidationPriceMinor,
  MARGIN_SCALE,
  markPriceAt,
  MARK_PRICE_TICKS,
  parsePriceMinor,
  QUANTITY_SCALE,
  removableMarginMinor,
  triggerProblem,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { addToHold, takeFromHold } from '../../persistence/ledger-holds.store.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import { applyClosePlans, planClose } from './close-positions.ts';
import { freshTick, leveragePlatformAccounts, shareMarketCursor } from './leverage-support.ts';
import { parseTriggerPrice } from './open-position.ts';
import { findPosition, POSITION_COLUMNS, type PositionRow, positionState } from './position-views.ts';
import { vipTermsOfUser } from '../vip/vip-levels.ts';

/**
 * Locks one of the user's open positions for a change, in the fixed order: the market's cursor
 * FOR SHARE (the change lands wholly between two engine passes), then the position FOR UPDATE.
 * RECORD_NOT_FOUND for someone else's; ORDER_STATE_CHANGED once it is closed (by the user, a
 * trigger or liquidation — whichever committed first; the other finds it closed).
 */
async function lockOpenPosition(tx: Queryable, userId: bigint, positionId: bigint, latestTickId: (symbol: string) => bigint): Promise<PositionRow> {
  const [found] = await tx.query<{ symbol: string }>('SELECT symbol FROM leverage_positions WHERE id = $1 AND user_id = $2', [positionId, userId]);
  if (!found) throw new AppError('RECORD_NOT_FOUND');
  await shareMarketCursor(tx, found.symbol, latestTickId(found.symbol));
  const [row] = await tx.query<PositionRow>(`SELECT ${POSITION_COLUMNS} FROM leverage_positions WHERE id = $1 FOR UPDATE`, [positionId]);
  if (row!.status !== 'open') throw new AppError('ORDER_STATE_CHANGED', { status: row!.status });
  return row!;
}

async function symbolOf(db: Queryable, userId: bigint, positionId: bigint): Promise<string> {
  const [row] = await db.query<{ symbol: string }>('SELECT symbol FROM leverage_positions WHERE id = $1 AND user_id = $2', [positionId, userId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return row.symbol;
}

/** The mark price of a market now, from its last recorded ticks; PRICE_UNAVAILABLE without one. */
async function markPriceNow(db: Queryable, symbol: string) {
  const rows = await db.query<{ id: bigint; price: string; observed_at_ms: bigint }>(
    'SELECT id, price::text AS price, observed_at_ms FROM market_ticks WHERE symbol = $1 ORDER BY id DESC LIMIT $2',
    [symbol, MARK_PRICE_TICKS],
  );
  const mark = markPriceAt(rows.reverse().map((row) => ({ tickId: row.id, priceMinor: parsePriceMinor(row.price), atMs: Number(row.observed_at_ms) })));
  if (!mark) throw new AppError('PRICE_UNAVAILABLE', { symbol });
  return mark;
}

/**
 * Closes a position, or `quantity` of it, at the last recorded price (no spread; the fee is 0.1 %
 * of the closing notional). One transaction with the answer (ADR 0019).
 */
export async function closePosition(
  deps: Deps,
  userId: bigint,
  positionId: bigint,
  input: { quantity: string | null },
  idempotency?: IdempotentRequest<LeveragePosition>,
): Promise<LeveragePosition> {
  const requestedQuantity = input.quantity === null ? null : parseUserAmount(input.quantity, QUANTITY_SCALE, 'quantity');
  const now = deps.now();
  const nowMs = now.getTime();
  const tick = freshTick(deps, await symbolOf(deps.db, userId, positionId), nowMs);
  const view = await deps.db.transaction(async (tx) => {
    const row = await lockOpenPosition(tx, userId, positionId, () => tick.tickId);
    const quantity = toMinor(row.quantity_minor);
    const closeQuantity = requestedQuantity ?? quantity;
    if (closeQuantity > quantity) throw new AppError('AMOUNT_OUT_OF_RANGE', { field: 'quantity', max: row.quantity_minor });
    const accounts = await leveragePlatformAccounts(tx);
    const plan = planClose({
      row,
      kind: 'close',
      closeQuantityMinor: closeQuantity,
      fillPriceMinor: parsePriceMinor(tick.price),
      tick,
      accounts,
      vip: await vipTermsOfUser(tx, deps.config.VIP_LEVELS, userId),
      at: now,
    });
    // What stays open must still be able to stand: a part too small to hold any margin is refused
    // (close all instead).
    if (!plan.full && toMinor(row.margin_minor) - plan.marginTakenMinor === 0n) {
      throw new AppError('AMOUNT_OUT_OF_RANGE', { field: 'quantity', problem: 'remainder_too_small' });
    }
    await applyClosePlans(tx, [plan], nowMs);
    const closed = await findPosition(tx, userId, positionId);
    await idempotency?.answerInTransaction(tx, closed);
    return closed;
  });
  await publishToUser(deps, userId, { kind: 'leverage.position', positionId: view.id, status: view.status });
  return view;
}

/**
 * Adds margin from the available balance, or removes some back to it (down to the initial margin
 * and no more than equity above it at the mark price). The liquidation price is computed again.
 */
export async function changePositionMargin(
  deps: Deps,
  userId: bigint,
  positionId: bigint,
  input: { direction: 'add' | 'remove'; amount: string },
  idempotency?: IdempotentRequest<LeveragePosition>,
): Promise<LeveragePosition> {
  const amountMinor = parseUserAmount(input.amount, MARGIN_SCALE, 'amount');
  const now = deps.now();
  const nowMs = now.getTime();
  const symbol = await symbolOf(deps.db, userId, positionId);
  const tick = freshTick(deps, symbol, nowMs);
  let view: LeveragePosition;
  try {
    view = await deps.db.transaction(async (tx) => {
      const row = await lockOpenPosition(tx, userId, positionId, () => tick.tickId);
      const state = positionState(row);
      let entryId: bigint;
      let newMargin: bigint;
      if (input.direction === 'add') {
        entryId = await addToHold(tx, { holdId: row.hold_id, amountMinor, reason: 'leverage.margin_add', at: now });
        newMargin = state.marginMinor + amountMinor;
      } else {
        const mark = await markPriceNow(tx, symbol);
        const removable = removableMarginMinor(state, toMinor(row.initial_margin_minor), mark.priceMinor);
        if (amountMinor > removable) throw new AppError('AMOUNT_OUT_OF_RANGE', { field: 'amount', max: removable.toString(), scale: MARGIN_SCALE });
        ({ entryId } = await takeFromHold(tx, { holdId: row.hold_id, returnMinor: amountMinor, reason: 'leverage.margin_remove', at: now }));
        newMargin = state.marginMinor - amountMinor;
      }
      const liquidation = liquidationPriceMinor({ ...state, marginMinor: newMargin });
      await tx.query('UPDATE leverage_positions SET margin_minor = $2, liquidation_price = $3 WHERE id = $1', [
        positionId,
        newMargin.toString(),
        liquidation === null ? null : formatPriceMinor(liquidation),
      ]);
      await tx.query(
        `INSERT INTO leverage_position_events (position_id, kind, at_ms, margin_change_minor, entry_id) VALUES ($1, $2, $3, $4, $5)`,
        [positionId, input.direction === 'add' ? 'margin_add' : 'margin_remove', nowMs, (input.direction === 'add' ? amountMinor : -amountMinor).toString(), entryId],
      );
      const changed = await findPosition(tx, userId, positionId);
      await idempotency?.answerInTransaction(tx, changed);
      return changed;
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  await publishToUser(deps, userId, { kind: 'leverage.position', positionId: view.id, status: view.status });
  return view;
}

/** Sets or clears take-profit and stop-loss, checked against the last recorded price and the liquidation price. */
export async function setPositionTriggers(
  deps: Deps,
  userId: bigint,
  positionId: bigint,
  input: { takeProfitPrice: string | null; stopLossPrice: string | null },
): Promise<LeveragePosition> {
  const takeProfitPriceMinor = parseTriggerPrice(input.takeProfitPrice, 'takeProfitPrice');
  const stopLossPriceMinor = parseTriggerPrice(input.stopLossPrice, 'stopLossPrice');
  const nowMs = deps.now().getTime();
  const tick = freshTick(deps, await symbolOf(deps.db, userId, positionId), nowMs);
  const view = await deps.db.transaction(async (tx) => {
    const row = await lockOpenPosition(tx, userId, positionId, () => tick.tickId);
    const liquidation = row.liquidation_price === null ? null : parsePriceMinor(row.liquidation_price);
    const problem = triggerProblem(row.side, { takeProfitPriceMinor, stopLossPriceMinor }, parsePriceMinor(tick.price), liquidation);
    if (problem) throw new AppError('TRIGGER_PRICE_INVALID', { problem });
    const tp = takeProfitPriceMinor === null ? null : formatPriceMinor(takeProfitPriceMinor);
    const sl = stopLossPriceMinor === null ? null : formatPriceMinor(stopLossPriceMinor);
    await tx.query('UPDATE leverage_positions SET take_profit_price = $2, stop_loss_price = $3 WHERE id = $1', [positionId, tp, sl]);
    await tx.query(
      `INSERT INTO leverage_position_events (position_id, kind, at_ms, take_profit_price, stop_loss_price) VALUES ($1, 'triggers', $2, $3, $4)`,
      [positionId, nowMs, tp, sl],
    );
    return findPosition(tx, userId, positionId);
  });
  await publishToUser(deps, userId, { kind: 'leverage.position', positionId: view.id, status: view.status });
  return view;
}

