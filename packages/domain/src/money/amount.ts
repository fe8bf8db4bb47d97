/**
 * Money is an integer count of an asset's smallest unit (`bigint`), with a fixed scale per asset
 * (ADR 0004). This module is the one place that parses, formats and rounds amounts: payouts to
 * users round down (floor), fees round up (ceil), so rounding never favours the platform's books
 * over the user's balance in a way that creates money.
 */

/** Why an amount text was refused; the server maps every case to "wrong amount". */
export type AmountProblem = 'format' | 'too_many_decimals' | 'too_large' | 'not_positive';

export class AmountError extends Error {
  readonly problem: AmountProblem;
  constructor(problem: AmountProblem, text: string) {
    super(`amount "${text.slice(0, 60)}" refused: ${problem}`);
    this.name = 'AmountError';
    this.problem = problem;
  }
}

/** Largest scale we accept (ETH has 18). */
export const MAX_SCALE = 18;
/** Digits before the point; far above any real balance, small enough to bound the work. */
const MAX_WHOLE_DIGITS = 30;

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

function assertScale(scale: number) {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new RangeError(`bad scale ${scale}`);
}

/**
 * Parses a non-negative decimal string ("12.5", "0.000001") into minor units at `scale`.
 * Refuses signs, exponents, spaces, commas, and more decimals than the scale: a user asking to
 * move 0.0000001 USDT is told the amount is wrong, never silently rounded.
 */
export function parseAmount(text: string, scale: number): bigint {
  assertScale(scale);
  const match = DECIMAL_TEXT.exec(text);
  if (!match) throw new AmountError('format', text);
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (whole.replace(/^0+(?=\d)/, '').length > MAX_WHOLE_DIGITS) throw new AmountError('too_large', text);
  const significantFraction = fraction.replace(/0+$/, '');
  if (significantFraction.length > scale) throw new AmountError('too_many_decimals', text);
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt(significantFraction.padEnd(scale, '0') || '0');
}

/** Like parseAmount, and the amount must be above zero (every movement moves something). */
export function parsePositiveAmount(text: string, scale: number): bigint {
  const minor = parseAmount(text, scale);
  if (minor <= 0n) throw new AmountError('not_positive', text);
  return minor;
}

/** Formats minor units as a decimal string with exactly `scale` decimals ("12.500000"). */
export function formatAmount(minor: bigint, scale: number): string {
  assertScale(scale);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

export type Rounding = 'floor' | 'ceil';

/** a × b ÷ c, rounded as asked (towards −∞ or +∞), exact for any sizes. */
export function mulDiv(a: bigint, b: bigint, c: bigint, rounding: Rounding): bigint {
  if (c === 0n) throw new RangeError('division by zero');
  const numerator = a * b;
  const quotient = numerator / c; // truncates towards zero
  const remainder = numerator % c;
  if (remainder === 0n) return quotient;
  const exactIsNegative = numerator < 0n !== c < 0n;
  if (rounding === 'floor') return exactIsNegative ? quotient - 1n : quotient;
  return exactIsNegative ? quotient : quotient + 1n;
}

/** Basis points in a whole: 10,000 bps = 100 %. */
export const BPS_PER_WHOLE = 10_000n;

/** A fee of `feeBps` on an amount: rounds up, so a fee is never rounded away to nothing. */
export function feeOf(amountMinor: bigint, feeBps: bigint): bigint {
  if (amountMinor < 0n || feeBps < 0n) throw new RangeError('fee of a negative amount or rate');
  return mulDiv(amountMinor, feeBps, BPS_PER_WHOLE, 'ceil');
}

/**
 * Converts an amount between assets at a rate given as `rateNumerator / rateDenominator` units of
 * the target per unit of the source, and between their scales; the user receives the floor.
 */
export function convertForPayout(
  amountMinor: bigint,
  from: { scale: number },
  to: { scale: number },
  rate: { numerator: bigint; denominator: bigint },
): bigint {
  assertScale(from.scale);
  assertScale(to.scale);
  if (amountMinor < 0n || rate.numerator < 0n || rate.denominator <= 0n) throw new RangeError('negative conversion');
  const scaleUp = 10n ** BigInt(to.scale);
  const scaleDown = 10n ** BigInt(from.scale);
  return mulDiv(amountMinor * rate.numerator, scaleUp, rate.denominator * scaleDown, 'floor');
}
