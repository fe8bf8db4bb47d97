import { addDecimal, decimalToString, isDecimal, parseDecimal, rescale, signOf } from '../../shared/format/decimal.ts';

/**
 * The figures of a withdrawal, on exact decimal strings (never JS numbers): the user names the
 * amount that arrives at the address; the published network fee of the channel comes on top, and
 * amount + fee is what the coin account holds until the withdrawal ends. (The amount field's
 * checks, minimum and fee included, are `amountField` of features/assets/amount-field.ts.)
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
