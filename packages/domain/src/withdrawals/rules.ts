import { type AccountStatus, canWithdraw } from '../accounts/user-status.ts';
import { mulDiv } from '../money/amount.ts';
import { PRICE_SCALE } from '../market/price.ts';
import { type VerificationTier, dailyWithdrawalLimitUsdt } from '../identity/tiers.ts';
import { withdrawalsLockedUntilMs } from '../identity/security-rules.ts';
import type { VipTerms } from '../vip/levels.ts';

/**
 * The published withdrawal rules (decisions page 1.3, issue 5). Each refusal names its rule, so the
 * user is told which one applied and, where it ends, when. The server checks them in this order
 * and answers the first that applies.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** USDT is kept with 6 decimals in the ledger; USDT-equivalent values use the same scale. */
export const USDT_SCALE = 6;
const USDT_ONE_MINOR = 10n ** BigInt(USDT_SCALE);

/** Minutes since UTC midnight at which the daily window opens and closes (to may be 1440). */
export interface WithdrawalWindow {
  fromMinute: number;
  toMinute: number;
}

export interface WithdrawalPolicy {
  withdrawalsOpen: boolean;
  /** null: withdrawals are accepted at any time of day. */
  window: WithdrawalWindow | null;
  dailyCountLimit: number;
  addressHoldMs: number;
}

export interface WithdrawalAttempt {
  nowMs: number;
  userStatus: AccountStatus;
  tier: VerificationTier;
  loginPasswordChangedAtMs: number | null;
  /** When the destination address was added; null for a transfer to another user, which has none (issue 19). */
  addressAddedAtMs: number | null;
  /** Withdrawals requested since the start of the UTC day (cancelled and rejected ones count too: the count limits requests). */
  requestsTodayCount: number;
  /** USDT value of today's withdrawals that were not returned (rejected, failed and cancelled ones are not counted). */
  usedTodayUsdtMinor: bigint;
  usdtValueMinor: bigint;
  /** The user's VIP level: its extra withdrawals a day add to the daily count (ADR 0046). Level 0 when absent. */
  vip?: VipTerms;
}

export type WithdrawalRefusal =
  | { rule: 'withdrawal_forbidden' }
  | { rule: 'withdrawals_closed' }
  | { rule: 'time_window'; from: string; to: string }
  | { rule: 'identity_verification' }
  | { rule: 'password_change_lock'; untilMs: number }
  | { rule: 'address_hold'; untilMs: number }
  | { rule: 'daily_count'; limit: number; used: number; vipLevel?: number; vipExtra?: number }
  | { rule: 'tier_daily_limit'; tier: VerificationTier; limitUsdtMinor: bigint; usedUsdtMinor: bigint; remainingUsdtMinor: bigint };

/** Start of the UTC day holding `nowMs`: the daily count and limit run per UTC day. */
export function utcDayStartMs(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS;
}

const HH_MM = /^(\d{2}):(\d{2})$/;

function minuteOf(text: string): number {
  const match = HH_MM.exec(text);
  if (!match) throw new RangeError(`not a time of day: ${text}`);
  const minute = Number(match[1]) * 60 + Number(match[2]);
  if (minute > 24 * 60 || Number(match[2]) > 59) throw new RangeError(`not a time of day: ${text}`);
  return minute;
}

/** Parses "HH:MM-HH:MM" (UTC). A window whose end is before its start runs over midnight. */
export function parseWithdrawalWindow(text: string): WithdrawalWindow {
  const [from, to] = text.split('-');
  if (from === undefined || to === undefined) throw new RangeError(`not a window: ${text}`);
  const window = { fromMinute: minuteOf(from), toMinute: minuteOf(to) };
  if (window.fromMinute === window.toMinute) throw new RangeError(`an empty window: ${text}`);
  return window;
}

function clock(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

export function formatWithdrawalWindow(window: WithdrawalWindow): { from: string; to: string } {
  return { from: clock(window.fromMinute), to: clock(window.toMinute) };
}

export function isInsideWindow(window: WithdrawalWindow | null, nowMs: number): boolean {
  if (window === null) return true;
  const minute = Math.floor((nowMs - utcDayStartMs(nowMs)) / MINUTE_MS);
  return window.fromMinute < window.toMinute
    ? minute >= window.fromMinute && minute < window.toMinute
    : minute >= window.fromMinute || minute < window.toMinute;
}

/** The daily limit of a tier in USDT minor units. */
export function tierDailyLimitUsdtMinor(tier: VerificationTier): bigint {
  return dailyWithdrawalLimitUsdt[tier] * USDT_ONE_MINOR;
}

/**
 * The USDT value of an amount, rounded up so a limit is never passed by rounding. `priceMinor` is
 * USDT per whole unit with PRICE_SCALE decimals (null for USDT itself, worth exactly 1).
 */
export function usdtValueMinor(amountMinor: bigint, assetScale: number, priceMinor: bigint | null): bigint {
  if (priceMinor === null) return amountMinor;
  // amount / 10^scale × price / 10^PRICE_SCALE, expressed in 10^-USDT_SCALE units.
  return mulDiv(amountMinor * priceMinor, 10n ** BigInt(USDT_SCALE), 10n ** BigInt(assetScale + PRICE_SCALE), 'ceil');
}

/** The first published rule that refuses this withdrawal, or null when none does. */
export function withdrawalRefusal(policy: WithdrawalPolicy, attempt: WithdrawalAttempt): WithdrawalRefusal | null {
  if (!canWithdraw(attempt.userStatus)) return { rule: 'withdrawal_forbidden' };
  if (!policy.withdrawalsOpen) return { rule: 'withdrawals_closed' };
  if (!isInsideWindow(policy.window, attempt.nowMs)) return { rule: 'time_window', ...formatWithdrawalWindow(policy.window!) };
  if (attempt.tier === 0) return { rule: 'identity_verification' };
  const lockedUntilMs = withdrawalsLockedUntilMs(attempt.loginPasswordChangedAtMs, attempt.nowMs);
  if (lockedUntilMs !== null) return { rule: 'password_change_lock', untilMs: lockedUntilMs };
  if (attempt.addressAddedAtMs !== null) {
    const usableFromMs = attempt.addressAddedAtMs + policy.addressHoldMs;
    if (attempt.nowMs < usableFromMs) return { rule: 'address_hold', untilMs: usableFromMs };
  }
  // The daily count: the platform's, plus the extra requests of the user's VIP level (named when it applies).
  const vipExtra = attempt.vip?.extraDailyWithdrawals ?? 0;
  const dailyCountLimit = policy.dailyCountLimit + vipExtra;
  if (attempt.requestsTodayCount >= dailyCountLimit) {
    return {
      rule: 'daily_count',
      limit: dailyCountLimit,
      used: attempt.requestsTodayCount,
      ...(vipExtra > 0 ? { vipLevel: attempt.vip!.level, vipExtra } : {}),
    };
  }
  const limitUsdtMinor = tierDailyLimitUsdtMinor(attempt.tier);
  if (attempt.usedTodayUsdtMinor + attempt.usdtValueMinor > limitUsdtMinor) {
    const remaining = limitUsdtMinor - attempt.usedTodayUsdtMinor;
    return {
      rule: 'tier_daily_limit',
      tier: attempt.tier,
      limitUsdtMinor,
      usedUsdtMinor: attempt.usedTodayUsdtMinor,
      remainingUsdtMinor: remaining > 0n ? remaining : 0n,
    };
  }
  return null;
}
