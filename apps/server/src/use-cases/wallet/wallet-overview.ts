import {
  USER_TRANSFER_FEE_PERCENT,
  dailyWithdrawalLimitUsdt,
  formatAmount,
  formatWithdrawalWindow,
  tierDailyLimitUsdtMinor,
  USDT_SCALE,
  WITHDRAWAL_LOCK_AFTER_PASSWORD_CHANGE_MS,
  withdrawalsLockedUntilMs,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishedTwoPersonRule } from '../admin/two-person-rule.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { withdrawalsToday } from './create-withdrawal.ts';

/**
 * The wallet's channels and published withdrawal rules: the same settings the withdrawal use case
 * enforces. Shown with the user's standing in the wallet, and on the public transparency page.
 */
export function publishedWalletRules(deps: Pick<Deps, 'wallet' | 'config'>) {
  const { wallet } = deps;
  const channels = [...wallet.channels.values()].map((channel) => ({
    id: channel.id,
    asset: channel.asset,
    network: channel.network,
    depositEnabled: wallet.addressSources[channel.network] !== undefined,
    depositReview: channel.depositReview,
    confirmations: channel.confirmations,
    withdrawEnabled: true,
    withdrawFee: formatAmount(channel.withdrawFeeMinor, channel.scale),
    withdrawMin: formatAmount(channel.withdrawMinMinor, channel.scale),
    depositMax: formatAmount(channel.depositMaxMinor, channel.scale),
  }));
  return {
    channels,
    rules: {
      withdrawalsOpen: wallet.policy.withdrawalsOpen,
      window: wallet.policy.window ? { ...formatWithdrawalWindow(wallet.policy.window), timeZone: 'UTC' as const } : null,
      dailyCountLimit: wallet.policy.dailyCountLimit,
      tierDailyLimitsUsdt: {
        tier0: dailyWithdrawalLimitUsdt[0].toString(),
        tier1: dailyWithdrawalLimitUsdt[1].toString(),
        tier2: dailyWithdrawalLimitUsdt[2].toString(),
      },
      addressHoldHours: deps.config.WITHDRAWAL_ADDRESS_HOLD_HOURS,
      passwordChangeLockHours: WITHDRAWAL_LOCK_AFTER_PASSWORD_CHANGE_MS / 3_600_000,
      twoPersonReviewAboveUsdt: formatAmount(wallet.twoPersonAboveUsdtMinor, USDT_SCALE),
      twoPersonReview: publishedTwoPersonRule(deps.config),
      userTransferFeePercent: USER_TRANSFER_FEE_PERCENT,
    },
  };
}

/**
 * The wallet's published rules and channels, and where the user stands against them today: the
 * same settings and the same counting the withdrawal use case enforces.
 */
export async function walletOverview(deps: Deps, user: UserRow) {
  const now = deps.now().getTime();
  const { channels, rules } = publishedWalletRules(deps);
  const { tier } = await verificationStatesOf(deps.db, user.id);
  const today = await withdrawalsToday(deps.db, user.id, now);
  const limitMinor = tierDailyLimitUsdtMinor(tier);
  const remainingMinor = limitMinor > today.usedUsdtMinor ? limitMinor - today.usedUsdtMinor : 0n;
  const lockedUntilMs = withdrawalsLockedUntilMs(user.login_password_changed_at?.getTime() ?? null, now);
  return {
    channels,
    rules,
    standing: {
      tier,
      dailyLimitUsdt: formatAmount(limitMinor, USDT_SCALE),
      usedTodayUsdt: formatAmount(today.usedUsdtMinor, USDT_SCALE),
      remainingTodayUsdt: formatAmount(remainingMinor, USDT_SCALE),
      withdrawalsToday: today.requests,
      paymentPasswordSet: user.payment_password_hash !== null,
      withdrawalForbidden: user.status === 'withdrawal_forbidden',
      withdrawalsLockedUntil: lockedUntilMs === null ? null : new Date(lockedUntilMs).toISOString(),
    },
  };
}
