import { type Posting, transferPostings } from '../ledger/postings.ts';

/**
 * Staff corrections (issue 22, ADR 0039): the only way a person at Keel changes a balance. One
 * finance or admin member (the maker) proposes a signed amount for one account with a written
 * reason; a different member (the checker) approves or rejects it; only an approval posts it, as a
 * journal entry the user sees with the reason. Above a published value the checker must be an admin;
 * a correction whose value is unknown (no recorded price) counts as above it.
 *
 * A user correction moves money between the user's account and the platform's corrections account
 * (which may go negative: it is the platform's own money given or taken back); a house correction
 * funds or draws down one of the published house accounts (earn treasury, lending treasury,
 * insurance fund, a C2C merchant's USDT float) from the platform treasury.
 */

export const CORRECTION_REASON_MIN_CHARS = 10;
export const CORRECTION_REASON_MAX_CHARS = 500;

/** The house accounts a correction may fund or draw down, and nothing else of the platform's. */
export const CORRECTION_HOUSE_ACCOUNTS = ['earn_treasury', 'lending_treasury', 'insurance_fund', 'merchant_float'] as const;
export type CorrectionHouseAccount = (typeof CORRECTION_HOUSE_ACCOUNTS)[number];

/** The user account kinds a correction may touch (innovation is reserved and hidden). */
export const CORRECTION_USER_ACCOUNTS = ['coin', 'fiat', 'options', 'leveraged', 'defi'] as const;
export type CorrectionUserAccount = (typeof CORRECTION_USER_ACCOUNTS)[number];

export type CorrectionStatus = 'pending' | 'approved' | 'rejected';

/** Why a member may not take a decision on a correction. */
export type CorrectionDecisionProblem = 'not_pending' | 'maker_cannot_check' | 'admin_checker_required';

export type CorrectionDecision = { ok: true; status: 'approved' | 'rejected' } | { ok: false; problem: CorrectionDecisionProblem };

/**
 * Whether the checker must be an admin: the correction is worth more than the published amount,
 * or its worth is unknown (`valueUsdtMinor` null: no recorded price), the safe side.
 */
export function adminCheckerRequired(valueUsdtMinor: bigint | null, adminAboveUsdtMinor: bigint): boolean {
  return valueUsdtMinor === null || valueUsdtMinor > adminAboveUsdtMinor;
}

/**
 * A decision on a correction. Only a pending one is decided; its maker can decide it neither way
 * (a maker who changed their mind asks a colleague to reject it, so every ended correction names
 * two people); an approval that needs an admin needs one. A rejection moves nothing, so any other
 * finance or admin member may reject.
 */
export function decideCorrection(
  correction: { status: CorrectionStatus; proposedBy: bigint; adminCheckerRequired: boolean },
  decision: { staffId: bigint; staffIsAdmin: boolean; approve: boolean },
): CorrectionDecision {
  if (correction.status !== 'pending') return { ok: false, problem: 'not_pending' };
  if (decision.staffId === correction.proposedBy) return { ok: false, problem: 'maker_cannot_check' };
  if (decision.approve && correction.adminCheckerRequired && !decision.staffIsAdmin) return { ok: false, problem: 'admin_checker_required' };
  return { ok: true, status: decision.approve ? 'approved' : 'rejected' };
}

/** What is wrong with a proposed reason text, or null: it is shown to the user, so it must say something. */
export function correctionReasonProblem(reason: string): 'too_short' | 'too_long' | null {
  const length = [...reason.trim()].length;
  if (length < CORRECTION_REASON_MIN_CHARS) return 'too_short';
  if (length > CORRECTION_REASON_MAX_CHARS) return 'too_long';
  return null;
}

/**
 * The postings of an approved correction: a positive amount moves from `counterAccount` to
 * `targetAccount`, a negative one back. Available money only; the ledger's own rules refuse a
 * target that would go below zero.
 */
export function correctionPostings(targetAccount: bigint, counterAccount: bigint, asset: string, signedAmountMinor: bigint): Posting[] {
  if (signedAmountMinor === 0n) throw new RangeError('a correction needs a non-zero amount');
  return signedAmountMinor > 0n
    ? transferPostings(counterAccount, targetAccount, asset, signedAmountMinor)
    : transferPostings(targetAccount, counterAccount, asset, -signedAmountMinor);
}
