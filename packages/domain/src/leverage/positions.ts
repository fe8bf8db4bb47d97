import { feeOf, mulDiv } from '../money/amount.ts';
import { discountFee, type VipTerms } from '../vip/levels.ts';
import { bracketOf, type LeverageProduct, maintenanceMarginMinor, maxLeverageOf, NOTIONAL_BRACKETS } from './brackets.ts';

/**
 * The arithmetic of an isolated-margin position (ADR 0034). Units: margin, notional, PnL and fees
 * in USDT minor units (10⁻⁶); prices in 10⁻⁸ USDT per base unit; quantities in 10⁻⁸ base units.
 * So quantity × price is in 10⁻¹⁶ USDT, and dividing by 10¹⁰ gives USDT minor units.
 */
export type PositionSide = 'long' | 'short';

const QTY_PRICE_TO_USDT_MINOR = 10_000_000_000n;

/** The published trading fee: 0.1 % of the notional, charged on opening and on every close. */
export const TRADING_FEE_BPS = 10n;
/** The published spread on market orders that open: a long buys 0.05 % above the recorded price, a short sells 0.05 % below. */
export const OPEN_SPREAD_BPS = 5n;
/** The published liquidation fee: 0.5 % of the notional at the liquidation's mark price, to the insurance fund, at most what is left of the margin. */
export const LIQUIDATION_FEE_BPS = 5n * 10n;

/** What a quantity is worth at a price, rounded down to the USDT minor unit. */
export function notionalMinor(quantityMinor: bigint, priceMinor: bigint): bigint {
  return (quantityMinor * priceMinor) / QTY_PRICE_TO_USDT_MINOR;
}

/** The fill price of a market order that opens: the recorded price with the published spread against the taker, rounded against the taker. */
export function openFillPriceMinor(side: PositionSide, recordedPriceMinor: bigint): bigint {
  return side === 'long'
    ? mulDiv(recordedPriceMinor, 10_000n + OPEN_SPREAD_BPS, 10_000n, 'ceil')
    : mulDiv(recordedPriceMinor, 10_000n - OPEN_SPREAD_BPS, 10_000n, 'floor');
}

/** The trading fee on a notional (rounded up, like every fee). */
export function tradingFeeMinor(notional: bigint): bigint {
  return feeOf(notional, TRADING_FEE_BPS);
}

/**
 * The profit (or, negative, the loss) of a quantity opened at `entryPriceMinor` if closed at
 * `priceMinor`, rounded towards −∞: the user is never credited a fraction the move did not make.
 */
export function pnlMinor(side: PositionSide, quantityMinor: bigint, entryPriceMinor: bigint, priceMinor: bigint): bigint {
  const move = side === 'long' ? priceMinor - entryPriceMinor : entryPriceMinor - priceMinor;
  return mulDiv(quantityMinor, move, QTY_PRICE_TO_USDT_MINOR, 'floor');
}

export type OpenProblem = 'leverage_out_of_range' | 'leverage_above_bracket' | 'notional_too_large' | 'quantity_zero';

export interface OpenQuote {
  fillPriceMinor: bigint;
  /** margin × leverage: what the position is worth at opening, and what the fee is charged on. */
  notionalMinor: bigint;
  quantityMinor: bigint;
  /** The fee charged: the trading fee rounded up, less the VIP discount rounded down (ADR 0046). */
  feeMinor: bigint;
  feeBeforeDiscountMinor: bigint;
  vipLevel: number;
  vipDiscountBps: number;
  /** Margin plus fee: what the order takes from the available balance. */
  costMinor: bigint;
  /** The bracket's limit at this notional, shown beside the leverage slider. */
  bracketMaxLeverage: number;
  liquidationPriceMinor: bigint | null;
}

/**
 * What an order that opens would be, before it is confirmed (the order form shows this, and the
 * server opens exactly this): notional = margin × leverage, quantity = notional ÷ fill price
 * rounded down, the fee on the notional, the liquidation price. Refuses a leverage outside the
 * product's range, above the bracket the notional falls in, a notional above the last bracket, or a
 * margin too small to buy one quantity unit.
 */
