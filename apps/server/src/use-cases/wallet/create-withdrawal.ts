import { AppError, type WalletChannelId } from '@keel/contracts';
import {
  formatAmount,
  LedgerError,
  USDT_SCALE,
  utcDayStartMs,
  type WithdrawalAttempt,
  type WithdrawalRefusal,
  withdrawalRefusal,
  vipTermsOf,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { placeHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { findWithdrawalView, withdrawalView } from '../../persistence/withdrawals.repository.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { parseChannelAmount, valueInUsdt } from './wallet-support.ts';

/** Each published rule, as the catalogue error that names it; `data.rule` says which rule applied. */
export function refusalError(refusal: WithdrawalRefusal): AppError {
  switch (refusal.rule) {
    case 'withdrawal_forbidden':
      return new AppError('WITHDRAWAL_FORBIDDEN', { rule: refusal.rule });
    case 'withdrawals_closed':
      return new AppError('WITHDRAWAL_CLOSED', { rule: refusal.rule });
    case 'time_window':
      return new AppError('TRANSACTION_TIME_LIMITED', { rule: refusal.rule, from: refusal.from, to: refusal.to, timeZone: 'UTC' });
    case 'identity_verification':
      return new AppError('IDENTITY_VERIFICATION_REQUIRED', { rule: refusal.rule });
    case 'password_change_lock':
    case 'address_hold':
      return new AppError('WITHDRAWAL_PERIOD', { rule: refusal.rule, until: new Date(refusal.untilMs).toISOString() });
    case 'daily_count':
      return new AppError('DAILY_WITHDRAWAL_COUNT_LIMIT', {
        rule: refusal.rule,
        limit: refusal.limit,
        used: refusal.used,
        ...(refusal.vipLevel !== undefined ? { vipLevel: refusal.vipLevel, vipExtra: refusal.vipExtra } : {}),
      });
    case 'tier_daily_limit':
      return new AppError('WITHDRAWAL_IMPOSSIBLE', {
        rule: refusal.rule,
        tier: refusal.tier,
        limitUsdt: formatAmount(refusal.limitUsdtMinor, USDT_SCALE),
        usedUsdt: formatAmount(refusal.usedUsdtMinor, USDT_SCALE),
        remainingUsdt: formatAmount(refusal.remainingUsdtMinor, USDT_SCALE),
      });
  }
}

/**
 * Today's (UTC) withdrawal requests of a user and the USDT value of those not returned. Transfers
 * to other users and C2C withdrawals not failed count as withdrawals here (issue 19): money leaving
 * the user's control.
 */
export async function withdrawalsToday(db: Queryable, userId: bigint, nowMs: number) {
  const [row] = await db.query<{ requests: bigint; used_minor: string; vip_level: number }>(
    `SELECT w.requests + t.requests + c.requests AS requests, w.used_minor + t.used_minor + c.used_minor AS used_minor,
            COALESCE((SELECT v.level FROM vip_levels v WHERE v.user_id = $1), 0) AS vip_level
     FROM (SELECT count(*)::bigint AS requests,
             COALESCE(sum(usdt_value_minor) FILTER (WHERE status NOT IN ('rejected', 'failed', 'cancelled')), 0) AS used_minor
           FROM withdrawals WHERE user_id = $1 AND created_at >= $2) w,
          (SELECT count(*)::bigint AS requests, COALESCE(sum(usdt_value_minor), 0) AS used_minor
           FROM user_transfers WHERE sender_id = $1 AND created_at >= $2) t,
          (SELECT count(*)::bigint AS requests, COALESCE(sum(usdt_minor) FILTER (WHERE status <> 'failed'), 0) AS used_minor
           FROM c2c_requests WHERE user_id = $1 AND kind = 'withdrawal' AND created_at >= $2) c`,
    [userId, new Date(utcDayStartMs(nowMs))],
  );
  // The user's VIP level now: its extra requests a day count in the daily count (ADR 0046).
  return { requests: Number(row!.requests), usedUsdtMinor: toMinor(row!.used_minor), vipLevel: Number(row!.vip_level) };
}

/**
 * A withdrawal request. The published rules are checked first (each refusal names its rule), then
 * the payment password, then — in one transaction — the daily count and limit and the hold of
 * amount + fee on the coin account. Locks, always in this order: the user's row (so one user's
 * requests are judged one at a time against today's totals), then the ledger account (placeHold).
 * Of many concurrent requests for the whole balance exactly one is held; the others find the
 * balance gone ("insufficient balance"). Through the API the answer commits with the hold (ADR 0019).
 */
export async function createWithdrawal(
  deps: Deps,
  input: { user: UserRow; channel: WalletChannelId; addressId: bigint; amount: string; paymentPassword: string; requestKey: string },
  idempotency?: IdempotentRequest<ReturnType<typeof withdrawalView>>,
) {
  const channel = deps.wallet.channels.get(input.channel);
  if (!channel) throw new AppError('WITHDRAWAL_IMPOSSIBLE', { rule: 'channel_unavailable', channel: input.channel });
  const amountMinor = parseChannelAmount(channel, input.amount);
  if (amountMinor < channel.withdrawMinMinor) {
    throw new AppError('AMOUNT_OUT_OF_RANGE', { min: formatAmount(channel.withdrawMinMinor, channel.scale), asset: channel.asset });
  }
  const [address] = await deps.db.query<{ id: bigint; network: string; address: string; created_at: Date }>(
    'SELECT id, network, address, created_at FROM withdrawal_addresses WHERE id = $1 AND user_id = $2 AND removed_at IS NULL',
    [input.addressId, input.user.id],
  );
  if (!address) throw new AppError('RECORD_NOT_FOUND', { field: 'addressId' });
  if (address.network !== channel.network) throw new AppError('WRONG_ADDRESS', { problem: 'wrong_network', network: channel.network });

  const now = deps.now();
  const { tier } = await verificationStatesOf(deps.db, input.user.id);
  const valuation = valueInUsdt(deps, channel, amountMinor, true)!;
  const attempt = (today: { requests: number; usedUsdtMinor: bigint; vipLevel: number }): WithdrawalAttempt => ({
    nowMs: now.getTime(),
    userStatus: input.user.status,
    tier,
    loginPasswordChangedAtMs: input.user.login_password_changed_at?.getTime() ?? null,
    addressAddedAtMs: address.created_at.getTime(),
    requestsTodayCount: today.requests,
    vip: vipTermsOf(today.vipLevel, deps.config.VIP_LEVELS),
    usedTodayUsdtMinor: today.usedUsdtMinor,
    usdtValueMinor: valuation.usdtValueMinor,
  });
  // The rules that need no lock first, so a refused request costs no password check.
  const early = withdrawalRefusal(deps.wallet.policy, attempt(await withdrawalsToday(deps.db, input.user.id, now.getTime())));
  if (early) throw refusalError(early);
  await checkPaymentPassword(deps, input.user, input.paymentPassword);

  const feeMinor = channel.withdrawFeeMinor;
  const approvalsRequired = valuation.usdtValueMinor > deps.wallet.twoPersonAboveUsdtMinor ? 2 : 1;
  // The user's view of the withdrawal, read in its transaction; through the API also the answer.
  const answer = async (tx: Queryable, withdrawalId: bigint) => {
    const view = withdrawalView((await findWithdrawalView(tx, withdrawalId))!);
    await idempotency?.answerInTransaction(tx, view);
    return view;
  };
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [input.user.id]);
      const refusal = withdrawalRefusal(deps.wallet.policy, attempt(await withdrawalsToday(tx, input.user.id, now.getTime())));
      if (refusal) throw refusalError(refusal);
      const coin = await ensureUserAccount(tx, input.user.id, 'coin', channel.asset);
      // The hold names the withdrawal, so its id is taken first.
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('withdrawals', 'id')) AS id`)) as [{ id: bigint }];
      const hold = await placeHold(tx, {
        accountId: coin,
        amountMinor: amountMinor + feeMinor,
        referenceType: 'withdrawal',
        referenceId: id.toString(),
        // A retry after an unknown outcome finds this hold instead of holding twice.
        idempotencyKey: `withdrawal:${input.user.id}:${input.requestKey}`,
        at: now,
      });
      if (hold.replayed) {
        const [earlier] = await tx.query<{ id: bigint }>('SELECT id FROM withdrawals WHERE hold_id = $1', [hold.holdId]);
        return answer(tx, earlier!.id);
      }
      await tx.query(
        `INSERT INTO withdrawals (id, user_id, channel, asset, network, address_id, address, amount_minor, fee_minor, usdt_value_minor,
           price_tick_id, hold_id, approvals_required, created_at)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          id,
          input.user.id,
          channel.id,
          channel.asset,
          channel.network,
          address.id,
          address.address,
          amountMinor.toString(),
          feeMinor.toString(),
          valuation.usdtValueMinor.toString(),
          valuation.tickId,
          hold.holdId,
          approvalsRequired,
          now,
        ],
      );
      return answer(tx, id);
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
}
