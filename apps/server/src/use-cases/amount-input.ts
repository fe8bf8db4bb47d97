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