export function quoteOpen(input: {
  product: LeverageProduct;
  side: PositionSide;
  marginMinor: bigint;
  leverage: number;
  fillPriceMinor: bigint;
  /** The user's VIP level now; level 0 when absent. */
  vip?: VipTerms;
}): { ok: true; quote: OpenQuote } | { ok: false; problem: OpenProblem; maxLeverage?: number } {
  const { product, side, marginMinor, leverage, fillPriceMinor } = input;
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > maxLeverageOf(product)) {
    return { ok: false, problem: 'leverage_out_of_range', maxLeverage: maxLeverageOf(product) };
  }
  if (marginMinor <= 0n || fillPriceMinor <= 0n) throw new RangeError('margin and price are positive');
  const notional = marginMinor * BigInt(leverage);
  const bracket = bracketOf(product, notional);
  if (!bracket) return { ok: false, problem: 'notional_too_large', maxLeverage: NOTIONAL_BRACKETS[product].at(-1)!.maxLeverage };
  if (leverage > bracket.maxLeverage) return { ok: false, problem: 'leverage_above_bracket', maxLeverage: bracket.maxLeverage };
  const quantityMinor = (notional * QTY_PRICE_TO_USDT_MINOR) / fillPriceMinor;
  if (quantityMinor === 0n) return { ok: false, problem: 'quantity_zero' };
  const fee = discountFee(tradingFeeMinor(notional), input.vip);
  const feeMinor = fee.feeMinor;
  return {
    ok: true,
    quote: {
      fillPriceMinor,
      notionalMinor: notional,
      quantityMinor,
      feeMinor,
      feeBeforeDiscountMinor: fee.feeBeforeDiscountMinor,
      vipLevel: fee.level,
      vipDiscountBps: fee.discountBps,
      costMinor: marginMinor + feeMinor,
      bracketMaxLeverage: bracket.maxLeverage,
      liquidationPriceMinor: liquidationPriceMinor({ product, side, quantityMinor, entryPriceMinor: fillPriceMinor, marginMinor }),
    },
  };
}

export interface PositionState {
  product: LeverageProduct;
  side: PositionSide;
  quantityMinor: bigint;
  entryPriceMinor: bigint;
  /** The isolated margin now held for the position (changes with add/remove, funding, interest). */
  marginMinor: bigint;
}

/**
 * The isolated-margin liquidation price: the price P at which equity (margin + PnL at P) equals the
 * maintenance margin at P (notional at P × rate − amount of the bracket that notional falls in).
 *   long:  P = (Q·E − M − c) ÷ (Q·(1 − r))
 *   short: P = (Q·E + M + c) ÷ (Q·(1 + r))
 * Solved per bracket; the answer is the bracket whose notional range holds Q·P (the maintenance
 * margin is continuous across brackets, so one does). Rounded in the user's favour (a long's
 * down, a short's up). Null when no positive price liquidates (a long at 1x cannot lose more than
 * its margin before the price reaches zero).
 */
export function liquidationPriceMinor(position: PositionState): bigint | null {
  const { product, side, quantityMinor: q, entryPriceMinor: e, marginMinor: m } = position;
  if (q <= 0n) throw new RangeError('a position has a positive quantity');
  const brackets = NOTIONAL_BRACKETS[product];
  let fallback: bigint | null = null;
  for (let index = 0; index < brackets.length; index += 1) {
    const bracket = brackets[index]!;
    const rate = BigInt(bracket.maintenanceRateBps);
    const c = bracket.maintenanceAmountMinor;
    let price: bigint;
    if (side === 'long') {
      const numerator = (q * e - (m + c) * QTY_PRICE_TO_USDT_MINOR) * 10_000n;
      if (numerator <= 0n) {
        // No positive price for this bracket; the lowest bracket decides whether any exists.
        if (index === 0) return null;
        continue;
      }
      price = mulDiv(numerator, 1n, q * (10_000n - rate), 'floor');
    } else {
      price = mulDiv((q * e + (m + c) * QTY_PRICE_TO_USDT_MINOR) * 10_000n, 1n, q * (10_000n + rate), 'ceil');
    }
    if (price <= 0n) continue;
    const notional = notionalMinor(q, price);
    const floor = index === 0 ? -1n : brackets[index - 1]!.upToMinor;
    const isLast = index === brackets.length - 1;
    if (notional > floor && (notional <= bracket.upToMinor || isLast)) return price;
    fallback ??= price;
  }
  return fallback;
}

