import type { Posting } from '../ledger/postings.ts';
import { feeOf } from '../money/amount.ts';

/**
 * Transfers to another user (issue 19; spec section 9 "minimum transfer fee 0.10 %", decisions page:
 * transfers between one's own accounts are free, the fee applies to another user). The sender pays
 * the amount and the fee; the recipient receives exactly the amount entered; the fee goes to the
 * platform's fee account. The fee rounds up (`feeOf`), so it is never below 0.10 % and never zero.
 */
export const USER_TRANSFER_FEE_BPS = 10n;

/** The published rate as the screens show it: "0.10" (per cent). */
export const USER_TRANSFER_FEE_PERCENT = '0.10';

export interface UserTransferCost {
  amountMinor: bigint;
  feeMinor: bigint;
  /** What leaves the sender's coin account: amount + fee. */
  totalMinor: bigint;
}

export function userTransferCost(amountMinor: bigint): UserTransferCost {
  if (amountMinor <= 0n) throw new RangeError('a transfer moves a positive amount');
  const feeMinor = feeOf(amountMinor, USER_TRANSFER_FEE_BPS);
  return { amountMinor, feeMinor, totalMinor: amountMinor + feeMinor };
}

/** Why a transfer cannot go to this recipient, before any money is looked at. */
export type UserTransferRecipientProblem = 'self' | 'not_found';

export function recipientProblem(senderId: bigint, recipientId: bigint | null): UserTransferRecipientProblem | null {
  if (recipientId === null) return 'not_found';
  if (recipientId === senderId) return 'self';
  return null;
}

/**
 * The one journal entry of a transfer: the sender's coin account pays amount + fee, the recipient's
 * coin account receives the amount, the fee account the fee. Sums to zero.
 */
export function userTransferPostings(
  accounts: { senderCoin: bigint; recipientCoin: bigint; fees: bigint },
  asset: string,
  cost: UserTransferCost,
): Posting[] {
  if (accounts.senderCoin === accounts.recipientCoin) throw new RangeError('a transfer to the same account');
  return [
    { accountId: accounts.senderCoin, asset, bucket: 'available', amountMinor: -cost.totalMinor },
    { accountId: accounts.recipientCoin, asset, bucket: 'available', amountMinor: cost.amountMinor },
    { accountId: accounts.fees, asset, bucket: 'available', amountMinor: cost.feeMinor },
  ];
}
