import { BPS_PER_WHOLE, feeOf, mulDiv, parseAmount } from '../money/amount.ts';

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

/** What a level gives at the moment a fee is charged or a withdrawal is counted. */
export interface VipTerms {
  level: number;
  /** Discount on every fee the table covers, basis points of the fee (2,000 = 20 % off). */
  feeDiscountBps: number;
  /** Withdrawal requests a day on top of the platform's daily count. */
  extraDailyWithdrawals: number;
}

/** Level 0: everybody's, no discount, no extra withdrawals. */
export const NO_VIP: VipTerms = Object.freeze({ level: 0, feeDiscountBps: 0, extraDailyWithdrawals: 0 });

export interface VipLevel extends VipTerms {
  /** The rule: reached when 30-day volume ≥ this, in whole USDT (null: not by volume). */
  minVolume30dUsdt: bigint | null;
  /** …or when the balance (USDT value) ≥ this, in whole USDT (null: not by balance). */
  minBalanceUsdt: bigint | null;
  /** Whether staff may grant it on an application, and the looser threshold an application needs. */
  byApplication: { minVolume30dUsdt: bigint; minBalanceUsdt: bigint } | null;
}

export class VipLevelsError extends Error {}

/**
 * The operator's table as configured (`VIP_LEVELS`, ADR 0046): comma-separated levels, each
 * `level/discountPercent/extraWithdrawals/minVolume/minBalance[/applicationVolume/applicationBalance]`
 * in whole USDT, `-` where a level is not reached by that measure. Level 0 is implied.
 */
export const DEFAULT_VIP_LEVELS_TEXT =
  '1/10/1/50000/10000,2/20/2/250000/50000,3/30/5/1000000/200000/500000/100000,4/40/10/5000000/1000000/2500000/500000';

const LEVEL_TEXT = /^(\d{1,2})\/(\d{1,3}(?:\.\d{1,2})?)\/(\d{1,3})\/(\d{1,12}|-)\/(\d{1,12}|-)(?:\/(\d{1,12})\/(\d{1,12}))?$/;
const MAX_LEVELS = 20;
const MAX_EXTRA_WITHDRAWALS = 100;

/**
 * Parses and checks the table. A table that would publish something incoherent is refused with the
 * reason, so the server does not start with it: levels run 1, 2, 3… with no gap; a higher level is
 * never worse (discount and extra withdrawals never fall) and never easier to reach (each measure's
 * threshold rises); a discount stays below 100 %; every level can be reached (by a measure or by
 * application); an application's threshold is never stricter than the rule's for the same level.
 */
export function parseVipLevels(text: string): readonly VipLevel[] {
  const levels: VipLevel[] = [{ ...NO_VIP, minVolume30dUsdt: null, minBalanceUsdt: null, byApplication: null }];
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
  if (parts.length > MAX_LEVELS) throw new VipLevelsError(`at most ${MAX_LEVELS} levels`);
  for (const part of parts) {
    const match = LEVEL_TEXT.exec(part);
    if (!match) throw new VipLevelsError(`"${part}" is not level/discountPercent/extraWithdrawals/minVolume/minBalance[/applicationVolume/applicationBalance]`);
    const level = Number(match[1]);
    const previous = levels[levels.length - 1]!;
    if (level !== previous.level + 1) throw new VipLevelsError(`level ${level} follows level ${previous.level}: levels run 1, 2, 3… in order`);
    const feeDiscountBps = Number(parseAmount(match[2]!, 2));
    if (feeDiscountBps >= 10_000) throw new VipLevelsError(`level ${level}: a discount of ${match[2]} % is not below 100 %`);
    const extraDailyWithdrawals = Number(match[3]);
    if (extraDailyWithdrawals > MAX_EXTRA_WITHDRAWALS) throw new VipLevelsError(`level ${level}: at most ${MAX_EXTRA_WITHDRAWALS} extra withdrawals a day`);
    const measure = (value: string) => (value === '-' ? null : BigInt(value));
    const each: VipLevel = {
      level,
      feeDiscountBps,
      extraDailyWithdrawals,
      minVolume30dUsdt: measure(match[4]!),
      minBalanceUsdt: measure(match[5]!),
      byApplication: match[6] === undefined ? null : { minVolume30dUsdt: BigInt(match[6]), minBalanceUsdt: BigInt(match[7]!) },
    };
    if (each.feeDiscountBps < previous.feeDiscountBps) throw new VipLevelsError(`level ${level}: its discount is below level ${previous.level}'s`);
    if (each.extraDailyWithdrawals < previous.extraDailyWithdrawals) throw new VipLevelsError(`level ${level}: its extra withdrawals are below level ${previous.level}'s`);
    if (each.minVolume30dUsdt === null && each.minBalanceUsdt === null && each.byApplication === null) {
      throw new VipLevelsError(`level ${level} cannot be reached: give it a volume, a balance or an application threshold`);
    }
    for (const [name, key] of [['volume', 'minVolume30dUsdt'], ['balance', 'minBalanceUsdt']] as const) {
      const mine = each[key];
      if (each.byApplication && each.byApplication[key] <= 0n) throw new VipLevelsError(`level ${level}: an application ${name} threshold of 0 would let anybody qualify`);
      if (mine === null) continue;
      if (mine <= 0n) throw new VipLevelsError(`level ${level}: a ${name} threshold of 0 would give the level to everybody`);
      const lower = levels.filter((other) => other[key] !== null).at(-1)?.[key];
      if (lower !== undefined && lower !== null && mine <= lower) throw new VipLevelsError(`level ${level}: its ${name} threshold is not above a lower level's`);
      if (each.byApplication && each.byApplication[key] > mine) throw new VipLevelsError(`level ${level}: its application ${name} threshold is above the rule's`);
    }
    levels.push(each);
  }
  return levels;
}