export interface MarginState {
  /** Margin + unrealized PnL at the mark price. */
  equityMinor: bigint;
  unrealizedPnlMinor: bigint;
  maintenanceMinor: bigint;
  /** Maintenance ÷ equity in basis points (10,000 = liquidation); null when equity is zero or less. */
  marginRatioBps: bigint | null;
}

/** Where a position stands at a mark price: equity, the margin it must keep, and their ratio. */
export function marginStateAt(position: PositionState, markPriceMinor: bigint): MarginState {
  const unrealizedPnlMinor = pnlMinor(position.side, position.quantityMinor, position.entryPriceMinor, markPriceMinor);
  const equityMinor = position.marginMinor + unrealizedPnlMinor;
  const maintenanceMinor = maintenanceMarginMinor(position.product, notionalMinor(position.quantityMinor, markPriceMinor));
  const marginRatioBps = equityMinor > 0n ? mulDiv(maintenanceMinor, 10_000n, equityMinor, 'ceil') : null;
  return { equityMinor, unrealizedPnlMinor, maintenanceMinor, marginRatioBps };
}

/** Whether a mark price has reached a liquidation price (a long's from above, a short's from below). */
export function liquidationCrossed(side: PositionSide, liquidationPrice: bigint | null, markPriceMinor: bigint): boolean {
  if (liquidationPrice === null) return false;
  return side === 'long' ? markPriceMinor <= liquidationPrice : markPriceMinor >= liquidationPrice;
}

/** Whether a price reached a take-profit (a long's from below, a short's from above). */
export function takeProfitCrossed(side: PositionSide, takeProfitPriceMinor: bigint | null, priceMinor: bigint): boolean {
  if (takeProfitPriceMinor === null) return false;
  return side === 'long' ? priceMinor >= takeProfitPriceMinor : priceMinor <= takeProfitPriceMinor;
}

/** Whether a price reached a stop-loss (a long's from above, a short's from below). */
export function stopLossCrossed(side: PositionSide, stopLossPriceMinor: bigint | null, priceMinor: bigint): boolean {
  if (stopLossPriceMinor === null) return false;
  return side === 'long' ? priceMinor <= stopLossPriceMinor : priceMinor >= stopLossPriceMinor;
}

export type TriggerProblem = 'take_profit_wrong_side' | 'stop_loss_wrong_side' | 'stop_loss_beyond_liquidation';

/**
 * Checks take-profit and stop-loss prices against the price now: a take-profit must be on the
 * profitable side and a stop-loss on the losing side (one already crossed would fire at once, which
 * is a market close, not a trigger); a stop-loss past the liquidation price could never fire.
 */
export function triggerProblem(
  side: PositionSide,
  prices: { takeProfitPriceMinor: bigint | null; stopLossPriceMinor: bigint | null },
  priceNowMinor: bigint,
  liquidationPrice: bigint | null,
): TriggerProblem | null {
  const { takeProfitPriceMinor: tp, stopLossPriceMinor: sl } = prices;
  if (tp !== null && (tp <= 0n || takeProfitCrossed(side, tp, priceNowMinor))) return 'take_profit_wrong_side';
  if (sl !== null && (sl <= 0n || stopLossCrossed(side, sl, priceNowMinor))) return 'stop_loss_wrong_side';
  if (sl !== null && liquidationPrice !== null && liquidationCrossed(side, liquidationPrice, sl)) return 'stop_loss_beyond_liquidation';
  return null;
}

/**
 * The initial margin of a position: its entry notional ÷ its leverage, rounded up. Margin can be
 * removed only down to this, and only while equity at the mark stays above it too.
 */
export function initialMarginMinor(entryNotionalMinor: bigint, leverage: number): bigint {
  return mulDiv(entryNotionalMinor, 1n, BigInt(leverage), 'ceil');
}

/** How much margin may be taken back now: down to the initial margin, and no more than equity above it. */
export function removableMarginMinor(position: PositionState, initialMargin: bigint, markPriceMinor: bigint): bigint {
  const { equityMinor } = marginStateAt(position, markPriceMinor);
  const byMargin = position.marginMinor - initialMargin;
  const byEquity = equityMinor - initialMargin;
  const removable = byMargin < byEquity ? byMargin : byEquity;
  return removable > 0n ? removable : 0n;
}
