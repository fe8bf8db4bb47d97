import { earnTermsProblem, type EarnKind, type EarnTerms, transferPostings } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount, postEntry } from '../../persistence/ledger.store.ts';
import { earnTreasuryAccount } from './earn-support.ts';

/** A product as staff propose it (ADR 0035): its terms and limits. */
export interface EarnProductTerms extends EarnTerms {
  kind: EarnKind;
  name: string;
  asset: string;
  minAmountMinor: bigint;
  maxAmountMinor: bigint;
  userQuotaMinor: bigint;
  totalQuotaMinor: bigint;
}

/**
 * Writes a product whose terms passed the domain's rules. Called when a second staff member
 * approves a proposed product, and by the demo seed; never from a user's call.
 */
export async function insertEarnProduct(tx: Queryable, terms: EarnProductTerms, at: Date): Promise<bigint> {
  const problem = earnTermsProblem(terms);
  if (problem) throw new RangeError(`earn product terms refused: ${problem}`);
  const [row] = await tx.query<{ id: bigint }>(
    `INSERT INTO earn_products (kind, name, asset, cycle_days, daily_rate_ppm, penalty_rate_ppm, payout_minute_utc, early_redemption,
       min_amount_minor, max_amount_minor, user_quota_minor, total_quota_minor, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id`,
    [
      terms.kind,
      terms.name,
      terms.asset,
      terms.cycleDays,
      terms.dailyRatePpm,
      terms.penaltyRatePpm,
      terms.payoutMinuteUtc,
      terms.earlyRedemption,
      terms.minAmountMinor.toString(),
      terms.maxAmountMinor.toString(),
      terms.userQuotaMinor.toString(),
      terms.totalQuotaMinor.toString(),
      at,
    ],
  );
  // The account that pays the yield exists from the first product on, so its balance can be shown.
  await earnTreasuryAccount(tx, terms.asset);
  return row!.id;
}

/**
 * Moves money from the platform treasury into the earn treasury (an `earn.fund` entry): what the
 * earn treasury holds is what new subscriptions may be promised. Used by the demo seed and tests;
 * a real deployment funds it by a house correction with maker and checker (`earn_treasury`, ADR 0039).
 */
export async function fundEarnTreasury(tx: Queryable, asset: string, amountMinor: bigint, at: Date, memo = 'Earn treasury funded from the platform treasury'): Promise<void> {
  const treasury = await ensurePlatformAccount(tx, 'treasury', asset, { allowNegative: true });
  const earn = await earnTreasuryAccount(tx, asset);
  await postEntry(tx, { reason: 'earn.fund', memo, postings: transferPostings(treasury, earn, asset, amountMinor), at });
}
