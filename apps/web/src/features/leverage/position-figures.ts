import type { LeveragePosition, LeveragePositionEvent } from '@keel/contracts';
import {
  closeSplit,
  formatPriceMinor,
  liquidationPriceMinor,
  MARGIN_SCALE,
  marginStateAt,
  notionalMinor,
  parseAmount,
  parsePriceMinor,
  partialShare,
  type PositionState,
  QUANTITY_SCALE,
  removableMarginMinor,
} from '@keel/domain';
import { bpsPercent, quantityMinorOf, quantityText, usdtMinorOf, usdtText } from './leverage-logic.ts';

/**
 * What a position row shows beyond what the server answered: its standing at the mark price
 * (unrealized PnL, equity, the maintenance margin and the margin ratio), what margin may be taken
 * back, and the previews of a margin change and a close — each by the domain function the server
 * uses for the same step, so a preview is what the server will do at the same prices.
 */

/** The domain's view of an open position. */
export function positionStateOf(position: Pick<LeveragePosition, 'product' | 'side' | 'quantity' | 'entryPrice' | 'margin'>): PositionState {
  return {
    product: position.product,
    side: position.side,
    quantityMinor: parseAmount(position.quantity, QUANTITY_SCALE),
    entryPriceMinor: parsePriceMinor(position.entryPrice),
    marginMinor: parseAmount(position.margin, MARGIN_SCALE),
  };
}

export interface PositionStanding {
  markPrice: string;
  unrealizedPnl: string;
  equity: string;
  maintenance: string;
  /** Maintenance ÷ equity in percent (100 % = liquidation); null when equity is zero or less. */
  marginRatioPercent: string | null;
  /** Margin that may be removed now: down to the initial margin, and no more than equity above it. */
  removableMargin: string;
}

/** Where an open position stands at a mark price. */
export function standingAt(position: LeveragePosition, markPrice: string): PositionStanding {
  const state = positionStateOf(position);
  const markMinor = parsePriceMinor(markPrice);
  const standing = marginStateAt(state, markMinor);
  return {
    markPrice,
    unrealizedPnl: usdtText(standing.unrealizedPnlMinor),
    equity: usdtText(standing.equityMinor),
    maintenance: usdtText(standing.maintenanceMinor),
    marginRatioPercent: standing.marginRatioBps === null ? null : bpsPercent(standing.marginRatioBps),
    removableMargin: usdtText(removableMarginMinor(state, parseAmount(position.initialMargin, MARGIN_SCALE), markMinor)),
  };
}

export interface MarginChangePreview {
  margin: string;
  liquidationPrice: string | null;
}

/**
 * The margin and liquidation price after adding or removing `amount` (a typed USDT amount); null
 * while the amount is not a positive USDT amount, or would remove all of the margin.
 */
export function marginChangePreview(position: LeveragePosition, direction: 'add' | 'remove', amount: string): MarginChangePreview | null {
  const amountMinor = usdtMinorOf(amount);
  if (amountMinor === null || amountMinor <= 0n) return null;
  const state = positionStateOf(position);
  const margin = direction === 'add' ? state.marginMinor + amountMinor : state.marginMinor - amountMinor;
  if (margin <= 0n) return null;
  const liquidation = liquidationPriceMinor({ ...state, marginMinor: margin });
  return { margin: usdtText(margin), liquidationPrice: liquidation === null ? null : formatPriceMinor(liquidation) };
}

export interface ClosePreview {
  quantity: string;
  full: boolean;
  /** The price the close would fill at: the last recorded price, no spread. */
  price: string;
  pnl: string;
  fee: string;
  /** What comes back to the available balance: the margin share plus PnL minus the fee (never below 0). */
  payout: string;
  /** The margin share the close takes. */
  marginTaken: string;
  /** The margin the rest keeps (a partial close). */
  marginLeft: string;
}

/**
 * A close of `quantity` (typed, base units; empty = all) at `lastPrice`: the margin share, PnL,
 * fee and payout as the server's close computes them (`partialShare`, `closeSplit`). Null when the
 * quantity is not a positive amount of 8 decimals, or more than is open.
 */
export function closePreview(position: LeveragePosition, quantity: string, lastPrice: string): ClosePreview | null {
  const state = positionStateOf(position);
  const closeMinor = quantity === '' ? state.quantityMinor : quantityMinorOf(quantity);
  if (closeMinor === null || closeMinor <= 0n || closeMinor > state.quantityMinor) return null;
  const { marginMinor: taken } = partialShare(state.quantityMinor, state.marginMinor, closeMinor);
  const priceMinor = parsePriceMinor(lastPrice);
  const split = closeSplit({
    kind: 'close',
    side: state.side,
    quantityMinor: closeMinor,
    entryPriceMinor: state.entryPriceMinor,
    priceMinor,
    marginMinor: taken,
  });
  return {
    quantity: quantityText(closeMinor),
    full: closeMinor === state.quantityMinor,
    price: formatPriceMinor(priceMinor),
    pnl: usdtText(split.pnlMinor),
    fee: usdtText(split.feeMinor),
    payout: usdtText(split.payoutMinor),
    marginTaken: usdtText(taken),
    marginLeft: usdtText(state.marginMinor - taken),
  };
}

/** What the position is worth at a price (quantity × price, rounded down to USDT minor units). */
export function notionalAt(position: Pick<LeveragePosition, 'quantity'>, price: string): string {
  return usdtText(notionalMinor(parseAmount(position.quantity, QUANTITY_SCALE), parsePriceMinor(price)));
}

/** Events that closed (part of) a position. */
export const closingKinds = ['close', 'take_profit', 'stop_loss', 'liquidation'] as const satisfies readonly LeveragePositionEvent['kind'][];
export const chargeKinds = ['funding', 'interest'] as const satisfies readonly LeveragePositionEvent['kind'][];

export function isClosingEvent(event: Pick<LeveragePositionEvent, 'kind'>): boolean {
  return (closingKinds as readonly string[]).includes(event.kind);
}

/** A funding or interest charge, with the position it was charged to. */
export interface ChargeRecord {
  position: Pick<LeveragePosition, 'id' | 'positionNo' | 'symbol' | 'side' | 'product'>;
  event: LeveragePositionEvent;
}

/**
 * Every funding and interest event of these positions, newest period first (then newest event):
 * the records a user checks a charge against. Each position's events as answered (a position's
 * detail carries all of them).
 */
export function chargeRecords(positions: readonly LeveragePosition[]): ChargeRecord[] {
  const seen = new Set<string>();
  const records: ChargeRecord[] = [];
  for (const position of positions) {
    for (const event of position.events) {
      if (!(chargeKinds as readonly string[]).includes(event.kind) || seen.has(event.id)) continue;
      seen.add(event.id);
      records.push({ position, event });
    }
  }
  const periodOf = (record: ChargeRecord) => record.event.periodAtMs ?? record.event.atMs;
  const newerId = (a: ChargeRecord, b: ChargeRecord) => {
    const [left, right] = [BigInt(a.event.id), BigInt(b.event.id)];
    return left > right ? -1 : left < right ? 1 : 0;
  };
  return records.sort((a, b) => periodOf(b) - periodOf(a) || newerId(a, b));
}
