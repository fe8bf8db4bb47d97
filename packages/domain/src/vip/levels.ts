import { BPS_PER_WHOLE, feeOf, mulDiv } from '../money/amount.ts';

/**
 * VIP levels (issue 20, ADR 0046): a published table, pure. A level gives fee discounts (swap, P2P
 * release, leverage and futures fees), extra withdrawal requests a day, and is reached by the
 * published rule: 30-day trading volume **or** balance (both in USDT), computed by the daily job.
 * Levels marked `byApplication` may also be granted on an application reviewed by staff, and only
 * when the applicant meets that level's application threshold (never by hand outside the rule).
 *
 * Discounts round in the platform's favour: the fee before the discount rounds up (`feeOf`), the
 * discount rounds down, so the fee charged is never below the exact discounted fee.
 */

export interface VipLevel {
  level: number;
  /** Discount on every fee the table covers, basis points of the fee (2,000 = 20 % off). */
  feeDiscountBps: number;
  /** Withdrawal requests a day on top of the platform's daily count. */
  extraDailyWithdrawals: number;
  /** The rule: reached when 30-day volume ≥ this, in whole USDT (null: not by volume). */
  minVolume30dUsdt: bigint | null;
  /** …or when the balance (USDT value) ≥ this, in whole USDT (null: not by balance). */
  minBalanceUsdt: bigint | null;
  /** Whether staff may grant it on an application, and the looser threshold an application needs. */
  byApplication: { minVolume30dUsdt: bigint; minBalanceUsdt: bigint } | null;
}

/** The published table. Level 0 is everybody's. */
export const VIP_LEVELS: readonly VipLevel[] = [
  { level: 0, feeDiscountBps: 0, extraDailyWithdrawals: 0, minVolume30dUsdt: null, minBalanceUsdt: null, byApplication: null },
  { level: 1, feeDiscountBps: 1_000, extraDailyWithdrawals: 1, minVolume30dUsdt: 50_000n, minBalanceUsdt: 10_000n, byApplication: null },
  { level: 2, feeDiscountBps: 2_000, extraDailyWithdrawals: 2, minVolume30dUsdt: 250_000n, minBalanceUsdt: 50_000n, byApplication: null },
  {
    level: 3,
    feeDiscountBps: 3_000,
    extraDailyWithdrawals: 5,
    minVolume30dUsdt: 1_000_000n,
    minBalanceUsdt: 200_000n,
    byApplication: { minVolume30dUsdt: 500_000n, minBalanceUsdt: 100_000n },
  },
  {
    level: 4,
    feeDiscountBps: 4_000,
    extraDailyWithdrawals: 10,
    minVolume30dUsdt: 5_000_000n,
    minBalanceUsdt: 1_000_000n,
    byApplication: { minVolume30dUsdt: 2_500_000n, minBalanceUsdt: 500_000n },
  },
];

export const MAX_VIP_LEVEL = VIP_LEVELS[VIP_LEVELS.length - 1]!.level;

/** The fees the table's discount applies to; every one is named in the journal entry it discounts. */
export type VipFeeKind = 'swap' | 'p2p_release' | 'leverage' | 'futures';

export function vipLevelOf(level: number, table: readonly VipLevel[] = VIP_LEVELS): VipLevel {
  const found = table.find((each) => each.level === level);
  if (!found) throw new RangeError(`no VIP level ${level}`);
  return found;
}

/** The figures the rule reads, in USDT minor units (6 decimals). */
export interface VipStanding {
  volume30dUsdtMinor: bigint;
  balanceUsdtMinor: bigint;
}

const USDT_ONE = 1_000_000n;

function meets(standing: VipStanding, minVolume: bigint | null, minBalance: bigint | null): boolean {
  return (
    (minVolume !== null && standing.volume30dUsdtMinor >= minVolume * USDT_ONE) ||
    (minBalance !== null && standing.balanceUsdtMinor >= minBalance * USDT_ONE)
  );
}

/** The level the published rule gives: the highest whose volume or balance threshold is met. */
export function levelByRule(standing: VipStanding, table: readonly VipLevel[] = VIP_LEVELS): number {
  let best = 0;
  for (const each of table) if (meets(standing, each.minVolume30dUsdt, each.minBalanceUsdt) && each.level > best) best = each.level;
  return best;
}

