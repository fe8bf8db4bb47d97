import { describe, expect, it } from 'vitest';
import { feeOf } from '../money/amount.ts';
import { applicationVerdict, discountedFeeOf, discountFee, discountMemo, levelByRule, progressToNext, VIP_LEVELS, vipDayOf } from './levels.ts';

const usdt = (whole: bigint) => whole * 1_000_000n;

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
    expect(applicationVerdict(3, 2, standing)).toEqual({ allowed: true });
    expect(applicationVerdict(4, 2, standing)).toEqual({ allowed: false, reason: 'threshold_not_met' });
    expect(applicationVerdict(2, 0, standing)).toEqual({ allowed: false, reason: 'not_by_application' });
    expect(applicationVerdict(3, 3, standing)).toEqual({ allowed: false, reason: 'not_above_current' });
    expect(applicationVerdict(9, 0, standing)).toEqual({ allowed: false, reason: 'not_by_application' });
  });

  it('the discount rounds down, so the fee charged stays at or above the exact discounted fee', () => {
    // 0.1 % of 1,234,567 minor = 1,234.567 → 1,235 (up); 20 % off = 247 (247.0 exact) → 988.
    const fee = discountedFeeOf(1_234_567n, 10n, 2);
    expect(fee).toEqual({ feeBeforeDiscountMinor: 1_235n, discountBps: 2_000, discountMinor: 247n, feeMinor: 988n, level: 2 });
    // 10 % of 7 = 0.7 → 0 discount: the fee stays 7.
    expect(discountFee(7n, 1)).toMatchObject({ discountMinor: 0n, feeMinor: 7n });
    for (let amount = 1n; amount < 5_000n; amount += 37n) {
      for (const level of [0, 1, 2, 3, 4]) {
        const each = discountedFeeOf(amount, 10n, level);
        expect(each.feeBeforeDiscountMinor).toBe(feeOf(amount, 10n));
        expect(each.feeMinor + each.discountMinor).toBe(each.feeBeforeDiscountMinor);
        // fee × 10,000 ≥ before × (10,000 − discount bps): never below the exact discounted fee.
        expect(each.feeMinor * 10_000n).toBeGreaterThanOrEqual(each.feeBeforeDiscountMinor * BigInt(10_000 - each.discountBps));
      }
    }
  });

  it('level 0 charges the plain fee and writes no memo', () => {
    const fee = discountedFeeOf(1_000_000n, 10n, 0);
    expect(fee.feeMinor).toBe(feeOf(1_000_000n, 10n));
    expect(discountMemo(fee, String)).toBe('');
  });

  it('the memo shows fee before, discount % and fee charged', () => {
    expect(discountMemo(discountFee(1_000n, 2), (minor) => (Number(minor) / 1e6).toFixed(6))).toBe(
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

  it('the day is the UTC day', () => {
    expect(vipDayOf(Date.UTC(2026, 10, 29, 23, 59))).toBe('2026-11-29');
  });
});
