import { AppError } from '@keel/contracts';
import { AmountError, parsePositiveAmount } from '@keel/domain';

/**
 * A positive amount a user typed, in minor units at `scale`, or the catalogue's "wrong amount"
 * naming the problem and the scale (and `field`, where a form has several amounts).
 */
export function parseUserAmount(text: string, scale: number, field?: string): bigint {
  try {
    return parsePositiveAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) throw new AppError('WRONG_AMOUNT', { ...(field ? { field } : {}), problem: error.problem, scale });
    throw error;
  }
}
