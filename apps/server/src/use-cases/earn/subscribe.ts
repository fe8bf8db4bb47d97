import { AppError, EARN_TERMS_VERSION, type EarnSubscription } from '@keel/contracts';
import {
  earlyRedemptionPenaltyMinor,
  estimatedIncomeMinor,
  formatAmount,
  interestOwedMinor,
  LedgerError,
  maturityTimeMs,
  payoutTimeMs,
  remainingDaysAt,
  subscriptionProblem,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import { assetScales } from '../assets/account-balances.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { earnTreasuryAccount, lockObligations } from './earn-support.ts';
import { payDueDays } from './pay-interest.ts';
import { type EarnProductRow, type EarnSubscriptionRow, PRODUCT_COLUMNS, readSubscription, SUBSCRIPTION_COLUMNS } from './earn-views.ts';

export async function acknowledgeEarnTerms(deps: Pick<Deps, 'db' | 'now'>, userId: bigint, version: number) {
  if (version !== EARN_TERMS_VERSION) throw new AppError('PARAMETER_ERROR', { field: 'version', expected: EARN_TERMS_VERSION });
  await deps.db.query('INSERT INTO earn_acknowledgements (user_id, version, accepted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    userId,
    version,
    deps.now(),
  ]);
  const [row] = await deps.db.query<{ accepted_at: Date }>('SELECT accepted_at FROM earn_acknowledgements WHERE user_id = $1 AND version = $2', [
    userId,
    version,
  ]);
  return { version, acceptedAt: row!.accepted_at.toISOString() };
}