/** The published table when `VIP_LEVELS` is not set. Level 0 is everybody's. */
export const DEFAULT_VIP_LEVELS: readonly VipLevel[] = parseVipLevels(DEFAULT_VIP_LEVELS_TEXT);

/** The fees the table's discount applies to; every one is named in the journal entry it discounts. */
export type VipFeeKind = 'swap' | 'p2p_release' | 'leverage' | 'futures';

/**
 * The terms of a stored level under the table in force. A level the table no longer has (the
 * operator removed the top levels) gives the highest level the table has below it until the daily
 * job computes the level again: never a level's terms that are not published.
 */
export function vipTermsOf(level: number, table: readonly VipLevel[]): VipTerms {
  let best: VipLevel = table[0]!;
  for (const each of table) if (each.level <= level && each.level > best.level) best = each;
  return { level: best.level, feeDiscountBps: best.feeDiscountBps, extraDailyWithdrawals: best.extraDailyWithdrawals };
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
export function levelByRule(standing: VipStanding, table: readonly VipLevel[]): number {
  let best = 0;
  for (const each of table) if (meets(standing, each.minVolume30dUsdt, each.minBalanceUsdt) && each.level > best) best = each.level;
  return best;
}

export type ApplicationVerdict = { allowed: true } | { allowed: false; reason: 'not_by_application' | 'threshold_not_met' | 'not_above_current' };

/**
 * Whether an application for `level` may be approved: the level must be one the table grants on
 * application, above the level the user has, and the standing must meet its application threshold.
 */
export function applicationVerdict(level: number, currentLevel: number, standing: VipStanding, table: readonly VipLevel[]): ApplicationVerdict {
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
export function discountFee(feeBeforeDiscountMinor: bigint, vip: VipTerms = NO_VIP): DiscountedFee {
  if (feeBeforeDiscountMinor < 0n) throw new RangeError('negative fee');
  const { feeDiscountBps, level } = vip;
  const discountMinor = mulDiv(feeBeforeDiscountMinor, BigInt(feeDiscountBps), BPS_PER_WHOLE, 'floor');
  return { feeBeforeDiscountMinor, discountBps: feeDiscountBps, discountMinor, feeMinor: feeBeforeDiscountMinor - discountMinor, level };
}

/** `feeOf` with the discount: the fee of `feeBps` on an amount, rounded up, less the level's discount rounded down. */
export function discountedFeeOf(amountMinor: bigint, feeBps: bigint, vip: VipTerms = NO_VIP): DiscountedFee {
  return discountFee(feeOf(amountMinor, feeBps), vip);
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
export function progressToNext(level: number, standing: VipStanding, table: readonly VipLevel[]): VipProgress {
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
