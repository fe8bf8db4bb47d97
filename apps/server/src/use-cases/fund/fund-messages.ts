import { formatAmount, LOAN_ASSET_SCALE } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { type FundRequestRow, totalDueOf } from './fund-views.ts';

/**
 * The fund section's system messages (ADR 0037): the borrower and every investor are told, in
 * their language and in the transaction that did it, when a request is approved or rejected, filled,
 * paid out tranche by tranche, refunded, repaid or defaulted — each with the amounts that moved.
 * An investor with several investments in one request gets one message with their total.
 */

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);
/** A moment as the messages state it: "2026-11-28 09:30", in UTC (the texts say so). */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

export interface InvestorShare {
  userId: bigint;
  amountMinor: bigint;
}

/** One share per investor: their investments (or their parts of a payout) summed. */
export function sharesPerInvestor(shares: readonly InvestorShare[]): InvestorShare[] {
  const byUser = new Map<bigint, bigint>();
  for (const share of shares) byUser.set(share.userId, (byUser.get(share.userId) ?? 0n) + share.amountMinor);
  return [...byUser].map(([userId, amountMinor]) => ({ userId, amountMinor }));
}

export async function tellRequestApproved(tx: Queryable, row: FundRequestRow, windowEndsAtMs: number, at: Date) {
  await messageUser(
    tx,
    row.user_id,
    { title: 'notify.fund.approved.title', body: 'notify.fund.approved.body' },
    { requestNo: row.request_no, amount: usdt(toMinor(row.amount_minor)), windowEnds: utc(windowEndsAtMs) },
    at,
  );
}

export async function tellRequestRejected(tx: Queryable, row: FundRequestRow, reason: string, at: Date) {
  await messageUser(tx, row.user_id, { title: 'notify.fund.rejected.title', body: 'notify.fund.rejected.body' }, { requestNo: row.request_no, reason }, at);
}

export async function tellRequestFilled(tx: Queryable, row: FundRequestRow, investments: readonly InvestorShare[], dueAtMs: number, at: Date) {
  const shares = sharesPerInvestor(investments);
  const dueDate = utc(dueAtMs);
  await messageUser(
    tx,
    row.user_id,
    { title: 'notify.fund.filled.borrower.title', body: 'notify.fund.filled.borrower.body' },
    {
      requestNo: row.request_no,
      amount: usdt(investments.reduce((sum, each) => sum + each.amountMinor, 0n)),
      investors: String(shares.length),
      tranches: String(row.tranches),
      totalDue: usdt(totalDueOf(row)),
      dueDate,
    },
    at,
  );
  for (const share of shares) {
    await messageUser(
      tx,
      share.userId,
      { title: 'notify.fund.filled.investor.title', body: 'notify.fund.filled.investor.body' },
      { requestNo: row.request_no, amount: usdt(share.amountMinor), dueDate },
      at,
    );
  }
}

export async function tellTrancheReleased(tx: Queryable, row: FundRequestRow, tranche: { number: number; amountMinor: bigint }, at: Date) {
  await messageUser(
    tx,
    row.user_id,
    { title: 'notify.fund.tranche.title', body: 'notify.fund.tranche.body' },
    { requestNo: row.request_no, tranche: String(tranche.number), tranches: String(row.tranches), amount: usdt(tranche.amountMinor) },
    at,
  );
}

export async function tellRequestRefunded(tx: Queryable, row: FundRequestRow, investments: readonly InvestorShare[], at: Date) {
  await messageUser(tx, row.user_id, { title: 'notify.fund.refunded.borrower.title', body: 'notify.fund.refunded.borrower.body' }, { requestNo: row.request_no }, at);
  for (const share of sharesPerInvestor(investments)) {
    await messageUser(
      tx,
      share.userId,
      { title: 'notify.fund.refunded.investor.title', body: 'notify.fund.refunded.investor.body' },
      { requestNo: row.request_no, amount: usdt(share.amountMinor) },
      at,
    );
  }
}

export async function tellRequestRepaid(tx: Queryable, row: FundRequestRow, parts: readonly InvestorShare[], totalDueMinor: bigint, at: Date) {
  await messageUser(
    tx,
    row.user_id,
    { title: 'notify.fund.repaid.borrower.title', body: 'notify.fund.repaid.borrower.body' },
    { requestNo: row.request_no, amount: usdt(totalDueMinor) },
    at,
  );
  for (const share of sharesPerInvestor(parts)) {
    await messageUser(
      tx,
      share.userId,
      { title: 'notify.fund.repaid.investor.title', body: 'notify.fund.repaid.investor.body' },
      { requestNo: row.request_no, amount: usdt(share.amountMinor) },
      at,
    );
  }
}

export async function tellRequestDefaulted(
  tx: Queryable,
  row: FundRequestRow,
  parts: readonly InvestorShare[],
  sale: { totalDueMinor: bigint; sold: string; price: string },
  at: Date,
) {
  await messageUser(
    tx,
    row.user_id,
    { title: 'notify.fund.defaulted.borrower.title', body: 'notify.fund.defaulted.borrower.body' },
    { requestNo: row.request_no, totalDue: usdt(sale.totalDueMinor), sold: sale.sold, asset: row.collateral_asset, price: sale.price },
    at,
  );
  for (const share of sharesPerInvestor(parts)) {
    await messageUser(
      tx,
      share.userId,
      { title: 'notify.fund.defaulted.investor.title', body: 'notify.fund.defaulted.investor.body' },
      { requestNo: row.request_no, amount: usdt(share.amountMinor), price: sale.price },
      at,
    );
  }
}