/** The number a person quotes: E, the UTC day, the id. */
export function subscriptionNumber(id: bigint, atMs: number): string {
  return `E${new Date(atMs).toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
}

export interface SubscribeInput {
  user: UserRow;
  productId: bigint;
  amount: string;
  paymentPassword: string;
  termsVersion: number;
  requestKey: string;
}

/**
 * A subscription (issue 17, ADR 0035). Refusals that need no lock first (the acknowledgement, the
 * product, its terms version, the amount and its range), then the payment password, then in one
 * transaction, locking in the one order every earn writer uses — the product row, the asset's
 * obligations row, the ledger accounts (ascending id) — the user's and the product's quota of
 * active principal, the treasury's cover for the new promise, and one journal entry moving the
 * principal from the coin account into the frozen part of the DeFi account, with its hold and the
 * subscription row. Racing subscriptions are judged one at a time against the quota, so together
 * they never pass it. Through the API the answer commits with the entry (ADR 0019); a retry under
 * the same key finds the entry and answers the first subscription.
 */
export async function subscribeEarn(deps: Deps, input: SubscribeInput, idempotency?: IdempotentRequest<EarnSubscription>): Promise<EarnSubscription> {
  const view = await subscribeInTransaction(deps, input, idempotency);
  await publishToUser(deps, input.user.id, { kind: 'earn.subscription', subscriptionId: view.id, status: view.status });
  return view;
}

async function subscribeInTransaction(deps: Deps, input: SubscribeInput, idempotency?: IdempotentRequest<EarnSubscription>): Promise<EarnSubscription> {
  const [ack] = await deps.db.query('SELECT 1 FROM earn_acknowledgements WHERE user_id = $1 AND version = $2', [input.user.id, EARN_TERMS_VERSION]);
  if (!ack) throw new AppError('RISK_DISCLOSURE_REQUIRED', { version: EARN_TERMS_VERSION });
  const [product] = await deps.db.query<EarnProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM earn_products WHERE id = $1`, [input.productId]);
  if (!product) throw new AppError('PRODUCT_NOT_FOUND');
  if (!product.open) throw new AppError('PRODUCT_CLOSED');
  const scale = (await assetScales(deps.db)).get(product.asset)!;
  const amountMinor = parseUserAmount(input.amount, scale, 'amount');
  const range = { min: formatAmount(toMinor(product.min_amount_minor), scale), max: formatAmount(toMinor(product.max_amount_minor), scale), asset: product.asset };
  if (amountMinor < toMinor(product.min_amount_minor) || amountMinor > toMinor(product.max_amount_minor)) throw new AppError('AMOUNT_OUT_OF_RANGE', range);
  // The terms the user read are the terms sold: a product changed since is refused, with its new version.
  if (input.termsVersion !== product.terms_version) throw new AppError('PARAMETER_ERROR', { field: 'termsVersion', expected: product.terms_version });
  await checkPaymentPassword(deps, input.user, input.paymentPassword);

  const now = deps.now();
  const nowMs = now.getTime();
  try {
    return await deps.db.transaction(async (tx) => {
      const [locked] = await tx.query<EarnProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM earn_products WHERE id = $1 FOR UPDATE`, [input.productId]);
      const coin = await ensureUserAccount(tx, input.user.id, 'coin', product.asset);
      const defi = await ensureUserAccount(tx, input.user.id, 'defi', product.asset);
      const treasury = await earnTreasuryAccount(tx, product.asset);
      const owedMinor = await lockObligations(tx, product.asset);
      // A retry of a subscription that committed: its entry is in the journal under the request's key.
      const entryKey = `earn.subscribe:${input.user.id}:${input.requestKey}`;
      const [earlier] = await tx.query<{ id: bigint }>(
        'SELECT s.id FROM earn_subscriptions s JOIN journal_entries e ON e.id = s.subscribe_entry_id WHERE e.idempotency_key = $1',
        [entryKey],
      );
      if (earlier) return answer(tx, earlier.id);

      if (!locked!.open) throw new AppError('PRODUCT_CLOSED');
      if (locked!.terms_version !== input.termsVersion) throw new AppError('PARAMETER_ERROR', { field: 'termsVersion', expected: locked!.terms_version });
      const [mine] = await tx.query<{ active: string }>(
        `SELECT coalesce(sum(principal_minor), 0)::text AS active FROM earn_subscriptions WHERE user_id = $1 AND product_id = $2 AND status = 'active'`,
        [input.user.id, input.productId],
      );
      const problem = subscriptionProblem(
        {
          open: true,
          minAmountMinor: toMinor(locked!.min_amount_minor),
          maxAmountMinor: toMinor(locked!.max_amount_minor),
          userQuotaMinor: toMinor(locked!.user_quota_minor),
          totalQuotaMinor: toMinor(locked!.total_quota_minor),
        },
        amountMinor,
        { user: toMinor(mine!.active), total: toMinor(locked!.active_minor) },
      );
      if (problem === 'amount_out_of_range') throw new AppError('AMOUNT_OUT_OF_RANGE', range);
      if (problem === 'user_quota' || problem === 'total_quota') throw new AppError('PURCHASE_LIMIT_EXCEEDED', { rule: problem });
      // The promise is sold only if the treasury holds it, with every promise before it (ADR 0035).
      const promisedMinor = estimatedIncomeMinor(amountMinor, locked!.daily_rate_ppm, locked!.cycle_days);
      const [treasuryRow] = await tx.query<{ available_minor: string }>('SELECT available_minor::text AS available_minor FROM ledger_accounts WHERE id = $1', [
        treasury,
      ]);
      if (toMinor(treasuryRow!.available_minor) < owedMinor + promisedMinor) throw new AppError('PURCHASE_LIMIT_EXCEEDED', { rule: 'treasury_cover' });

      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('earn_subscriptions', 'id')) AS id`)) as [{ id: bigint }];
      const entry = await postEntry(tx, {
        reason: 'earn.subscribe',
        referenceType: 'earn_subscription',
        referenceId: id.toString(),
        idempotencyKey: entryKey,
        memo: `${locked!.name} ${subscriptionNumber(id, nowMs)}`,
        postings: [
          { accountId: coin, asset: product.asset, bucket: 'available', amountMinor: -amountMinor },
          { accountId: defi, asset: product.asset, bucket: 'frozen', amountMinor },
        ],
        at: now,
      });
      const [hold] = await tx.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         VALUES ($1, $2, 'earn_subscription', $3, $4, $5) RETURNING id`,
        [defi, amountMinor.toString(), id.toString(), entry.entryId, now],
      );
      const firstPayoutMs = payoutTimeMs(nowMs, locked!.payout_minute_utc, 1);
      await tx.query(
        `INSERT INTO earn_subscriptions (id, subscription_no, user_id, product_id, asset, principal_minor, terms_version, cycle_days, daily_rate_ppm,
           penalty_rate_ppm, payout_minute_utc, early_redemption, subscribed_at_ms, matures_at_ms, next_payout_at_ms, account_id, hold_id, subscribe_entry_id)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
        [
          id,
          subscriptionNumber(id, nowMs),
          input.user.id,
          input.productId,
          product.asset,
          amountMinor.toString(),
          locked!.terms_version,
          locked!.cycle_days,
          locked!.daily_rate_ppm,
          locked!.penalty_rate_ppm,
          locked!.payout_minute_utc,
          locked!.early_redemption,
          nowMs,
          maturityTimeMs(nowMs, locked!.payout_minute_utc, locked!.cycle_days),
          firstPayoutMs,
          defi,
          hold!.id,
          entry.entryId,
        ],
      );
      await tx.query('UPDATE earn_products SET active_minor = active_minor + $2 WHERE id = $1', [input.productId, amountMinor.toString()]);
      await tx.query('UPDATE earn_obligations SET owed_minor = owed_minor + $2 WHERE asset = $1', [product.asset, promisedMinor.toString()]);
      return answer(tx, id);
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }

  async function answer(tx: Queryable, subscriptionId: bigint) {
    const view = (await readSubscription(tx, subscriptionId, nowMs, input.user.id))!;
    await idempotency?.answerInTransaction(tx, view);
    return view;
  }
}

/**
 * An early redemption: the principal less the penalty (penalty rate × days not yet come due ×
 * principal) back to the coin account, the penalty to the earn treasury, one entry; the hold is
 * posted and the subscription ends. Interest already paid stays paid; what was still owed is no
 * longer owed. Locks the subscription, then its product, then the obligations row, then the accounts.
 */
