import {
  closePostings,
  closeSplit,
  type CloseSplit,
  formatPriceMinor,
  initialMarginMinor,
  liquidationPriceMinor,
  MARGIN_ASSET,
  mulDiv,
  partialShare,
  parsePriceMinor,
  discountFee,
  type VipTerms,
  discountMemo,
  formatAmount,
  notionalMinor as notionalOf,
  tradingFeeMinor,
  USDT_SCALE,
} from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { postEntriesTogether } from '../../persistence/ledger-bulk.store.ts';
import { type EntryInput, toMinor } from '../../persistence/ledger.store.ts';
import type { LeveragePlatformAccounts } from './leverage-support.ts';
import type { PositionRow } from './position-views.ts';

export type CloseEventKind = 'close' | 'take_profit' | 'stop_loss' | 'liquidation';

/** The recorded tick a close used, as copied into its event. */
export interface UsedTick {
  tickId: bigint;
  price: string;
  atMs: number;
  source: string;
}

/** Everything one close changes, computed before anything is written (ADR 0034). */
export interface ClosePlan {
  row: PositionRow;
  kind: CloseEventKind;
  closeQuantityMinor: bigint;
  full: boolean;
  marginTakenMinor: bigint;
  entryNotionalTakenMinor: bigint;
  fillPriceMinor: bigint;
  tick: UsedTick;
  markTickIds: bigint[] | null;
  split: CloseSplit;
  /** For a partial close: the rest's new liquidation price. */
  remainingLiquidationPrice: bigint | null;
  remainingInitialMarginMinor: bigint;
  entry: EntryInput;
}

/**
 * Plans closing `closeQuantityMinor` of an open position (all of it when equal to its quantity) at
 * `fillPriceMinor` — the tick's price for a close, take-profit or stop-loss; the mark price for a
 * liquidation. The margin share, entry notional and initial margin of the closed part go in
 * proportion; the split of the margin follows the domain rule (closeSplit); the journal entry is
 * keyed by `idempotencyKey` when given (the trigger engine keys each position's one close).
 */
export function planClose(input: {
  row: PositionRow;
  kind: CloseEventKind;
  closeQuantityMinor: bigint;
  fillPriceMinor: bigint;
  tick: UsedTick;
  markTickIds?: bigint[];
  accounts: LeveragePlatformAccounts;
  idempotencyKey?: string;
  /** The owner's VIP level now: its discount comes off a close's trading fee (ADR 0046). Level 0 when absent. */
  vip?: VipTerms;
  at: Date;
}): ClosePlan {
  const { row, kind, closeQuantityMinor, fillPriceMinor, tick, accounts } = input;
  const quantity = toMinor(row.quantity_minor);
  const margin = toMinor(row.margin_minor);
  const entryNotional = toMinor(row.entry_notional_minor);
  const full = closeQuantityMinor === quantity;
  const { marginMinor: marginTakenMinor } = partialShare(quantity, margin, closeQuantityMinor);
  const entryNotionalTakenMinor = full ? entryNotional : mulDiv(entryNotional, closeQuantityMinor, quantity, 'floor');
  const entryPriceMinor = parsePriceMinor(row.entry_price);
  const split = closeSplit({
    kind: kind === 'liquidation' ? 'liquidation' : 'close',
    side: row.side,
    quantityMinor: closeQuantityMinor,
    entryPriceMinor,
    priceMinor: fillPriceMinor,
    marginMinor: marginTakenMinor,
    vip: input.vip,
  });
  // A discounted trading fee is named in the entry's memo: before, the discount, charged (ADR 0046).
  const discounted = kind !== 'liquidation' && input.vip && input.vip.feeDiscountBps > 0 ? discountFee(tradingFeeMinor(notionalOf(closeQuantityMinor, fillPriceMinor)), input.vip) : null;
  const vipMemo =
    discounted && discounted.feeMinor === split.feeMinor ? discountMemo(discounted, (minor) => `${formatAmount(minor, USDT_SCALE)} ${MARGIN_ASSET}`) : '';
  const remainingQuantity = quantity - closeQuantityMinor;
  const remainingMargin = margin - marginTakenMinor;
  const remainingLiquidationPrice = full
    ? null
    : liquidationPriceMinor({ product: row.product, side: row.side, quantityMinor: remainingQuantity, entryPriceMinor, marginMinor: remainingMargin });
  const remainingInitialMarginMinor = full ? 0n : initialMarginMinor(entryNotional - entryNotionalTakenMinor, row.leverage);
  return {
    row,
    kind,
    closeQuantityMinor,
    full,
    marginTakenMinor,
    entryNotionalTakenMinor,
    fillPriceMinor,
    tick,
    markTickIds: input.markTickIds ?? null,
    split,
    remainingLiquidationPrice,
    remainingInitialMarginMinor,
    entry: {
      reason: `leverage.${kind}`,
      referenceType: 'leverage_position',
      referenceId: row.id.toString(),
      idempotencyKey: input.idempotencyKey,
      memo: `${row.position_no} ${kind} ${formatPriceMinor(fillPriceMinor)}${vipMemo ? ` · ${vipMemo}` : ''}`,
      postings: closePostings({ ...accounts, userAccountId: row.account_id, asset: MARGIN_ASSET }, marginTakenMinor, split),
      at: input.at,
    },
  };
}

