import {
  type AmountInputProblem,
  addDecimal,
  checkAmountInput,
  compareDecimal,
  decimalToString,
  isDecimal,
  normaliseAmountInput,
  parseDecimal,
  rescale,
  signOf,
} from '../../shared/format/decimal.ts';

/**
 * The figures of a withdrawal, on exact decimal strings (never JS numbers): the user names the
 * amount that arrives at the address; the published network fee of the channel comes on top, and
 * amount + fee is what the coin account holds until the withdrawal ends.
 */

/** amount + fee, written at `scale` decimals. */
export function totalWithFee(amount: string, fee: string, scale: number): string {
  return decimalToString(rescale(addDecimal(parseDecimal(amount), parseDecimal(fee)), scale));
}

/** The largest amount that leaves room for the fee in `available`, or null when nothing does. */
export function maxWithdrawable(available: string, fee: string, scale: number): string | null {
  if (!isDecimal(available) || !isDecimal(fee)) return null;
  const fee_ = parseDecimal(fee);
  const rest = addDecimal(parseDecimal(available), { minor: -fee_.minor, scale: fee_.scale });
  if (signOf(rest) <= 0) return null;
  return decimalToString(rescale(rest, scale));
}

export type WithdrawAmountProblem = Exclude<AmountInputProblem, 'aboveAvailable'> | 'belowMin' | 'aboveAvailableWithFee';

/**
 * The withdrawal amount field's checks, mirroring the server's: a positive decimal within the
 * asset's scale, at least the channel's minimum, and amount + fee within the available balance
 * (when known). The server checks again and names the rule if it refuses.
 */
export function withdrawAmountProblem(
  text: string,
  context: { scale: number; fee: string; min: string; available?: string },
): WithdrawAmountProblem | null {
  const basic = checkAmountInput(text, context.scale);
  if (basic === 'aboveAvailable') return null; // not asked: no available passed
  if (basic) return basic;
  const amount = parseDecimal(normaliseAmountInput(text));
  if (isDecimal(context.min) && compareDecimal(amount, parseDecimal(context.min)) < 0) return 'belowMin';
  if (context.available !== undefined && isDecimal(context.available) && isDecimal(context.fee)) {
    const total = addDecimal(amount, parseDecimal(context.fee));
    if (compareDecimal(total, parseDecimal(context.available)) > 0) return 'aboveAvailableWithFee';
  }
  return null;
}