export async function redeemEarnSubscription(
  deps: Deps,
  input: { user: UserRow; subscriptionId: bigint; paymentPassword: string },
  idempotency?: IdempotentRequest<EarnSubscription>,
): Promise<EarnSubscription> {
  const view = await redeemInTransaction(deps, input, idempotency);
  await publishToUser(deps, input.user.id, { kind: 'earn.subscription', subscriptionId: view.id, status: view.status });
  return view;
}

async function redeemInTransaction(
  deps: Deps,
  input: { user: UserRow; subscriptionId: bigint; paymentPassword: string },
  idempotency?: IdempotentRequest<EarnSubscription>,
): Promise<EarnSubscription> {
  const [found] = await deps.db.query<{ status: string; early_redemption: boolean }>(
    'SELECT status, early_redemption FROM earn_subscriptions WHERE id = $1 AND user_id = $2',
    [input.subscriptionId, input.user.id],
  );
  if (!found) throw new AppError('RECORD_NOT_FOUND');
  if (!found.early_redemption) throw new AppError('EARLY_REDEMPTION_NOT_ALLOWED');
  if (found.status !== 'active') throw new AppError('SUBSCRIPTION_NOT_ACTIVE', { status: found.status });
  await checkPaymentPassword(deps, input.user, input.paymentPassword);
  const now = deps.now();
  const nowMs = now.getTime();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<EarnSubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM earn_subscriptions s JOIN earn_products p ON p.id = s.product_id WHERE s.id = $1 AND s.user_id = $2 FOR UPDATE OF s`,
      [input.subscriptionId, input.user.id],
    );
    if (row!.status !== 'active') throw new AppError('SUBSCRIPTION_NOT_ACTIVE', { status: row!.status });
    await tx.query('SELECT id FROM earn_products WHERE id = $1 FOR UPDATE', [row!.product_id]);
    // Days that came due and the payout job has not reached yet are paid first, as the job would pay
    // them: they are the user's, and not "remaining". If the last day is among them, the
    // subscription has matured instead, with no penalty, and that is the answer.
    const [settled] = await payDueDays(tx, [row!], nowMs);
    if (settled?.matured) return answer(tx, row!.id);
    const paidDays = row!.paid_days + (settled?.daysPaid ?? 0);
    const remainingDays = remainingDaysAt(Number(row!.subscribed_at_ms), row!.payout_minute_utc, row!.cycle_days, nowMs);
    // Locked here, after what payDueDays paid (it locks the same row when it pays), before the accounts.
    const owedMinor = await lockObligations(tx, row!.asset);
    const principal = toMinor(row!.principal_minor);
    // Owed no more: the days not yet paid, as promised at the subscription.
    const releasedPromiseMinor = interestOwedMinor(principal, row!.daily_rate_ppm, row!.cycle_days, paidDays);
    const penaltyMinor = earlyRedemptionPenaltyMinor(principal, row!.penalty_rate_ppm, remainingDays);
    const coin = await ensureUserAccount(tx, input.user.id, 'coin', row!.asset);
    const treasury = await earnTreasuryAccount(tx, row!.asset);
    const entry = await postEntry(tx, {
      reason: 'earn.redeem',
      referenceType: 'earn_subscription',
      referenceId: row!.id.toString(),
      idempotencyKey: `earn.close:${row!.id}`,
      memo: `${row!.subscription_no} early redemption, ${remainingDays} of ${row!.cycle_days} days remaining`,
      postings: [
        { accountId: row!.account_id, asset: row!.asset, bucket: 'frozen', amountMinor: -principal },
        { accountId: coin, asset: row!.asset, bucket: 'available', amountMinor: principal - penaltyMinor },
        ...(penaltyMinor > 0n ? [{ accountId: treasury, asset: row!.asset, bucket: 'available' as const, amountMinor: penaltyMinor }] : []),
      ],
      at: now,
    });
    await tx.query("UPDATE ledger_holds SET status = 'posted', closed_entry_id = $2, closed_at = $3 WHERE id = $1", [row!.hold_id, entry.entryId, now]);
    await tx.query(
      `UPDATE earn_subscriptions SET status = 'redeemed', closed_at_ms = $2, penalty_minor = $3, close_entry_id = $4, next_payout_at_ms = NULL WHERE id = $1`,
      [row!.id, nowMs, penaltyMinor.toString(), entry.entryId],
    );
    await tx.query('UPDATE earn_products SET active_minor = active_minor - $2 WHERE id = $1', [row!.product_id, principal.toString()]);
    await tx.query('UPDATE earn_obligations SET owed_minor = $2 WHERE asset = $1', [row!.asset, (owedMinor - releasedPromiseMinor).toString()]);
    return answer(tx, row!.id);
  });

  async function answer(tx: Queryable, subscriptionId: bigint) {
    const view = (await readSubscription(tx, subscriptionId, nowMs, input.user.id))!;
    await idempotency?.answerInTransaction(tx, view);
    return view;
  }
}
