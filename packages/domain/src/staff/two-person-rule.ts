/**
 * The two-person rule of every staff decision that moves money (issue 13, ADR 0022): crediting a
 * deposit, approving a withdrawal, releasing or refunding P2P escrow on an appeal. One staff member
 * may carry such a decision out alone only while all three limits hold; otherwise a second,
 * different member has to agree. The limits are cumulative, so splitting an amount into pieces
 * under the per-record threshold does not help:
 *
 * - `record`: the record alone is worth more than its threshold (deposits and withdrawals:
 *   WALLET_TWO_PERSON_ABOVE_USDT; appeals: P2P_APPEAL_TWO_PERSON_ABOVE_USDT);
 * - `unpriced`: its USDT value is unknown (a deposit reported while the asset had no price);
 * - `staff_window`: what this member decided alone within the window, plus this, would pass the
 *   per-staff limit;
 * - `user_window`: what reached or left this user through one-person decisions within the window,
 *   plus this, would pass the per-user limit.
 *
 * Decisions taken by two people count toward neither sum: two people saw them. All values are USDT
 * minor units (USDT_SCALE).
 */

export interface TwoPersonLimits {
  /** A record worth more than this needs two people. */
  recordAboveUsdtMinor: bigint;
  /** One member's one-person decisions within the window may add up to this, not more. */
  staffAloneUsdtMinor: bigint;
  /** One user's one-person decisions within the window may add up to this, not more. */
  userAloneUsdtMinor: bigint;
  windowMs: number;
}

export type TwoPersonRule = 'record' | 'unpriced' | 'staff_window' | 'user_window';

/** Why a decision needs a second person, with the numbers that made it so. */
export interface TwoPersonReason {
  rule: TwoPersonRule;
  /** The threshold or limit that would be passed. */
  limitUsdtMinor: bigint;
  /** What was already decided alone within the window (0 for `record` and `unpriced`). */
  decidedAloneUsdtMinor: bigint;
  /** This decision's value (0 when unpriced). */
  valueUsdtMinor: bigint;
  windowMs: number;
}

export interface MoneyDecision {
  /** The record's USDT value, or null when it could not be priced. */
  valueUsdtMinor: bigint | null;
  /** The sum of this staff member's one-person decisions within the window. */
  staffAloneUsdtMinor: bigint;
  /** The sum of the one-person decisions that reached or left this user within the window. */
  userAloneUsdtMinor: bigint;
}

/**
 * Null when one member may carry the decision out alone; otherwise the first rule, in the order
 * above, that asks for a second member.
 */
export function twoPersonReason(limits: TwoPersonLimits, decision: MoneyDecision): TwoPersonReason | null {
  const reason = (rule: TwoPersonRule, limitUsdtMinor: bigint, decidedAloneUsdtMinor: bigint): TwoPersonReason => ({
    rule,
    limitUsdtMinor,
    decidedAloneUsdtMinor,
    valueUsdtMinor: decision.valueUsdtMinor ?? 0n,
    windowMs: limits.windowMs,
  });
  const value = decision.valueUsdtMinor;
  if (value === null) return reason('unpriced', limits.recordAboveUsdtMinor, 0n);
  if (value > limits.recordAboveUsdtMinor) return reason('record', limits.recordAboveUsdtMinor, 0n);
  if (decision.staffAloneUsdtMinor + value > limits.staffAloneUsdtMinor) return reason('staff_window', limits.staffAloneUsdtMinor, decision.staffAloneUsdtMinor);
  if (decision.userAloneUsdtMinor + value > limits.userAloneUsdtMinor) return reason('user_window', limits.userAloneUsdtMinor, decision.userAloneUsdtMinor);
  return null;
}

export type AppealOutcome = 'release' | 'refund';

/** The outcome one support member proposed for an appeal that needs two people. */
export interface AppealProposal {
  outcome: AppealOutcome;
  staffId: bigint;
}

export type AppealResolutionStep =
  /** Carry the outcome out now: alone, or as the second of two people agreeing with `firstStaffId`. */
  | { kind: 'carry_out'; people: 1 | 2; firstStaffId: bigint | null }
  /** Record (or replace) the proposal; no money moves. */
  | { kind: 'propose' }
  /** The proposer cannot also be the second person. */
  | { kind: 'refused'; problem: 'same_approver' };

/**
 * A support member asks for `outcome` on an open appeal. Once an appeal needed two people it keeps
 * needing them (an open proposal is never dropped by a later, looser check). A member who asks for
 * the proposed outcome confirms it — unless they proposed it; a member who asks for the other
 * outcome replaces the proposal, which then waits for a member other than them. So a disagreement
 * never moves money, and whatever is carried out was asked for by two different members.
 */
export function appealResolutionStep(input: {
  proposal: AppealProposal | null;
  /** Null when the two-person rule lets one member decide this appeal alone. */
  reason: TwoPersonReason | null;
  staffId: bigint;
  outcome: AppealOutcome;
}): AppealResolutionStep {
  const { proposal } = input;
  if (proposal === null) return input.reason === null ? { kind: 'carry_out', people: 1, firstStaffId: null } : { kind: 'propose' };
  if (proposal.outcome !== input.outcome) return { kind: 'propose' };
  if (proposal.staffId === input.staffId) return { kind: 'refused', problem: 'same_approver' };
  return { kind: 'carry_out', people: 2, firstStaffId: proposal.staffId };
}
