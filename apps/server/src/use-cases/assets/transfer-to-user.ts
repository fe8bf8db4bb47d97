import { AppError, parameterErrorField } from '@keel/contracts';
import {
  formatAmount,
  LedgerError,
  publicUserName,
  recipientProblem,
  userTransferCost,
  userTransferPostings,
  type WithdrawalAttempt,
  withdrawalRefusal,
  vipTermsOf,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { refusalError, withdrawalsToday } from '../wallet/create-withdrawal.ts';
import { messageUser, valueInUsdt } from '../wallet/wallet-support.ts';
import { assetScales, type BalanceView } from './account-balances.ts';

type AssetCode = BalanceView['asset'];

/** A user as another user may see them: the user number and the public name (never a full contact). */
export interface TransferParty {
  uid: string;
  name: string;
}

export interface UserTransferView {
  id: string;
  entryId: string;
  direction: 'sent' | 'received';
  counterparty: TransferParty;
  asset: AssetCode;
  amount: string;
  fee: string;
  total: string;
  createdAt: string;
}

interface NamedRow {
  id: bigint;
  nickname: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
}

const party = (row: NamedRow): TransferParty => ({ uid: row.id.toString(), name: publicUserName(row) });

/**
 * The user a transfer names: all digits is a user number (UID), anything else a username (case
 * does not matter, as at login). Only accounts that can use the platform receive: a suspended or
 * banned one is answered like a missing one, so the lookup tells nothing of why.
 */
async function findRecipient(db: Queryable, to: string): Promise<NamedRow | undefined> {
  const byUid = /^\d{1,18}$/.test(to);
  const [row] = await db.query<NamedRow>(
    `SELECT id, nickname, username, email, phone FROM users
     WHERE ${byUid ? 'id = $1::bigint' : 'lower(username) = lower($1)'} AND status IN ('active', 'withdrawal_forbidden')`,
    [to],
  );
  return row;
}

function recipientOrRefusal(sender: UserRow, row: NamedRow | undefined): NamedRow {
  const problem = recipientProblem(sender.id, row?.id ?? null);
  if (problem === 'not_found') throw new AppError('RECORD_NOT_FOUND', { field: 'to' });
  if (problem === 'self') throw new AppError('CANNOT_TRANSFER_TO_SELF');
  return row!;
}

/** Who a transfer to `to` would reach, for the sender's confirmation. */
export async function findTransferRecipient(deps: Pick<Deps, 'db'>, sender: UserRow, to: string): Promise<TransferParty> {
  return party(recipientOrRefusal(sender, await findRecipient(deps.db, to)));
}

interface TransferRow {
  id: bigint;
  sender_id: bigint;
  recipient_id: bigint;
  asset: AssetCode;
  amount_minor: string;
  fee_minor: string;
  entry_id: bigint;
  created_at: Date;
  counterparty_id: bigint;
  nickname: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
}

const TRANSFER_COLUMNS = `t.id, t.sender_id, t.recipient_id, t.asset, t.amount_minor::text AS amount_minor, t.fee_minor::text AS fee_minor,
  t.entry_id, t.created_at, u.id AS counterparty_id, u.nickname, u.username, u.email, u.phone`;

function transferView(row: TransferRow, viewerId: bigint, scales: ReadonlyMap<string, number>): UserTransferView {
  const scale = scales.get(row.asset)!;
  const sent = row.sender_id === viewerId;
  const amountMinor = toMinor(row.amount_minor);
  const feeMinor = toMinor(row.fee_minor);
  return {
    id: row.id.toString(),
    entryId: row.entry_id.toString(),
    direction: sent ? 'sent' : 'received',
    counterparty: party({ id: row.counterparty_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
    asset: row.asset,
    amount: formatAmount(amountMinor, scale),
    // The recipient paid nothing: the fee is the sender's.
    fee: formatAmount(sent ? feeMinor : 0n, scale),
    total: formatAmount(sent ? amountMinor + feeMinor : amountMinor, scale),
    createdAt: row.created_at.toISOString(),
  };
}

async function readTransfer(db: Queryable, id: bigint, viewerId: bigint): Promise<UserTransferView> {
  const [row] = await db.query<TransferRow>(
    `SELECT ${TRANSFER_COLUMNS} FROM user_transfers t
     JOIN users u ON u.id = CASE WHEN t.sender_id = $2 THEN t.recipient_id ELSE t.sender_id END
     WHERE t.id = $1`,
    [id, viewerId],
  );
  return transferView(row!, viewerId, await assetScales(db));
}

/** The user's transfers with other users, sent and received, newest first. */
export async function listUserTransfers(deps: Pick<Deps, 'db'>, userId: bigint, page: { page: number; pageSize: number }) {
  const rows = await deps.db.query<TransferRow & { total: number }>(
    `SELECT ${TRANSFER_COLUMNS}, count(*) OVER ()::int AS total FROM user_transfers t
     JOIN users u ON u.id = CASE WHEN t.sender_id = $1 THEN t.recipient_id ELSE t.sender_id END
     WHERE t.sender_id = $1 OR t.recipient_id = $1
     ORDER BY t.created_at DESC, t.id DESC LIMIT $2 OFFSET $3`,
    [userId, page.pageSize, (page.page - 1) * page.pageSize],
  );
  const scales = await assetScales(deps.db);
  return { items: rows.map((row) => transferView(row, userId, scales)), total: rows[0]?.total ?? 0 };
}

export interface TransferToUserAnswer {
  transfer: UserTransferView;
  balance: { kind: 'coin'; asset: AssetCode; available: string; frozen: string };
}

/**
 * Sends an asset from the sender's coin account to the recipient's, the sender paying the published
 * fee (0.10 %, rounded up) on top, in one journal entry (reason `transfer.user`) keyed by the
 * request. Money that leaves a user's control is judged like a withdrawal: the published withdrawal
 * rules apply (account state, open hours, identity verification, the lock after a password change)
 * and the transfer counts in the same daily count and USDT limit (decisions page 1.3); there is no
 * address, so no address hold. Checked first without locks (a refused request costs no password
 * check), then the payment password, then in one transaction: the sender's user row locked (the
 * lock withdrawals take, so the day's count and sum are judged one request at a time across both),
 * the rules again, the entry (the ledger locks the three accounts in id order), the transfer row,
 * the recipient's message and, through the API, the answer (ADR 0019).
 */
export async function transferToUser(
  deps: Deps,
  input: { user: UserRow; to: string; asset: AssetCode; amount: string; paymentPassword: string; requestKey: string },
  idempotency?: IdempotentRequest<TransferToUserAnswer>,
): Promise<TransferToUserAnswer> {
  const scale = (await assetScales(deps.db)).get(input.asset);
  if (scale === undefined) throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField('body.asset', 'unknownAsset')] });
  const amountMinor = parseUserAmount(input.amount, scale);
  const cost = userTransferCost(amountMinor);
  const recipient = recipientOrRefusal(input.user, await findRecipient(deps.db, input.to));

  const entryKey = `transfer.user:${input.user.id}:${input.requestKey}`;
  const findEarlier = async (db: Queryable) =>
    (await db.query<{ id: bigint }>('SELECT t.id FROM user_transfers t JOIN journal_entries e ON e.id = t.entry_id WHERE e.idempotency_key = $1', [entryKey]))[0];
  // A retry of a transfer that committed is answered with it before any rule is judged again: its
  // own count could otherwise refuse it at the daily limit.
  const replay = await findEarlier(deps.db);

  const now = deps.now();
  const { tier } = await verificationStatesOf(deps.db, input.user.id);
  const valuation = valueInUsdt(deps, { asset: input.asset, scale }, amountMinor, true)!;
  const attempt = (today: { requests: number; usedUsdtMinor: bigint; vipLevel: number }): WithdrawalAttempt => ({
    nowMs: now.getTime(),
    userStatus: input.user.status,
    tier,
    loginPasswordChangedAtMs: input.user.login_password_changed_at?.getTime() ?? null,
    addressAddedAtMs: null,
    requestsTodayCount: today.requests,
    vip: vipTermsOf(today.vipLevel, deps.config.VIP_LEVELS),
    usedTodayUsdtMinor: today.usedUsdtMinor,
    usdtValueMinor: valuation.usdtValueMinor,
  });
  if (!replay) {
    const early = withdrawalRefusal(deps.wallet.policy, attempt(await withdrawalsToday(deps.db, input.user.id, now.getTime())));
    if (early) throw refusalError(early);
    await checkPaymentPassword(deps, input.user, input.paymentPassword);
  }

  const senderName = publicUserName(input.user);
  try {
    const answer = await deps.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [input.user.id]);
      const refusal = withdrawalRefusal(deps.wallet.policy, attempt(await withdrawalsToday(tx, input.user.id, now.getTime())));
      const senderCoin = await ensureUserAccount(tx, input.user.id, 'coin', input.asset);
      const recipientCoin = await ensureUserAccount(tx, recipient.id, 'coin', input.asset);
      const fees = await ensurePlatformAccount(tx, 'fees', input.asset);
      // Under the sender's lock: a retry racing its first attempt finds it once that committed.
      const earlier = await findEarlier(tx);
      if (earlier) return answerFor(tx, earlier.id, senderCoin);
      if (refusal) throw refusalError(refusal);
      const posted = await postEntry(tx, {
        reason: 'transfer.user',
        referenceType: 'user_transfer',
        referenceId: `${input.user.id}>${recipient.id}`,
        idempotencyKey: entryKey,
        memo: `Transfer from ${senderName} (UID ${input.user.id}) to ${publicUserName(recipient)} (UID ${recipient.id})`,
        postings: userTransferPostings({ senderCoin, recipientCoin, fees }, input.asset, cost),
        at: now,
      });
      const [{ id }] = (await tx.query<{ id: bigint }>(
        `INSERT INTO user_transfers (sender_id, recipient_id, asset, amount_minor, fee_minor, usdt_value_minor, price_tick_id, entry_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          input.user.id,
          recipient.id,
          input.asset,
          cost.amountMinor.toString(),
          cost.feeMinor.toString(),
          valuation.usdtValueMinor.toString(),
          valuation.tickId,
          posted.entryId,
          now,
        ],
      )) as [{ id: bigint }];
      await messageUser(
        tx,
        recipient.id,
        { title: 'notify.transfer.received.title', body: 'notify.transfer.received.body' },
        { amount: formatAmount(cost.amountMinor, scale), asset: input.asset, sender: senderName, uid: input.user.id.toString() },
        now,
      );
      return answerFor(tx, id, senderCoin);
    });
    await publishToUser(deps, recipient.id, { kind: 'message', unread: true });
    return answer;
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }

  async function answerFor(tx: Queryable, transferId: bigint, senderCoin: bigint): Promise<TransferToUserAnswer> {
    const [coin] = await tx.query<{ available_minor: string; frozen_minor: string }>(
      'SELECT available_minor::text AS available_minor, frozen_minor::text AS frozen_minor FROM ledger_accounts WHERE id = $1',
      [senderCoin],
    );
    const answer: TransferToUserAnswer = {
      transfer: await readTransfer(tx, transferId, input.user.id),
      balance: {
        kind: 'coin',
        asset: input.asset,
        available: formatAmount(toMinor(coin!.available_minor), scale!),
        frozen: formatAmount(toMinor(coin!.frozen_minor), scale!),
      },
    };
    await idempotency?.answerInTransaction(tx, answer);
    return answer;
  }
}
