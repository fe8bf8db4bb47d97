import { formatAmount, type TwoPersonLimits, type TwoPersonReason, twoPersonReason, USDT_SCALE } from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { aloneSums, type StoredTwoPersonReason } from '../../persistence/staff-money-decisions.repository.ts';

export type { StoredTwoPersonReason };

/**
 * The two-person rule as the server applies it (ADR 0022): its numbers from the configuration,
 * the check under the decision's locks, and how a reason is stored and shown. The deposit,
 * withdrawal and appeal use cases all go through here:
 *
 *   lockDecisionMakers(tx, staff, user) → lock the record → secondPersonNeeded(...) → the review
 *   machine with approvalsRequired 2 when a reason was given → recordMoneyDecision(...) when money
 *   moved → the answer (ADR 0019), all in one transaction.
 */

const HOUR_MS = 3_600_000;
const usdtMinor = (wholeUsdt: number) => BigInt(wholeUsdt) * 10n ** BigInt(USDT_SCALE);
const usdtText = (minor: bigint) => formatAmount(minor, USDT_SCALE);

/** The limits of one kind of decision: deposits and withdrawals (`wallet`), P2P appeals, or loan payouts. */
export function twoPersonLimits(config: Config, kind: 'wallet' | 'appeal' | 'loan'): TwoPersonLimits {
  const recordAbove = { wallet: config.WALLET_TWO_PERSON_ABOVE_USDT, appeal: config.P2P_APPEAL_TWO_PERSON_ABOVE_USDT, loan: config.LOAN_TWO_PERSON_ABOVE_USDT }[kind];
  return {
    recordAboveUsdtMinor: usdtMinor(recordAbove),
    staffAloneUsdtMinor: usdtMinor(config.TWO_PERSON_STAFF_ALONE_USDT),
    userAloneUsdtMinor: usdtMinor(config.TWO_PERSON_USER_ALONE_USDT),
    windowMs: config.TWO_PERSON_WINDOW_HOURS * HOUR_MS,
  };
}

/** The numbers as published to users (wallet overview) and staff (GET /home/admin/two-person-rule). */
export function publishedTwoPersonRule(config: Config) {
  return {
    recordAboveUsdt: usdtText(usdtMinor(config.WALLET_TWO_PERSON_ABOVE_USDT)),
    appealAboveUsdt: usdtText(usdtMinor(config.P2P_APPEAL_TWO_PERSON_ABOVE_USDT)),
    staffAloneLimitUsdt: usdtText(usdtMinor(config.TWO_PERSON_STAFF_ALONE_USDT)),
    userAloneLimitUsdt: usdtText(usdtMinor(config.TWO_PERSON_USER_ALONE_USDT)),
    windowHours: config.TWO_PERSON_WINDOW_HOURS,
    correctionAdminAboveUsdt: usdtText(usdtMinor(config.CORRECTION_ADMIN_CHECKER_ABOVE_USDT)),
  };
}

/**
 * Whether `staffId` may carry out a decision worth `valueUsdtMinor` for `userId` alone at `at`:
 * null, or why not. Call it only after `lockDecisionMakers` for the same member and user, so no
 * other decision of theirs can commit between this read and this decision's commit.
 */
export async function secondPersonNeeded(
  tx: Queryable,
  limits: TwoPersonLimits,
  input: { staffId: bigint; userId: bigint; valueUsdtMinor: bigint | null; at: Date },
): Promise<TwoPersonReason | null> {
  const sums = await aloneSums(tx, { staffId: input.staffId, userId: input.userId, since: new Date(input.at.getTime() - limits.windowMs) });
  return twoPersonReason(limits, { valueUsdtMinor: input.valueUsdtMinor, ...sums });
}

export function storedTwoPersonReason(reason: TwoPersonReason): StoredTwoPersonReason {
  return {
    rule: reason.rule,
    limitUsdtMinor: reason.limitUsdtMinor.toString(),
    decidedAloneUsdtMinor: reason.decidedAloneUsdtMinor.toString(),
    valueUsdtMinor: reason.valueUsdtMinor.toString(),
    windowMs: reason.windowMs,
  };
}

export type TwoPersonReasonView = ReturnType<typeof twoPersonReasonView>;

export function twoPersonReasonView(reason: StoredTwoPersonReason) {
  return {
    rule: reason.rule,
    limitUsdt: usdtText(toMinor(reason.limitUsdtMinor)),
    decidedAloneUsdt: usdtText(toMinor(reason.decidedAloneUsdtMinor)),
    valueUsdt: usdtText(toMinor(reason.valueUsdtMinor)),
    windowHours: Math.round(reason.windowMs / HOUR_MS),
  };
}

/**
 * Why a deposit or withdrawal needs two approvals, for the staff view. A record raised to two at
 * its first approval stored its reason then; one that needed two from its creation (worth more
 * than the threshold, or a deposit reported with no price: valued 0) is explained by the record
 * rule with the threshold in force.
 */
export function recordTwoPersonReason(
  row: { approvals_required: 1 | 2; two_person_reason: StoredTwoPersonReason | null; usdt_value_minor: string },
  config: Config,
): TwoPersonReasonView | null {
  if (row.two_person_reason) return twoPersonReasonView(row.two_person_reason);
  if (row.approvals_required === 1) return null;
  const limits = twoPersonLimits(config, 'wallet');
  const valueUsdtMinor = toMinor(row.usdt_value_minor);
  return twoPersonReasonView(
    storedTwoPersonReason({
      rule: valueUsdtMinor === 0n ? 'unpriced' : 'record',
      limitUsdtMinor: limits.recordAboveUsdtMinor,
      decidedAloneUsdtMinor: 0n,
      valueUsdtMinor,
      windowMs: limits.windowMs,
    }),
  );
}
