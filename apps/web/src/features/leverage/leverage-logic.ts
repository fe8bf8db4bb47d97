import {
  AmountError,
  bracketOf,
  formatAmount,
  formatPriceMinor,
  type LeverageProduct,
  MARGIN_SCALE,
  maxLeverageOf,
  type OpenProblem,
  openFillPriceMinor,
  parseAmount,
  parsePriceMinor,
  type PositionSide,
  PRICE_SCALE,
  QUANTITY_SCALE,
  quoteOpen,
  triggerProblem,
  type TriggerProblem,
} from '@keel/domain';
import { symbolFromId, symbolId } from '../options/options-logic.ts';

/**
 * The pure rules of the leveraged and futures trade screens (issue 16): which product and market an
 * address names, the leverage the slider may offer, and what an order that opens would be — the
 * fill price with the published spread, notional, quantity, fee, cost and liquidation price —
 * computed by the domain functions the server opens with (`quoteOpen`, `openFillPriceMinor`), so
 * the form shows exactly what the server will do at the same recorded price. Money stays bigint
 * minor units here and decimal strings on the way out; nothing is a JS number but the leverage.
 */

export type { LeverageProduct, PositionSide };
export { leveragePath, type TradeProduct, tradeProductOf } from './trade-products.ts';

/** Where the market chosen last on a leverage screen is remembered on the device. */
export const LAST_LEVERAGE_SYMBOL_KEY = 'leverage-symbol';

/**
 * The market a leverage screen shows: the one `?symbol=` names — `BTC/USDT` or `BTCUSDT`, any case —
 * (`notFound` when it names none), else the remembered one if still listed, else the first listed.
 * Null when nothing is listed.
 */
export function chooseLeverageSymbol(param: string | null, symbols: readonly string[], remembered: string | null): string | 'notFound' | null {
  if (param !== null && param !== '') return symbolFromId(symbolId(param), symbols) ?? 'notFound';
  if (remembered !== null && symbols.includes(remembered)) return remembered;
  return symbols[0] ?? null;
}

/** USDT minor units as the API writes them (6 decimals). */
export const usdtText = (minor: bigint) => formatAmount(minor, MARGIN_SCALE);
/** Base-asset quantity minor units as the API writes them (8 decimals). */
export const quantityText = (minor: bigint) => formatAmount(minor, QUANTITY_SCALE);
export { formatPriceMinor as priceText };

/** A typed USDT amount in minor units, or null when it is not one (empty, malformed, too many decimals). */
export function usdtMinorOf(text: string): bigint | null {
  return minorOf(text, MARGIN_SCALE);
}

/** A typed price (up to 8 decimals) in minor units, or null when it is not one. */
export function priceMinorOf(text: string): bigint | null {
  return minorOf(text, PRICE_SCALE);
}

/** A typed quantity (up to 8 decimals) in minor units, or null when it is not one. */
export function quantityMinorOf(text: string): bigint | null {
  return minorOf(text, QUANTITY_SCALE);
}

