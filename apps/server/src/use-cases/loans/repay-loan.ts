import { AppError, type LoanView } from '@keel/contracts';
import { applyRepayment, chargeInterestTo, formatAmount, LedgerError, LOAN_ASSET, LOAN_ASSET_SCALE, loanDaysBegun, owedOf, type Posting } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { balanceOf, LOAN_COLUMNS, LOAN_FROM, type LoanRow, readLoan } from './loan-views.ts';
import { changeCommitted, lendingTreasuryAccount, lockBorrower } from './loans-support.ts';

export interface RepayLoanInput {
  user: UserRow;
  loanId: bigint;
  full: boolean;
  amount?: string;
  paymentPassword: string;
  requestKey: string;
}

/**
 * A repayment from the coin account (ADR 0036): interest is charged for each day begun since the
 * loan was paid out, then the payment goes to that interest first and to the principal after. The
 * full amount (`full`, or an amount equal to what is owed) also returns the collateral in the same
 * entry and ends the loan as repaid. Locks the loan, the borrower's row, then the accounts; a retry
 * under the same key finds its entry and answers the loan as it is.
 */
export async function repayLoan(deps: Deps, input: RepayLoanInput, idempotency?: IdempotentRequest<LoanView>): Promise<LoanView> {
  const view = await repayInTransaction(deps, input, idempotency);
  await publishToUser(deps, input.user.id, { kind: 'loan', loanId: view.id, status: view.status });
  return view;
}

async function repayInTransaction(deps: Deps, input: RepayLoanInput, idempotency?: IdempotentRequest<LoanView>): Promise<LoanView> {
  const [found] = await deps.db.query<{ status: string }>('SELECT status FROM loans WHERE id = $1 AND user_id = $2', [input.loanId, input.user.id]);
  if (!found) throw new AppError('RECORD_NOT_FOUND');
  if (found.status !== 'passed') throw new AppError('LOAN_NOT_OUTSTANDING', { status: found.status });
  if (!input.full && input.amount === undefined) throw new AppError('PARAMETER_ERROR', { field: 'amount', problem: 'required' });
  const askedMinor = input.full ? null : parseUserAmount(input.amount!, LOAN_ASSET_SCALE, 'amount');
  await checkPaymentPassword(deps, input.user, input.paymentPassword);
  const now = deps.now();
  const nowMs = now.getTime();
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.id = $1 AND l.user_id = $2 FOR UPDATE OF l`, [
        input.loanId,
        input.user.id,
      ]);
      const entryKey = `loan.repay:${input.user.id}:${input.requestKey}`;
      const [earlier] = await tx.query('SELECT 1 FROM loan_repayments r JOIN journal_entries e ON e.id = r.entry_id WHERE e.idempotency_key = $1', [entryKey]);
      if (earlier) return answer(tx);
      if (row!.status !== 'passed') throw new AppError('LOAN_NOT_OUTSTANDING', { status: row!.status });

      const charged = chargeInterestTo(balanceOf(row!), row!.daily_rate_ppm, loanDaysBegun(Number(row!.started_at_ms), nowMs, row!.cycle_days));
      const owedMinor = owedOf(charged);
      const amountMinor = askedMinor ?? owedMinor;
      if (amountMinor > owedMinor) throw new AppError('AMOUNT_OUT_OF_RANGE', { min: '0.000001', max: formatAmount(owedMinor, LOAN_ASSET_SCALE), asset: LOAN_ASSET });
      const split = applyRepayment(charged, amountMinor);
      const paidOff = owedOf(split.after) === 0n;

      await lockBorrower(tx, row!.user_id);
      const coin = await ensureUserAccount(tx, row!.user_id, 'coin', LOAN_ASSET);
      const lender = await lendingTreasuryAccount(tx);
      const collateral = toMinor(row!.collateral_minor);
      const postings: Posting[] = [
        { accountId: coin, asset: LOAN_ASSET, bucket: 'available', amountMinor: -amountMinor },
        { accountId: lender, asset: LOAN_ASSET, bucket: 'available', amountMinor },
      ];
      // Paid off: the pledge returns in the same entry.
      if (paidOff) {
        postings.push(
          { accountId: row!.collateral_account_id, asset: row!.collateral_asset, bucket: 'frozen', amountMinor: -collateral },
          { accountId: row!.collateral_account_id, asset: row!.collateral_asset, bucket: 'available', amountMinor: collateral },
        );
      }
      const entry = await postEntry(tx, {
        reason: 'loan.repay',
        referenceType: 'loan',
        referenceId: row!.id.toString(),
        idempotencyKey: entryKey,
        memo: `${row!.loan_no} repaid ${formatAmount(amountMinor, LOAN_ASSET_SCALE)} USDT (interest ${formatAmount(split.interestPaidMinor, LOAN_ASSET_SCALE)}, ${charged.chargedDays} days)${paidOff ? ', collateral returned' : ''}`,
        postings,
        at: now,
      });
      await tx.query(
        `INSERT INTO loan_repayments (loan_id, amount_minor, interest_minor, principal_minor, source, entry_id, at_ms) VALUES ($1, $2, $3, $4, 'borrower', $5, $6)`,
        [row!.id, amountMinor.toString(), split.interestPaidMinor.toString(), split.principalPaidMinor.toString(), entry.entryId, nowMs],
      );
      await tx.query(
        `UPDATE loans SET principal_outstanding_minor = $2, interest_unpaid_minor = $3, charged_days = $4, interest_paid_minor = interest_paid_minor + $5,
           repaid_minor = repaid_minor + $6, status = CASE WHEN $7 THEN 'repaid' ELSE status END, closed_at_ms = CASE WHEN $7 THEN $8::bigint END,
           close_entry_id = CASE WHEN $7 THEN $9::bigint END
         WHERE id = $1`,
        [
          row!.id,
          split.after.principalMinor.toString(),
          split.after.interestMinor.toString(),
          split.after.chargedDays,
          split.interestPaidMinor.toString(),
          amountMinor.toString(),
          paidOff,
          nowMs,
          entry.entryId,
        ],
      );
      if (paidOff) await tx.query("UPDATE ledger_holds SET status = 'released', closed_entry_id = $2, closed_at = $3 WHERE id = $1", [row!.hold_id, entry.entryId, now]);
      await changeCommitted(tx, row!.user_id, -split.principalPaidMinor);
      return answer(tx);
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }

  async function answer(tx: Queryable) {
    const view = (await readLoan(deps, tx, input.loanId, nowMs, input.user.id))!;
    await idempotency?.answerInTransaction(tx, view);
    return view;
  }
}