const CLOSE_REASON: Record<CloseEventKind, string> = { close: 'user', take_profit: 'take_profit', stop_loss: 'stop_loss', liquidation: 'liquidation' };

/**
 * Writes planned closes of positions the caller has locked (FOR UPDATE) inside its transaction, in
 * a fixed number of statements whatever their number: the journal entries (postEntriesTogether:
 * accounts locked in ascending id order, every entry checked, all or none), the margin holds, the
 * positions, their events and the house's exposure. Returns the entry id of each plan, in order.
 */
export async function applyClosePlans(tx: Queryable, plans: readonly ClosePlan[], nowMs: number): Promise<bigint[]> {
  if (plans.length === 0) return [];
  // Exposure first: the lock order is cursor → position → exposure → ledger.
  const exposure = new Map<string, { symbol: string; side: string; minor: bigint }>();
  for (const plan of plans) {
    const key = `${plan.row.symbol}|${plan.row.side}`;
    const current = exposure.get(key) ?? { symbol: plan.row.symbol, side: plan.row.side, minor: 0n };
    current.minor += plan.entryNotionalTakenMinor;
    exposure.set(key, current);
  }
  const lowered = [...exposure.values()].sort((a, b) => (a.symbol + a.side < b.symbol + b.side ? -1 : 1));
  await tx.query(
    `UPDATE leverage_exposures e SET open_notional_minor = e.open_notional_minor - c.minor
     FROM unnest($1::text[], $2::text[], $3::numeric[]) AS c(symbol, side, minor) WHERE e.symbol = c.symbol AND e.side = c.side`,
    [lowered.map((each) => each.symbol), lowered.map((each) => each.side), lowered.map((each) => each.minor.toString())],
  );

  const posted = await postEntriesTogether(tx, plans.map((plan) => plan.entry));
  if (posted.some((entry) => entry.replayed)) throw new Error('an open position already has the close entry being posted');
  const entryIds = posted.map((entry) => entry.entryId);

  await tx.query(
    `UPDATE ledger_holds h
     SET amount_minor = CASE WHEN c.is_full THEN h.amount_minor ELSE h.amount_minor - c.taken END,
         status = CASE WHEN c.is_full THEN 'posted' ELSE h.status END,
         closed_entry_id = CASE WHEN c.is_full THEN c.entry_id ELSE h.closed_entry_id END,
         closed_at = CASE WHEN c.is_full THEN $5::timestamptz ELSE h.closed_at END
     FROM unnest($1::bigint[], $2::numeric[], $3::boolean[], $4::bigint[]) AS c(hold_id, taken, is_full, entry_id)
     WHERE h.id = c.hold_id AND h.status = 'open'`,
    [
      plans.map((plan) => plan.row.hold_id.toString()),
      plans.map((plan) => plan.marginTakenMinor.toString()),
      plans.map((plan) => plan.full),
      entryIds.map(String),
      new Date(nowMs),
    ],
  );

  await tx.query(
    `UPDATE leverage_positions p SET
       quantity_minor = p.quantity_minor - c.quantity,
       margin_minor = p.margin_minor - c.margin,
       entry_notional_minor = p.entry_notional_minor - c.notional,
       initial_margin_minor = c.initial_margin,
       liquidation_price = c.liquidation_price,
       realized_pnl_minor = p.realized_pnl_minor + c.pnl,
       fees_minor = p.fees_minor + c.fee,
       status = c.status,
       close_reason = c.close_reason,
       closed_at_ms = c.closed_at_ms,
       take_profit_price = CASE WHEN c.is_full THEN NULL ELSE p.take_profit_price END,
       stop_loss_price = CASE WHEN c.is_full THEN NULL ELSE p.stop_loss_price END
     FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[],
                 $9::text[], $10::text[], $11::bigint[], $12::boolean[])
       AS c(id, quantity, margin, notional, initial_margin, liquidation_price, pnl, fee, status, close_reason, closed_at_ms, is_full)
     WHERE p.id = c.id AND p.status = 'open'`,
    [
      plans.map((plan) => plan.row.id.toString()),
      plans.map((plan) => plan.closeQuantityMinor.toString()),
      plans.map((plan) => plan.marginTakenMinor.toString()),
      plans.map((plan) => plan.entryNotionalTakenMinor.toString()),
      plans.map((plan) => plan.remainingInitialMarginMinor.toString()),
      plans.map((plan) => (plan.remainingLiquidationPrice === null ? null : formatPriceMinor(plan.remainingLiquidationPrice))),
      plans.map((plan) => plan.split.pnlMinor.toString()),
      plans.map((plan) => plan.split.feeMinor.toString()),
      plans.map((plan) => (plan.full ? (plan.kind === 'liquidation' ? 'liquidated' : 'closed') : 'open')),
      plans.map((plan) => (plan.full ? CLOSE_REASON[plan.kind] : null)),
      plans.map((plan) => (plan.full ? String(nowMs) : null)),
      plans.map((plan) => plan.full),
    ],
  );

  await tx.query(
    `INSERT INTO leverage_position_events (position_id, kind, at_ms, quantity_minor, price, tick_id, tick_price, tick_at_ms, tick_source,
       mark_tick_ids, pnl_minor, fee_minor, insurance_minor, payout_minor, margin_change_minor, entry_id)
     SELECT c.position_id, c.kind, $1, c.quantity, c.price, c.tick_id, c.tick_price, c.tick_at_ms, c.tick_source,
       CASE WHEN c.mark_tick_ids IS NULL THEN NULL ELSE string_to_array(c.mark_tick_ids, ',')::bigint[] END,
       c.pnl, c.fee, c.insurance, c.payout, c.margin_change, c.entry_id
     FROM unnest($2::bigint[], $3::text[], $4::numeric[], $5::numeric[], $6::bigint[], $7::numeric[], $8::bigint[], $9::text[], $10::text[],
                 $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[], $15::numeric[], $16::bigint[])
       AS c(position_id, kind, quantity, price, tick_id, tick_price, tick_at_ms, tick_source, mark_tick_ids, pnl, fee, insurance, payout,
            margin_change, entry_id)`,
    [
      nowMs,
      plans.map((plan) => plan.row.id.toString()),
      plans.map((plan) => plan.kind),
      plans.map((plan) => plan.closeQuantityMinor.toString()),
      plans.map((plan) => formatPriceMinor(plan.fillPriceMinor)),
      plans.map((plan) => plan.tick.tickId.toString()),
      plans.map((plan) => plan.tick.price),
      plans.map((plan) => String(plan.tick.atMs)),
      plans.map((plan) => plan.tick.source),
      plans.map((plan) => (plan.markTickIds ? plan.markTickIds.join(',') : null)),
      plans.map((plan) => plan.split.pnlMinor.toString()),
      plans.map((plan) => plan.split.feeMinor.toString()),
      plans.map((plan) => plan.split.insuranceMinor.toString()),
      plans.map((plan) => plan.split.payoutMinor.toString()),
      plans.map((plan) => (-plan.marginTakenMinor).toString()),
      entryIds.map(String),
    ],
  );
  return entryIds;
}