export type ApplicationVerdict = { allowed: true } | { allowed: false; reason: 'not_by_application' | 'threshold_not_met' | 'not_above_current' };

/**
 * Whether an application for `level` may be approved: the level must be one the table grants on
 * application, above the level the user has, and the standing must meet its application threshold.
 */
export function applicationVerdict(level: number, currentLevel: number, standing: VipStanding, table: readonly VipLevel[] = VIP_LEVELS): ApplicationVerdict {
  const target = table.find((each) => each.level === level);
  if (!target?.byApplication) return { allowed: false, reason: 'not_by_application' };
  if (level <= currentLevel) return { allowed: false, reason: 'not_above_current' };
  if (!meets(standing, target.byApplication.minVolume30dUsdt, target.byApplication.minBalanceUsdt)) return { allowed: false, reason: 'threshold_not_met' };
  return { allowed: true };
}

/** A fee with the VIP discount shown: before, the discount, and what is charged. */
export interface DiscountedFee {
  feeBeforeDiscountMinor: bigint;
  discountBps: number;
  discountMinor: bigint;
  feeMinor: bigint;
  level: number;
}

/** Applies a level's discount to a fee already computed (rounded up): the discount rounds down. */
export function discountFee(feeBeforeDiscountMinor: bigint, level: number, table: readonly VipLevel[] = VIP_LEVELS): DiscountedFee {
  if (feeBeforeDiscountMinor < 0n) throw new RangeError('negative fee');
  const { feeDiscountBps } = vipLevelOf(level, table);
  const discountMinor = mulDiv(feeBeforeDiscountMinor, BigInt(feeDiscountBps), BPS_PER_WHOLE, 'floor');
  return { feeBeforeDiscountMinor, discountBps: feeDiscountBps, discountMinor, feeMinor: feeBeforeDiscountMinor - discountMinor, level };
}

/** `feeOf` with the discount: the fee of `feeBps` on an amount, rounded up, less the level's discount rounded down. */
export function discountedFeeOf(amountMinor: bigint, feeBps: bigint, level: number, table: readonly VipLevel[] = VIP_LEVELS): DiscountedFee {
  return discountFee(feeOf(amountMinor, feeBps), level, table);
}

/** Text for a journal entry's memo: "VIP 2: fee 0.100000 less 20 % (0.020000) = 0.080000". */
export function discountMemo(fee: DiscountedFee, format: (minor: bigint) => string): string {
  if (fee.discountMinor === 0n && fee.discountBps === 0) return '';
  const percent = (fee.discountBps / 100).toString();
  return `VIP ${fee.level}: fee ${format(fee.feeBeforeDiscountMinor)} less ${percent} % (${format(fee.discountMinor)}) = ${format(fee.feeMinor)}`;
}

export interface VipProgress {
  level: number;
  next: number | null;
  /** What the next level needs, and how far the standing is, per measure (null where the next level has none). */
  volume: { haveMinor: bigint; needMinor: bigint } | null;
  balance: { haveMinor: bigint; needMinor: bigint } | null;
}

/** Progress from the current level to the next one, by each measure the next level counts. */
export function progressToNext(level: number, standing: VipStanding, table: readonly VipLevel[] = VIP_LEVELS): VipProgress {
  const next = table.filter((each) => each.level > level).sort((a, b) => a.level - b.level)[0];
  if (!next) return { level, next: null, volume: null, balance: null };
  return {
    level,
    next: next.level,
    volume: next.minVolume30dUsdt === null ? null : { haveMinor: standing.volume30dUsdtMinor, needMinor: next.minVolume30dUsdt * USDT_ONE },
    balance: next.minBalanceUsdt === null ? null : { haveMinor: standing.balanceUsdtMinor, needMinor: next.minBalanceUsdt * USDT_ONE },
  };
}

/** The UTC day (YYYY-MM-DD) a level computation belongs to. */
export function vipDayOf(nowMs: number): string {
  return new Date(Math.floor(nowMs / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}
