import { AppError, type LoanView } from '@keel/contracts';
import { collateralCreditMinor, collateralValueMinor, LedgerError, loanApplicationProblem, formatAmount, LOAN_ASSET_SCALE } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensureUserAccount, postEntry } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { type PledgeInput, pledgeTerms, readLoan } from './loan-views.ts';
import { borrowerCredit, changeCommitted, collateralPriceOrFail, lockBorrower, loanNumber } from './loans-support.ts';

export interface ApplyLoanInput extends PledgeInput {
  user: UserRow;
  holdingUploadId: bigint;
  agreementVersion: number;
  paymentPassword: string;
  requestKey: string;
}

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

/**
 * A loan application (issue 18, ADR 0036). Refusals that need no lock first — the product and
 * whether it is open, the agreement's version, the collateral asset, the amounts and the product's
 * range ("loan amount wrong"), the holding-ID photo, a recent recorded price — then the payment
 * password; then in one transaction, under the borrower's lock, the available credit and the
 * pledge's credit ("loan quota insufficient"), and one entry pledging the collateral (coin account,
 * available → frozen) with its hold and the loan row. Racing applications of one borrower are
 * judged one at a time, so together they never pass the available credit. A retry under the same
 * key finds the pledge's entry and answers the first application.
 */
export async function applyForLoan(deps: Deps, input: ApplyLoanInput, idempotency?: IdempotentRequest<LoanView>): Promise<LoanView> {
  const view = await applyInTransaction(deps, input, idempotency);
  await publishToUser(deps, input.user.id, { kind: 'loan', loanId: view.id, status: view.status });
  return view;
}

async function applyInTransaction(deps: Deps, input: ApplyLoanInput, idempotency?: IdempotentRequest<LoanView>): Promise<LoanView> {
  const terms = await pledgeTerms(deps.db, input);
  const { product, amountMinor, collateralMinor, collateralScale, ltvPpm } = terms;
  const { minAmountMinor, maxAmountMinor } = terms.terms;
  if (!product.open) throw new AppError('PRODUCT_CLOSED');
  // The agreement accepted is the one the loan is made under: a product changed since is refused, with its new version.
  if (input.agreementVersion !== product.terms_version) throw new AppError('PARAMETER_ERROR', { field: 'agreementVersion', expected: product.terms_version });
  if (amountMinor < minAmountMinor || amountMinor > maxAmountMinor) throw new AppError('LOAN_AMOUNT_WRONG', { min: usdt(minAmountMinor), max: usdt(maxAmountMinor) });
  const [photo] = await deps.db.query('SELECT 1 FROM uploads WHERE id = $1 AND user_id = $2 AND purpose = $3', [input.holdingUploadId, input.user.id, 'loan_holding']);
  if (!photo) throw new AppError('RECORD_NOT_FOUND', { field: 'holdingUploadId' });
  const now = deps.now();
  const nowMs = now.getTime();
  const price = collateralPriceOrFail(deps, input.collateralAsset, nowMs);
  await checkPaymentPassword(deps, input.user, input.paymentPassword);

  const pledgeCreditMinor = collateralCreditMinor(collateralValueMinor(input.collateralAsset, collateralMinor, collateralScale, price.priceMinor), ltvPpm);
  try {
    return await deps.db.transaction(async (tx) => {
      const committedMinor = await lockBorrower(tx, input.user.id);
      const entryKey = `loan.apply:${input.user.id}:${input.requestKey}`;
      const [earlier] = await tx.query<{ id: bigint }>('SELECT l.id FROM loans l JOIN journal_entries e ON e.id = l.pledge_entry_id WHERE e.idempotency_key = $1', [
        entryKey,
      ]);
      if (earlier) return answer(tx, earlier.id);

      // The terms accepted are still the product's (a change approved meanwhile raised its version).
      const [current] = await tx.query<{ terms_version: number; open: boolean }>('SELECT terms_version, open FROM loan_products WHERE id = $1 FOR SHARE', [product.id]);
      if (!current!.open) throw new AppError('PRODUCT_CLOSED');
      if (current!.terms_version !== input.agreementVersion) throw new AppError('PARAMETER_ERROR', { field: 'agreementVersion', expected: current!.terms_version });
      const credit = await borrowerCredit(tx, input.user.id, committedMinor);
      const problem = loanApplicationProblem(
        { minAmountMinor, maxAmountMinor },
        amountMinor,
        { pledgeCreditMinor, availableCreditMinor: credit.availableMinor },
      );
      if (problem === 'amount_wrong') throw new AppError('LOAN_AMOUNT_WRONG', { min: usdt(minAmountMinor), max: usdt(maxAmountMinor) });
      if (problem === 'quota_insufficient') {
        throw new AppError('LOAN_QUOTA_INSUFFICIENT', { available: usdt(credit.availableMinor), pledgeCredit: usdt(pledgeCreditMinor) });
      }

      const coin = await ensureUserAccount(tx, input.user.id, 'coin', input.collateralAsset);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('loans', 'id')) AS id`)) as [{ id: bigint }];
      const loanNo = loanNumber(id, nowMs);
      const entry = await postEntry(tx, {
        reason: 'loan.pledge',
        referenceType: 'loan',
        referenceId: id.toString(),
        idempotencyKey: entryKey,
        memo: `${loanNo} collateral pledged`,
        postings: [
          { accountId: coin, asset: input.collateralAsset, bucket: 'available', amountMinor: -collateralMinor },
          { accountId: coin, asset: input.collateralAsset, bucket: 'frozen', amountMinor: collateralMinor },
        ],
        at: now,
      });
      const [hold] = await tx.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         VALUES ($1, $2, 'loan', $3, $4, $5) RETURNING id`,
        [coin, collateralMinor.toString(), id.toString(), entry.entryId, now],
      );
      const approvalsRequired = amountMinor > BigInt(deps.config.LOAN_TWO_PERSON_ABOVE_USDT) * 10n ** BigInt(LOAN_ASSET_SCALE) ? 2 : 1;
      await tx.query(
        `INSERT INTO loans (id, loan_no, user_id, product_id, amount_minor, terms_version, cycle_days, daily_rate_ppm, margin_call_ltv_ppm,
           liquidation_ltv_ppm, agreement_accepted_at_ms, collateral_asset, collateral_minor, collateral_ltv_ppm, collateral_account_id, hold_id,
           pledge_entry_id, applied_tick_id, applied_price, holding_upload_id, applied_at_ms, approvals_required)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
        [
          id,
          loanNo,
          input.user.id,
          product.id,
          amountMinor.toString(),
          product.terms_version,
          product.cycle_days,
          product.daily_rate_ppm,
          product.margin_call_ltv_ppm,
          product.liquidation_ltv_ppm,
          nowMs,
          input.collateralAsset,
          collateralMinor.toString(),
          ltvPpm,
          coin,
          hold!.id,
          entry.entryId,
          price.tickId,
          price.view.price,
          input.holdingUploadId,
          nowMs,
          approvalsRequired,
        ],
      );
      await changeCommitted(tx, input.user.id, amountMinor);
      return answer(tx, id);
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }

  async function answer(tx: Queryable, loanId: bigint) {
    const view = (await readLoan(deps, tx, loanId, nowMs, input.user.id))!;
    await idempotency?.answerInTransaction(tx, view);
    return view;
  }
}
