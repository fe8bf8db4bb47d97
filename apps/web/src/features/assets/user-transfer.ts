import { errorKeyFromMsg } from '@keel/contracts';
import { AmountError, formatAmount, parsePositiveAmount, USER_TRANSFER_FEE_BPS, userTransferCost } from '@keel/domain';
import { formatDecimal, isDecimal, parseDecimal, rescale } from '../../shared/format/decimal.ts';

/**
 * The figures of a transfer to another user (issue 19, ADR 0042), on bigint minor units through the
 * domain's own rule (`userTransferCost`, the function the server charges by): the recipient gets the
 * amount typed, the sender pays it plus the published fee (0.10 %, rounded up to the asset's minor
 * unit) from the coin account.
 */

export interface UserTransferFigures {
  /** What the recipient receives, at the asset's scale. */
  amount: string;
  /** What the sender pays on top. */
  fee: string;
  /** What leaves the sender's coin account: amount + fee. */
  total: string;
}

/**
 * The figures of a transfer of `amount` (as typed, normalised: `normaliseAmountInput`) of an asset
 * with `scale` decimals, or null while the amount is not a positive amount at that scale.
 */
export function userTransferFigures(amount: string, scale: number): UserTransferFigures | null {
  let minor: bigint;
  try {
    minor = parsePositiveAmount(amount, scale);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
  const cost = userTransferCost(minor);
  return { amount: formatAmount(cost.amountMinor, scale), fee: formatAmount(cost.feeMinor, scale), total: formatAmount(cost.totalMinor, scale) };
}

/** The fee of a transfer of `amount` (valid at `scale`), for the amount field's balance check. */
export function userTransferFee(amount: string, scale: number): string {
  return userTransferFigures(amount, scale)?.fee ?? '0';
}

/**
 * "All": the largest amount whose amount + fee fits in `available` (a decimal as the API writes it),
 * at `scale` decimals; null when not even the smallest amount fits.
 */
export function maxUserTransfer(available: string, scale: number): string | null {
  if (!isDecimal(available)) return null;
  const budget = rescale(parseDecimal(available), scale).minor;
  if (budget <= 0n) return null;
  // amount × (1 + rate) ≤ budget, then stepped to the exact edge of the rounded-up fee.
  let amount = (budget * 10_000n) / (10_000n + USER_TRANSFER_FEE_BPS);
  while (amount > 0n && userTransferCost(amount).totalMinor > budget) amount -= 1n;
  while (userTransferCost(amount + 1n).totalMinor <= budget) amount += 1n;
  return amount > 0n ? formatAmount(amount, scale) : null;
}

/**
 * A published percent ("0.10") in the user's language with at least two decimals, isolated left to
 * right (U+2066 … U+2069) so it keeps its place in right-to-left text (ADR 0011).
 */
export function percentText(percent: string, locale: string): string {
  return `\u2066${formatDecimal(percent, locale, { minFractionDigits: 2 })}\u2069`;
}

/** Why a recipient lookup (or a transfer) was refused, as the form words it. */
export type RecipientProblem = 'notFound' | 'self' | 'tooManyRequests' | 'other';

/** The problem of a refusal by its catalogue message (`ApiError.message`). */
export function recipientProblemOf(message: string): RecipientProblem {
  switch (errorKeyFromMsg(message)) {
    case 'RECORD_NOT_FOUND':
      return 'notFound';
    case 'CANNOT_TRANSFER_TO_SELF':
      return 'self';
    case 'TOO_MANY_REQUESTS':
      return 'tooManyRequests';
    default:
      return 'other';
  }
}

/** What the user typed as the recipient, as it is looked up: surrounding spaces dropped. */
export function recipientQuery(typed: string): string {
  return typed.trim();
}
