import { AppError, type FundInvestmentView } from '@keel/contracts';
import { FUND_LIMITS, formatAmount, fundDueAtMs, investmentProblem, LedgerError, LOAN_ASSET, LOAN_ASSET_SCALE, type Posting } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { tellRequestFilled } from './fund-messages.ts';
import { fundEscrowAccount, fundInvestmentNumber } from './fund-support.ts';
import { type FundRequestRow, REQUEST_COLUMNS, REQUEST_FROM, readInvestment } from './fund-views.ts';

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

export interface InvestInput {
  user: UserRow;
  requestId: bigint;
  amount: string;
  paymentPassword: string;
  requestKey: string;
}

/**
 * Moves every held investment of a request that has just filled into the fund escrow (one entry,
 * keyed by the request, with the holds posted) and starts its schedule: the first tranche is due
 * at once, the term counts from now. The caller holds the request's row.
 */
async function fillRequest(tx: Queryable, row: FundRequestRow, now: Date): Promise<void> {
  const nowMs = now.getTime();
  const investments = await tx.query<{ id: bigint; user_id: bigint; account_id: bigint; amount_minor: string; hold_id: bigint }>(
    `SELECT id, user_id, account_id, amount_minor::text AS amount_minor, hold_id FROM fund_investments WHERE request_id = $1 AND status = 'held' ORDER BY id`,
    [row.id],
  );
  const escrow = await fundEscrowAccount(tx);
  const total = investments.reduce((sum, each) => sum + toMinor(each.amount_minor), 0n);
  const postings: Posting[] = investments.map((each) => ({ accountId: each.account_id, asset: LOAN_ASSET, bucket: 'frozen', amountMinor: -toMinor(each.amount_minor) }));
  postings.push({ accountId: escrow, asset: LOAN_ASSET, bucket: 'available', amountMinor: total });
  const entry = await postEntry(tx, {
    reason: 'fund.fill',
    referenceType: 'fund_request',
    referenceId: row.id.toString(),
    idempotencyKey: `fund.fill:${row.id}`,
    memo: `${row.request_no} filled by ${investments.length} investments: ${usdt(total)} USDT into the fund escrow`,
    postings,
    at: now,
  });
  await tx.query(`UPDATE ledger_holds SET status = 'posted', closed_entry_id = $2, closed_at = $3 WHERE id = ANY($1::bigint[])`, [
    investments.map((each) => each.hold_id.toString()),
    entry.entryId,
    now,
  ]);
  await tx.query(`UPDATE fund_investments SET status = 'invested' WHERE request_id = $1 AND status = 'held'`, [row.id]);
  const dueAtMs = fundDueAtMs(nowMs, row.term_days);
  await tx.query(`UPDATE fund_requests SET status = 'funded', filled_at_ms = $2, fill_entry_id = $3, next_release_at_ms = $2, due_at_ms = $4 WHERE id = $1`, [
    row.id,
    nowMs,
    entry.entryId,
    dueAtMs,
  ]);
  await tellRequestFilled(tx, row, investments.map((each) => ({ userId: each.user_id, amountMinor: toMinor(each.amount_minor) })), dueAtMs, now);
}

/**
 * An investment (ADR 0037): under the request's lock, within what remains (racing investments are
 * judged one at a time, so together they never overfill it), one entry holding the amount in the
 * investor's coin account; the investment that fills the request moves every investment to the
 * escrow in the same transaction. A retry under the same key answers the first investment.
 */
