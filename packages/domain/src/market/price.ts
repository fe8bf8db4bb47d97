import { formatAmount, parseAmount } from '../money/amount.ts';

/**
 * Prices (quote currency per one base unit) are kept with 8 decimals: finer than any exchange
 * quotes BTC/USDT or ETH/USDT, and exact in bigint arithmetic. A feed price with more decimals is
 * cut (towards zero) to this scale when recorded, so every stored and shown price is exact.
 */
export const PRICE_SCALE = 8;

/** Parses a recorded price ("91234.5") into units of 10⁻⁸. */
export function parsePriceMinor(text: string): bigint {
  return parseAmount(text, PRICE_SCALE);
}

/** Formats a price held in 10⁻⁸ units as a decimal string with 8 decimals. */
export function formatPriceMinor(minor: bigint): string {
  return formatAmount(minor, PRICE_SCALE);
}

/** Cuts a feed's decimal price to PRICE_SCALE decimals without rounding up; refuses non-positive or malformed text. */
export function normalizeFeedPrice(text: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a price: ${text}`);
  const fraction = (match[2] ?? '').slice(0, PRICE_SCALE);
  const minor = parseAmount(fraction ? `${match[1]}.${fraction}` : match[1]!, PRICE_SCALE);
  if (minor <= 0n) throw new RangeError(`not a positive price: ${text}`);
  return formatPriceMinor(minor);
}
