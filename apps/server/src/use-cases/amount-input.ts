import { AppError } from '@keel/contracts';
import { AmountError, parseAmount, parsePositiveAmount } from '@keel/domain';

/**
 * A positive amount a user typed, in minor units at `scale`, or the catalogue's "wrong amount"
 * naming the problem and the scale (and `field`, where a form has several amounts). With
 * `allowZero`, zero is an amount too (what an ad still offers may go down to nothing).
 */
export function parseUserAmount(text: string, scale: number, field?: string, options: { allowZero?: boolean } = {}): bigint {
  try {
    return options.allowZero ? parseAmount(text, scale) : parsePositiveAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) throw new AppError('WRONG_AMOUNT', { ...(field ? { field } : {}), problem: error.problem, scale });
    throw error;
  }
}

/**
 * A number in a product's or a request's terms (an amount at `scale`, or a percent with up to four
 * decimals), or the catalogue's "parameter error" naming the field and the problem: terms are not a
 * money movement, so a malformed one is a parameter, not a "wrong amount".
 */
export function parseTermsNumber(text: string, scale: number, field: string): bigint {
  try {
    return parseAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) throw new AppError('PARAMETER_ERROR', { field, problem: error.problem });
    throw error;
  }
}

/** A rate or ratio in percent with up to four decimals as parts per million: "0.3" → 3,000; "65" → 650,000. */
export function parsePercentPpm(text: string, field: string): number {
  return Number(parseTermsNumber(text, 4, field));
}
