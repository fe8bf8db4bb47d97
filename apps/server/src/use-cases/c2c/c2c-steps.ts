import { AppError } from '@keel/contracts';
import { C2C_PAYMENT_WINDOW_MS, type C2cActor, type C2cCommand, c2cTransition, type C2cStatus, fiatOfUsdt, LedgerError } from '@keel/domain';
import type { MessageKey } from '@keel/locales';
import type { Queryable } from '../../persistence/db.ts';
import { placeHold, releaseHold, takeFromHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { C2C_ASSET, merchantFloatAccount } from './c2c-support.ts';
import { type C2cRequestRow, c2cStateOf, fiatText, readRequestRow, usdtText } from './c2c-views.ts';

/** Who takes a step, as the server knows them: the user of the request, a merchant (staff id), a job, support staff. */
export type C2cStepActor = { kind: 'user'; userId: bigint } | { kind: 'merchant'; merchantId: bigint } | { kind: 'system' } | { kind: 'support' };

export interface C2cStepExtra {
  /** mark_paid on a deposit: the user's screenshot. */
  proofUploadId?: bigint;
  /** mark_paid on a withdrawal: the merchant's bank transaction number. */
  paymentReference?: string;
  /** appeal: the reason. */
  appealReason?: string;
}

const FAIL_REASON: Partial<Record<C2cCommand['kind'], 'unmatched' | 'unpaid' | 'cancelled' | 'support'>> = {
  match_timeout: 'unmatched',
  payment_timeout: 'unpaid',
  cancel: 'cancelled',
  resolve: 'support',
};

/** What the user is told at each step that concerns them (titles and bodies in every language). */
function noticeOf(row: C2cRequestRow, status: C2cStatus, command: C2cCommand): { title: MessageKey; body: MessageKey } | null {
  if (status === 'awaiting_payment' && row.kind === 'deposit') return { title: 'notify.c2c.title', body: 'notify.c2c.depositAccepted' };
  if (status === 'awaiting_payment') return { title: 'notify.c2c.title', body: 'notify.c2c.withdrawalAccepted' };
  if (status === 'paid' && row.kind === 'withdrawal') return { title: 'notify.c2c.title', body: 'notify.c2c.withdrawalPaid' };
  if (status === 'succeeded') return { title: 'notify.c2c.title', body: row.kind === 'deposit' ? 'notify.c2c.depositSucceeded' : 'notify.c2c.withdrawalSucceeded' };
  if (status === 'failed' && command.kind !== 'cancel') return { title: 'notify.c2c.title', body: 'notify.c2c.failed' };
  if (status === 'appealing' && command.kind === 'confirm_timeout') return { title: 'notify.c2c.title', body: 'notify.c2c.toSupport' };
  return null;
}

/**
 * One step of a C2C order inside the caller's transaction. Locks, in the order every C2C writer
 * uses: the request row, then the merchant's row (an acceptance), then (inside the ledger calls)
 * the hold and the ledger accounts in id order. The domain decides (`c2cTransition`); here its
 * money effect is applied, in the same transaction as the new status:
 * - accept: the price of the offer is fixed with the fiat of the order; a deposit's USDT is held on
 *   the merchant's float (refused INSUFFICIENT_BALANCE when the free float no longer covers it, so
 *   it can never be promised twice);
 * - release_merchant_hold / release_user_hold: the hold returns to its owner;
 * - pay_user: the float's hold goes to the user's fiat account (one entry);
 * - pay_merchant: the user's hold goes to the merchant's float (one entry).
 * Returns the row before the step, or null when a system step no longer applies (a job due for an
 * order that moved on meanwhile); a person's step that does not apply throws.
 */
export async function applyC2cStep(
  tx: Queryable,
  requestId: bigint,
  actor: C2cStepActor,
  command: C2cCommand,
  at: Date,
  extra: C2cStepExtra = {},
): Promise<C2cRequestRow | null> {
  const [locked] = await tx.query<{ id: bigint }>('SELECT id FROM c2c_requests WHERE id = $1 FOR UPDATE', [requestId]);
  const row = locked ? await readRequestRow(tx, requestId) : undefined;
  // Someone else's order is "not found": its existence is not told.
  const visible =
    row !== undefined &&
    (actor.kind === 'user'
      ? row.user_id === actor.userId
      : actor.kind === 'merchant'
        ? command.kind === 'accept' || command.kind === 'decline'
          ? row.offered_merchant_id === actor.merchantId
          : row.merchant_id === actor.merchantId
        : true);
  if (!row || !visible) {
    if (actor.kind === 'system') return null;
    throw new AppError('RECORD_NOT_FOUND');
  }
  const machineActor: C2cActor = actor.kind;
  const nowMs = at.getTime();
  const outcome = c2cTransition(c2cStateOf(row), machineActor, command, nowMs);
  if (!outcome.ok) {
    if (actor.kind === 'system') return null;
    throw new AppError('ORDER_STATE_CHANGED', { problem: outcome.problem, status: row.status });
  }
  const usdtMinor = toMinor(row.usdt_minor);
  const memo = `C2C order ${row.order_no}`;
  let closingEntryId: bigint | null = null;
  let holdId = row.hold_id;

  if (command.kind === 'accept') {
    const merchantId = row.offered_merchant_id!;
    await tx.query('SELECT staff_id FROM c2c_merchants WHERE staff_id = $1 FOR UPDATE', [merchantId]);
    const [offer] = await tx.query<{ price_fiat_minor: string }>(
      'SELECT price_fiat_minor::text AS price_fiat_minor FROM c2c_offers WHERE request_id = $1 AND merchant_id = $2',
      [row.id, merchantId],
    );
    const priceMinor = toMinor(offer!.price_fiat_minor);
    if (outcome.effect === 'hold_merchant_float') {
      try {
        ({ holdId } = await placeHold(tx, {
          accountId: await merchantFloatAccount(tx, merchantId),
          amountMinor: usdtMinor,
          referenceType: 'c2c_request',
          referenceId: row.id.toString(),
          reason: 'c2c.float_hold',
          at,
        }));
      } catch (error) {
        if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE', { account: 'merchant_float' });
        throw error;
      }
    }
    await tx.query(
      `UPDATE c2c_requests SET merchant_id = $2, price_fiat_minor = $3, fiat_minor = $4, payment_deadline_ms = $5, hold_id = $6 WHERE id = $1`,
      [row.id, merchantId, priceMinor.toString(), fiatOfUsdt(row.kind, usdtMinor, priceMinor).toString(), nowMs + C2C_PAYMENT_WINDOW_MS, holdId],
    );
    await tx.query(`UPDATE c2c_offers SET outcome = 'accepted', decided_at = $3 WHERE request_id = $1 AND merchant_id = $2`, [row.id, merchantId, at]);
    await tx.query('UPDATE c2c_merchants SET last_matched_at_ms = $2 WHERE staff_id = $1', [merchantId, nowMs]);
  } else if (command.kind === 'decline' || command.kind === 'offer_lapsed' || (command.kind !== 'offer' && row.status === 'offered')) {
    // The open offer ends: declined, lapsed, or ended with the request (timeout, cancel).
    const offerOutcome = command.kind === 'decline' ? 'declined' : command.kind === 'offer_lapsed' ? 'lapsed' : 'ended';
    await tx.query('UPDATE c2c_offers SET outcome = $3, decided_at = $4 WHERE request_id = $1 AND merchant_id = $2 AND outcome IS NULL', [
      row.id,
      row.offered_merchant_id,
      offerOutcome,
      at,
    ]);
  }

  if (outcome.effect === 'release_merchant_hold' || outcome.effect === 'release_user_hold') {
    closingEntryId = await releaseHold(tx, { holdId: row.hold_id!, reason: 'c2c.release', at });
  } else if (outcome.effect === 'pay_user') {
    const fiatAccount = await ensureUserAccount(tx, row.user_id, 'fiat', C2C_ASSET);
    ({ entryId: closingEntryId } = await takeFromHold(tx, { holdId: row.hold_id!, payouts: [{ toAccountId: fiatAccount, amountMinor: usdtMinor }], reason: 'c2c.deposit', memo, at }));
  } else if (outcome.effect === 'pay_merchant') {
    const float = await merchantFloatAccount(tx, row.merchant_id!);
    ({ entryId: closingEntryId } = await takeFromHold(tx, { holdId: row.hold_id!, payouts: [{ toAccountId: float, amountMinor: usdtMinor }], reason: 'c2c.withdrawal', memo, at }));
  }

  const ended = outcome.status === 'succeeded' || outcome.status === 'failed';
  const backToMatching = outcome.status === 'matching';
  await tx.query(
    `UPDATE c2c_requests SET status = $2, updated_at = $3, ended_at = $4,
       offered_merchant_id = CASE WHEN $5 THEN NULL ELSE offered_merchant_id END,
       offer_deadline_ms = CASE WHEN $5 THEN NULL ELSE offer_deadline_ms END,
       paid_at_ms = CASE WHEN $6 THEN $7::bigint ELSE paid_at_ms END,
       proof_upload_id = COALESCE($8, proof_upload_id), payment_reference = COALESCE($9, payment_reference),
       appeal_by = COALESCE($10, appeal_by), appeal_reason = COALESCE($11, appeal_reason),
       fail_reason = COALESCE($12, fail_reason), closing_entry_id = COALESCE($13, closing_entry_id)
     WHERE id = $1`,
    [
      row.id,
      outcome.status,
      at,
      ended ? at : null,
      backToMatching || ended,
      command.kind === 'mark_paid',
      nowMs,
      extra.proofUploadId ?? null,
      extra.paymentReference ?? null,
      command.kind === 'appeal' ? command.by : command.kind === 'confirm_timeout' ? 'system' : null,
      command.kind === 'appeal' ? (extra.appealReason ?? '') : command.kind === 'confirm_timeout' ? 'no answer from the user in time' : null,
      outcome.status === 'failed' ? (FAIL_REASON[command.kind] ?? null) : null,
      closingEntryId,
    ],
  );

  const notice = noticeOf(row, outcome.status, command);
  if (notice) {
    const after = (await readRequestRow(tx, row.id))!;
    await messageUser(
      tx,
      row.user_id,
      notice,
      {
        orderNo: row.order_no,
        usdt: usdtText(usdtMinor),
        fiat: after.fiat_minor === null ? '' : fiatText(toMinor(after.fiat_minor)),
        currency: row.currency,
        merchant: after.merchant_name ?? '',
      },
      at,
    );
  }
  return row;
}