function minorOf(text: string, scale: number): bigint | null {
  if (text === '') return null;
  try {
    return parseAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

export interface LeverageCap {
  /** The highest leverage the slider offers: the product's, lowered to what the bracket of margin × leverage allows; 0 when even 1x is too large. */
  max: number;
  /** The product's own highest leverage. */
  productMax: number;
  /** True when the bracket of the notional, not the product, sets `max`. */
  byBracket: boolean;
}

/**
 * The leverage a margin may take: the largest L ≤ the product's maximum whose notional (margin × L)
 * falls in a bracket allowing L. The allowed leverages are always 1…max (a lower leverage has a
 * smaller notional, whose bracket allows at least as much). Without a margin, the product's maximum.
 */
export function leverageCap(product: LeverageProduct, marginMinor: bigint | null): LeverageCap {
  const productMax = maxLeverageOf(product);
  if (marginMinor === null || marginMinor <= 0n) return { max: productMax, productMax, byBracket: false };
  for (let leverage = productMax; leverage >= 1; leverage -= 1) {
    const bracket = bracketOf(product, marginMinor * BigInt(leverage));
    if (bracket && leverage <= bracket.maxLeverage) return { max: leverage, productMax, byBracket: leverage < productMax };
  }
  return { max: 0, productMax, byBracket: true };
}

/** A leverage kept within 1…cap (the slider's value after the margin changed). */
export function clampLeverage(leverage: number, cap: LeverageCap): number {
  return Math.max(1, Math.min(Math.trunc(leverage), Math.max(1, cap.max)));
}

/** A market order opens at the last recorded price with the spread; a limit order waits for a recorded tick reaching its limit. */
export type OrderType = 'market' | 'limit';

export interface OrderQuote {
  type: OrderType;
  /** The price take-profit and stop-loss are checked against: the last recorded price (market), the limit price (limit). */
  referencePrice: string;
  /** The fill price: the last price with the spread (market); the limit price, the worst a limit order can fill at (limit). */
  fillPrice: string;
  notional: string;
  quantity: string;
  fee: string;
  margin: string;
  /** Margin plus fee: what opening takes from the available balance. */
  cost: string;
  /** Null: no positive price liquidates the position. */
  liquidationPrice: string | null;
  liquidationPriceMinor: bigint | null;
  bracketMaxLeverage: number;
}

export type OrderPreview =
  | { kind: 'incomplete' }
  | { kind: 'noPrice' }
  | { kind: 'problem'; problem: OpenProblem; maxLeverage?: number }
  | { kind: 'quote'; quote: OrderQuote };

/**
 * What opening would be, as the server quotes it: a market order at `lastPrice` (the last recorded
 * price the screen has) with the published spread; a limit order at its limit price (the server
 * checks a limit order there: it fills at the tick reaching it, with the spread, never worse than
 * the limit). Incomplete while the margin (or the limit price) is not a positive amount; otherwise
 * the domain's quote, or the reason the server would refuse it.
 */
export function orderPreview(input: {
  product: LeverageProduct;
  side: PositionSide;
  margin: string;
  leverage: number;
  lastPrice: string | null;
  type?: OrderType;
  limitPrice?: string;
}): OrderPreview {
  const type = input.type ?? 'market';
  const marginMinor = usdtMinorOf(input.margin);
  if (marginMinor === null || marginMinor <= 0n) return { kind: 'incomplete' };
  let referenceMinor: bigint;
  let fillPriceMinor: bigint;
  if (type === 'limit') {
    const limitMinor = priceMinorOf(input.limitPrice ?? '');
    if (limitMinor === null || limitMinor <= 0n) return { kind: 'incomplete' };
    referenceMinor = limitMinor;
    fillPriceMinor = limitMinor;
  } else {
    if (input.lastPrice === null) return { kind: 'noPrice' };
    referenceMinor = parsePriceMinor(input.lastPrice);
    if (referenceMinor <= 0n) return { kind: 'noPrice' };
    fillPriceMinor = openFillPriceMinor(input.side, referenceMinor);
  }
  const result = quoteOpen({ product: input.product, side: input.side, marginMinor, leverage: input.leverage, fillPriceMinor });
  if (!result.ok) return { kind: 'problem', problem: result.problem, ...(result.maxLeverage === undefined ? {} : { maxLeverage: result.maxLeverage }) };
  const { quote } = result;
  return {
    kind: 'quote',
    quote: {
      type,
      referencePrice: formatPriceMinor(referenceMinor),
      fillPrice: formatPriceMinor(quote.fillPriceMinor),
      notional: usdtText(quote.notionalMinor),
      quantity: quantityText(quote.quantityMinor),
      fee: usdtText(quote.feeMinor),
      margin: usdtText(marginMinor),
      cost: usdtText(quote.costMinor),
      liquidationPrice: quote.liquidationPriceMinor === null ? null : formatPriceMinor(quote.liquidationPriceMinor),
      liquidationPriceMinor: quote.liquidationPriceMinor,
      bracketMaxLeverage: quote.bracketMaxLeverage,
    },
  };
}

/**
 * The take-profit and stop-loss a form holds, checked as the server checks them: against the
 * reference price (the last recorded price; a limit order's limit) and the liquidation price. Empty texts are "none"; a text that is not a price above
 * zero is left to the field's own format check.
 */
export function triggerPricesProblem(
  side: PositionSide,
  texts: { takeProfitPrice: string; stopLossPrice: string },
  referencePrice: string,
  liquidationPriceMinor: bigint | null,
): TriggerProblem | null {
  const positive = (minor: bigint | null) => (minor !== null && minor > 0n ? minor : null);
  const takeProfitPriceMinor = positive(priceMinorOf(texts.takeProfitPrice));
  const stopLossPriceMinor = positive(priceMinorOf(texts.stopLossPrice));
  return triggerProblem(side, { takeProfitPriceMinor, stopLossPriceMinor }, parsePriceMinor(referencePrice), liquidationPriceMinor);
}

/** Basis points as a percent with two decimals ("1010" → "10.10"), for the margin ratio. */
export function bpsPercent(bps: bigint): string {
  return formatAmount(bps, 2);
}

/** A rate in parts per million as a percent ("100" → "0.01", "-25" → "-0.0025"). */
export function ppmPercent(ppm: number): string {
  return formatAmount(BigInt(ppm), 4).replace(/(\.\d*?[1-9])0+$/, '$1').replace(/\.0+$/, '');
}

/** Seconds of a duration given in ms, as text ("30000" → "30", "1500" → "1.5"). */
export function secondsText(ms: number): string {
  return formatAmount(BigInt(ms), 3).replace(/(\.\d*?[1-9])0+$/, '$1').replace(/\.0+$/, '');
}
