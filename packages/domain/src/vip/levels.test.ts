import { describe, expect, it } from 'vitest';
import { feeOf } from '../money/amount.ts';
import {
  applicationVerdict,
  DEFAULT_VIP_LEVELS as VIP_LEVELS,
  discountedFeeOf,
  discountFee,
  discountMemo,
  levelByRule as levelByRuleOf,
  parseVipLevels,
  progressToNext as progressToNextOf,
  VipLevelsError,
  vipDayOf,
  vipTermsOf,
} from './levels.ts';

const usdt = (whole: bigint) => whole * 1_000_000n;
const levelByRule = (standing: Parameters<typeof levelByRuleOf>[0]) => levelByRuleOf(standing, VIP_LEVELS);
const progressToNext = (level: number, standing: Parameters<typeof levelByRuleOf>[0]) => progressToNextOf(level, standing, VIP_LEVELS);
const level = (n: number) => vipTermsOf(n, VIP_LEVELS);

describe('VIP levels', () => {
  it('the table starts at level 0 with no discount and rises monotonically', () => {
    expect(VIP_LEVELS[0]).toMatchObject({ level: 0, feeDiscountBps: 0, extraDailyWithdrawals: 0 });
    for (let i = 1; i < VIP_LEVELS.length; i += 1) {
      expect(VIP_LEVELS[i]!.level).toBe(i);
      expect(VIP_LEVELS[i]!.feeDiscountBps).toBeGreaterThan(VIP_LEVELS[i - 1]!.feeDiscountBps);
      expect(VIP_LEVELS[i]!.feeDiscountBps).toBeLessThan(10_000);
    }
  });

  it('the rule gives the highest level whose volume or balance threshold is met', () => {
    expect(levelByRule({ volume30dUsdtMinor: 0n, balanceUsdtMinor: 0n })).toBe(0);
    expect(levelByRule({ volume30dUsdtMinor: usdt(50_000n) - 1n, balanceUsdtMinor: 0n })).toBe(0);
    expect(levelByRule({ volume30dUsdtMinor: usdt(50_000n), balanceUsdtMinor: 0n })).toBe(1);
    expect(levelByRule({ volume30dUsdtMinor: 0n, balanceUsdtMinor: usdt(50_000n) })).toBe(2);
    expect(levelByRule({ volume30dUsdtMinor: usdt(1_000_000n), balanceUsdtMinor: usdt(50_000n) })).toBe(3);
    expect(levelByRule({ volume30dUsdtMinor: usdt(10_000_000n), balanceUsdtMinor: 0n })).toBe(4);
  });

  it('an application may only grant what the rule allows for applications', () => {
    const standing = { volume30dUsdtMinor: usdt(600_000n), balanceUsdtMinor: 0n };
    expect(applicationVerdict(3, 2, standing, VIP_LEVELS)).toEqual({ allowed: true });
    expect(applicationVerdict(4, 2, standing, VIP_LEVELS)).toEqual({ allowed: false, reason: 'threshold_not_met' });
    expect(applicationVerdict(2, 0, standing, VIP_LEVELS)).toEqual({ allowed: false, reason: 'not_by_application' });
    expect(applicationVerdict(3, 3, standing, VIP_LEVELS)).toEqual({ allowed: false, reason: 'not_above_current' });
    expect(applicationVerdict(9, 0, standing, VIP_LEVELS)).toEqual({ allowed: false, reason: 'not_by_application' });
  });

  it('the discount rounds down, so the fee charged stays at or above the exact discounted fee', () => {
    // 0.1 % of 1,234,567 minor = 1,234.567 → 1,235 (up); 20 % off = 247 (247.0 exact) → 988.
    const fee = discountedFeeOf(1_234_567n, 10n, level(2));
    expect(fee).toEqual({ feeBeforeDiscountMinor: 1_235n, discountBps: 2_000, discountMinor: 247n, feeMinor: 988n, level: 2 });
    // 10 % of 7 = 0.7 → 0 discount: the fee stays 7.
    expect(discountFee(7n, level(1))).toMatchObject({ discountMinor: 0n, feeMinor: 7n });
    for (let amount = 1n; amount < 5_000n; amount += 37n) {
      for (const each of [0, 1, 2, 3, 4].map((n) => discountedFeeOf(amount, 10n, level(n)))) {
        expect(each.feeBeforeDiscountMinor).toBe(feeOf(amount, 10n));
        expect(each.feeMinor + each.discountMinor).toBe(each.feeBeforeDiscountMinor);
        // fee × 10,000 ≥ before × (10,000 − discount bps): never below the exact discounted fee.
        expect(each.feeMinor * 10_000n).toBeGreaterThanOrEqual(each.feeBeforeDiscountMinor * BigInt(10_000 - each.discountBps));
      }
    }
  });

  it('level 0 charges the plain fee and writes no memo', () => {
    const fee = discountedFeeOf(1_000_000n, 10n, level(0));
    expect(fee.feeMinor).toBe(feeOf(1_000_000n, 10n));
    expect(discountMemo(fee, String)).toBe('');
  });

  it('the memo shows fee before, discount % and fee charged', () => {
    expect(discountMemo(discountFee(1_000n, level(2)), (minor) => (Number(minor) / 1e6).toFixed(6))).toBe(
      'VIP 2: fee 0.001000 less 20 % (0.000200) = 0.000800',
    );
  });

  it('progress names the next level and what it needs', () => {
    const progress = progressToNext(1, { volume30dUsdtMinor: usdt(100_000n), balanceUsdtMinor: usdt(1n) });
    expect(progress).toEqual({
      level: 1,
      next: 2,
      volume: { haveMinor: usdt(100_000n), needMinor: usdt(250_000n) },
      balance: { haveMinor: usdt(1n), needMinor: usdt(50_000n) },
    });
    expect(progressToNext(4, { volume30dUsdtMinor: 0n, balanceUsdtMinor: 0n }).next).toBeNull();
  });

  it('the operator’s table is read from text, level 0 implied', () => {
    const table = parseVipLevels('1/12.5/1/-/5000, 2/25/3/100000/20000/80000/10000');
    expect(table).toEqual([
      { level: 0, feeDiscountBps: 0, extraDailyWithdrawals: 0, minVolume30dUsdt: null, minBalanceUsdt: null, byApplication: null },
      { level: 1, feeDiscountBps: 1_250, extraDailyWithdrawals: 1, minVolume30dUsdt: null, minBalanceUsdt: 5_000n, byApplication: null },
      { level: 2, feeDiscountBps: 2_500, extraDailyWithdrawals: 3, minVolume30dUsdt: 100_000n, minBalanceUsdt: 20_000n, byApplication: { minVolume30dUsdt: 80_000n, minBalanceUsdt: 10_000n } },
    ]);
    expect(parseVipLevels('')).toHaveLength(1);
    expect(levelByRuleOf({ volume30dUsdtMinor: 0n, balanceUsdtMinor: usdt(20_000n) }, table)).toBe(2);
    expect(levelByRuleOf({ volume30dUsdtMinor: usdt(10_000_000n), balanceUsdtMinor: 0n }, parseVipLevels(''))).toBe(0);
  });

  it.each([
    ['2/10/1/100/10', /follows level 0/],
    ['1/10/1/100/10,1/20/2/200/20', /follows level 1/],
    ['1/100/1/100/10', /not below 100 %/],
    ['1/20/1/100/10,2/10/1/200/20', /discount is below/],
    ['1/10/2/100/10,2/20/1/200/20', /extra withdrawals are below/],
    ['1/10/1/-/-', /cannot be reached/],
    ['1/10/1/0/10', /give the level to everybody/],
    ['1/10/1/100/10,2/20/1/100/20', /volume threshold is not above/],
    ['1/10/1/100/10,2/20/1/-/5', /balance threshold is not above/],
    ['1/10/1/100/10/200/5', /application volume threshold is above/],
    ['1/10/1/101/10', null],
    ['1/10/1/100/10/0/5', /application volume threshold of 0/],
    ['1/10/1/100/10/x', /is not level/],
    ['1/10/101/100/10', /at most 100 extra/],
  ])('refuses an incoherent table: %s', (text, problem) => {
    if (problem === null) expect(() => parseVipLevels(text)).not.toThrow();
    else expect(() => parseVipLevels(text)).toThrow(problem);
    if (problem !== null) expect(() => parseVipLevels(text)).toThrow(VipLevelsError);
  });

  it('a stored level the table no longer has gives the highest level below it, never unpublished terms', () => {
    const table = parseVipLevels('1/10/1/100/10,2/20/2/200/20');
    expect(vipTermsOf(4, table)).toEqual({ level: 2, feeDiscountBps: 2_000, extraDailyWithdrawals: 2 });
    expect(vipTermsOf(1, table)).toEqual({ level: 1, feeDiscountBps: 1_000, extraDailyWithdrawals: 1 });
    expect(vipTermsOf(0, table)).toEqual({ level: 0, feeDiscountBps: 0, extraDailyWithdrawals: 0 });
  });

  it('the day is the UTC day', () => {
    expect(vipDayOf(Date.UTC(2026, 10, 29, 23, 59))).toBe('2026-11-29');
  });
});
