import { describe, expect, it } from 'vitest';
import { DEFAULT_VIP_LEVELS, vipTermsOf } from '../vip/levels.ts';
import {
  isInsideWindow,
  parseWithdrawalWindow,
  tierDailyLimitUsdtMinor,
  usdtValueMinor,
  utcDayStartMs,
  type WithdrawalAttempt,
  type WithdrawalPolicy,
  withdrawalRefusal,
} from './rules.ts';

const NOON = Date.UTC(2026, 10, 22, 12, 0, 0);
const USDT = 1_000_000n;

const policy: WithdrawalPolicy = { withdrawalsOpen: true, window: null, dailyCountLimit: 3, addressHoldMs: 24 * 3_600_000 };
const attempt: WithdrawalAttempt = {
  nowMs: NOON,
  userStatus: 'active',
  tier: 1,
  loginPasswordChangedAtMs: null,
  addressAddedAtMs: NOON - 48 * 3_600_000,
  requestsTodayCount: 0,
  usedTodayUsdtMinor: 0n,
  usdtValueMinor: 100n * USDT,
};

describe('withdrawal rules', () => {
  it('lets an ordinary request through', () => {
    expect(withdrawalRefusal(policy, attempt)).toBeNull();
  });

  it('names each rule, checked in the published order', () => {
    expect(withdrawalRefusal(policy, { ...attempt, userStatus: 'withdrawal_forbidden' })).toEqual({ rule: 'withdrawal_forbidden' });
    expect(withdrawalRefusal({ ...policy, withdrawalsOpen: false }, attempt)).toEqual({ rule: 'withdrawals_closed' });
    // Forbidden wins over closed: the user's own state is the more specific answer.
    expect(withdrawalRefusal({ ...policy, withdrawalsOpen: false }, { ...attempt, userStatus: 'withdrawal_forbidden' })).toEqual({ rule: 'withdrawal_forbidden' });
    expect(withdrawalRefusal({ ...policy, window: parseWithdrawalWindow('13:00-20:00') }, attempt)).toEqual({ rule: 'time_window', from: '13:00', to: '20:00' });
    expect(withdrawalRefusal(policy, { ...attempt, tier: 0 })).toEqual({ rule: 'identity_verification' });
    expect(withdrawalRefusal(policy, { ...attempt, loginPasswordChangedAtMs: NOON - 3_600_000 })).toEqual({
      rule: 'password_change_lock',
      untilMs: NOON + 23 * 3_600_000,
    });
    expect(withdrawalRefusal(policy, { ...attempt, loginPasswordChangedAtMs: NOON - 25 * 3_600_000 })).toBeNull();
    expect(withdrawalRefusal(policy, { ...attempt, addressAddedAtMs: NOON - 3_600_000 })).toEqual({ rule: 'address_hold', untilMs: NOON + 23 * 3_600_000 });
    // A transfer to another user has no address, so no address hold; every other rule still applies.
    expect(withdrawalRefusal(policy, { ...attempt, addressAddedAtMs: null })).toBeNull();
    expect(withdrawalRefusal(policy, { ...attempt, addressAddedAtMs: null, requestsTodayCount: 3 })).toEqual({ rule: 'daily_count', limit: 3, used: 3 });
    expect(withdrawalRefusal(policy, { ...attempt, requestsTodayCount: 3 })).toEqual({ rule: 'daily_count', limit: 3, used: 3 });
    expect(withdrawalRefusal(policy, { ...attempt, requestsTodayCount: 2 })).toBeNull();
  });

  it('a VIP level adds its extra withdrawals a day to the daily count, and the refusal names it (ADR 0046)', () => {
    // VIP 2: two more a day.
    expect(withdrawalRefusal(policy, { ...attempt, requestsTodayCount: 4, vip: vipTermsOf(2, DEFAULT_VIP_LEVELS) })).toBeNull();
    expect(withdrawalRefusal(policy, { ...attempt, requestsTodayCount: 5, vip: vipTermsOf(2, DEFAULT_VIP_LEVELS) })).toEqual({ rule: 'daily_count', limit: 5, used: 5, vipLevel: 2, vipExtra: 2 });
    expect(withdrawalRefusal(policy, { ...attempt, requestsTodayCount: 3, vip: vipTermsOf(0, DEFAULT_VIP_LEVELS) })).toEqual({ rule: 'daily_count', limit: 3, used: 3 });
  });

  it('tier daily limit: exactly the limit passes, one minor unit more does not, and the remainder is said', () => {
    const limit = tierDailyLimitUsdtMinor(1);
    expect(limit).toBe(50_000n * USDT);
    expect(tierDailyLimitUsdtMinor(2)).toBe(20_000_000n * USDT);
    expect(tierDailyLimitUsdtMinor(0)).toBe(0n);
    expect(withdrawalRefusal(policy, { ...attempt, usedTodayUsdtMinor: limit - 100n * USDT })).toBeNull();
    expect(withdrawalRefusal(policy, { ...attempt, usedTodayUsdtMinor: limit - 100n * USDT + 1n })).toEqual({
      rule: 'tier_daily_limit',
      tier: 1,
      limitUsdtMinor: limit,
      usedUsdtMinor: limit - 100n * USDT + 1n,
      remainingUsdtMinor: 100n * USDT - 1n,
    });
    expect(withdrawalRefusal(policy, { ...attempt, tier: 2, usdtValueMinor: 60_000n * USDT })).toBeNull();
  });

  it('windows run in UTC, may cross midnight, and end exclusive', () => {
    const night = parseWithdrawalWindow('22:00-06:00');
    expect(isInsideWindow(night, Date.UTC(2026, 0, 1, 23, 30))).toBe(true);
    expect(isInsideWindow(night, Date.UTC(2026, 0, 1, 5, 59))).toBe(true);
    expect(isInsideWindow(night, Date.UTC(2026, 0, 1, 6, 0))).toBe(false);
    expect(isInsideWindow(night, Date.UTC(2026, 0, 1, 12, 0))).toBe(false);
    const day = parseWithdrawalWindow('08:00-24:00');
    expect(isInsideWindow(day, Date.UTC(2026, 0, 1, 23, 59))).toBe(true);
    expect(isInsideWindow(day, Date.UTC(2026, 0, 1, 7, 59))).toBe(false);
    expect(isInsideWindow(null, NOON)).toBe(true);
    expect(() => parseWithdrawalWindow('08:00-08:00')).toThrow(RangeError);
    expect(() => parseWithdrawalWindow('8-20')).toThrow(RangeError);
  });

  it('the day starts at UTC midnight', () => {
    expect(utcDayStartMs(NOON)).toBe(Date.UTC(2026, 10, 22));
    expect(utcDayStartMs(Date.UTC(2026, 10, 22))).toBe(Date.UTC(2026, 10, 22));
  });

  it('values BTC and ETH in USDT at the recorded price, rounding up so a limit is never passed by rounding', () => {
    // 1.2 BTC at 40,000.00000000 = 48,000 USDT.
    expect(usdtValueMinor(120_000_000n, 8, 4_000_000_000_000n)).toBe(48_000n * USDT);
    // 1 wei at 3,000 USDT/ETH is 3e-15 USDT: rounds up to one minor unit, never down to nothing.
    expect(usdtValueMinor(1n, 18, 300_000_000_000n)).toBe(1n);
    // USDT is worth exactly 1.
    expect(usdtValueMinor(123n, 6, null)).toBe(123n);
  });
});