export async function investInFundRequest(deps: Deps, input: InvestInput, idempotency?: IdempotentRequest<FundInvestmentView>): Promise<FundInvestmentView> {
  const [found] = await deps.db.query<{ user_id: bigint; status: string; opened_at_ms: bigint | null }>(
    'SELECT user_id, status, opened_at_ms FROM fund_requests WHERE id = $1',
    [input.requestId],
  );
  // A request that never reached the pool is not told to anyone but its borrower.
  if (!found || (found.opened_at_ms === null && found.user_id !== input.user.id)) throw new AppError('RECORD_NOT_FOUND');
  if (found.user_id === input.user.id) throw new AppError('FUND_OWN_REQUEST');
  if (found.status !== 'open') throw new AppError('FUND_NOT_OPEN', { status: found.status });
  const amountMinor = parseUserAmount(input.amount, LOAN_ASSET_SCALE, 'amount');
  await checkPaymentPassword(deps, input.user, input.paymentPassword);
  const now = deps.now();
  const nowMs = now.getTime();
  let outcome: { view: FundInvestmentView; requestStatus: string; investorIds: bigint[]; borrowerId: bigint };
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const [row] = await tx.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.id = $1 FOR UPDATE OF r`, [input.requestId]);
      const entryKey = `fund.invest:${input.user.id}:${input.requestKey}`;
      const [earlier] = await tx.query<{ id: bigint }>('SELECT i.id FROM fund_investments i JOIN journal_entries e ON e.id = i.entry_id WHERE e.idempotency_key = $1', [
        entryKey,
      ]);
      if (earlier) return { view: await answer(tx, earlier.id), requestStatus: row!.status, investorIds: [], borrowerId: row!.user_id };
      if (row!.status !== 'open' || nowMs >= Number(row!.window_ends_at_ms)) throw new AppError('FUND_NOT_OPEN', { status: row!.status });
      const remainingMinor = toMinor(row!.amount_minor) - toMinor(row!.raised_minor);
      const problem = investmentProblem(amountMinor, remainingMinor);
      if (problem) {
        const min = remainingMinor < FUND_LIMITS.minInvestmentMinor ? remainingMinor : FUND_LIMITS.minInvestmentMinor;
        throw new AppError('AMOUNT_OUT_OF_RANGE', { min: usdt(min), max: usdt(remainingMinor), asset: LOAN_ASSET });
      }
      const coin = await ensureUserAccount(tx, input.user.id, 'coin', LOAN_ASSET);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('fund_investments', 'id')) AS id`)) as [{ id: bigint }];
      const investmentNo = fundInvestmentNumber(id, nowMs);
      const entry = await postEntry(tx, {
        reason: 'fund.invest',
        referenceType: 'fund_investment',
        referenceId: id.toString(),
        idempotencyKey: entryKey,
        memo: `${investmentNo} in ${row!.request_no}, held until the request fills or its window ends`,
        postings: [
          { accountId: coin, asset: LOAN_ASSET, bucket: 'available', amountMinor: -amountMinor },
          { accountId: coin, asset: LOAN_ASSET, bucket: 'frozen', amountMinor },
        ],
        at: now,
      });
      const [hold] = await tx.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         VALUES ($1, $2, 'fund_investment', $3, $4, $5) RETURNING id`,
        [coin, amountMinor.toString(), id.toString(), entry.entryId, now],
      );
      await tx.query(
        `INSERT INTO fund_investments (id, investment_no, request_id, user_id, amount_minor, account_id, hold_id, entry_id, invested_at_ms)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [id, investmentNo, row!.id, input.user.id, amountMinor.toString(), coin, hold!.id, entry.entryId, nowMs],
      );
      await tx.query('UPDATE fund_requests SET raised_minor = raised_minor + $2, investors = investors + 1 WHERE id = $1', [row!.id, amountMinor.toString()]);
      let requestStatus = 'open';
      let investorIds: bigint[] = [];
      if (amountMinor === remainingMinor) {
        await fillRequest(tx, row!, now);
        requestStatus = 'funded';
        investorIds = (await tx.query<{ user_id: bigint }>('SELECT DISTINCT user_id FROM fund_investments WHERE request_id = $1', [row!.id])).map((each) => each.user_id);
      }
      return { view: await answer(tx, id), requestStatus, investorIds, borrowerId: row!.user_id };
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  const told = new Set<bigint>([input.user.id, outcome.borrowerId, ...outcome.investorIds]);
  for (const userId of told) await publishToUser(deps, userId, { kind: 'fund.request', requestId: input.requestId.toString(), status: outcome.requestStatus });
  // The fill sent the borrower and every investor a message.
  if (outcome.requestStatus === 'funded') for (const userId of told) await publishToUser(deps, userId, { kind: 'message', unread: true });
  return outcome.view;

  async function answer(tx: Queryable, investmentId: bigint) {
    const view = (await readInvestment(tx, investmentId, input.user.id))!;
    await idempotency?.answerInTransaction(tx, view);
    return view;
  }
}
