import { applyLoanContract, paymentPasswordSchema, repayLoanContract } from '@keel/contracts';
import { z } from 'zod';
import { bodySchema } from '../../shared/forms/index.ts';
import { amountField } from '../assets/amount-field.ts';
import { aboveOwed } from './loan-figures.ts';

// The loan forms (ADR 0027), each built on its contract's body: the amounts are every money form's
// amount field (format, the asset's scale, above zero, within the balance), the payment password
// the contracts' six digits.

/** The forms' own problems, carried as the field error's message and put into words by the page. */
export const loanProblems = { aboveOwed: 'loans:aboveOwed' } as const;

export interface ApplyLimits {
  collateralScale: number;
  /** The coin account's available balance of the collateral asset, when known. */
  collateralAvailable: string | undefined;
}

/** The application page's two amounts: the loan (USDT) and the pledge (within the coin balance). */
export function applyFormSchema(limits: () => ApplyLimits) {
  return bodySchema(applyLoanContract)
    .pick({ amount: true, collateralAmount: true })
    .safeExtend({
      amount: amountField({ scale: 6 }),
      collateralAmount: amountField(() => ({ scale: limits().collateralScale, available: limits().collateralAvailable })),
    });
}

/** The repayment page: full, or a part of what is owed now (within the USDT balance). */
export function repayFormSchema(limits: () => { available: string | undefined; owedNow: string | null }) {
  return bodySchema(repayLoanContract)
    .pick({ full: true })
    .safeExtend({
      amount: z.string(),
    })
    .superRefine((value, issues) => {
      if (value.full) return;
      const checked = amountField(() => ({ scale: 6, available: limits().available })).safeParse(value.amount);
      if (!checked.success) {
        for (const issue of checked.error.issues) issues.addIssue({ code: 'custom', message: issue.message, path: ['amount'] });
        return;
      }
      if (aboveOwed({ owedNow: limits().owedNow }, checked.data)) issues.addIssue({ code: 'custom', message: loanProblems.aboveOwed, path: ['amount'] });
    });
}

/** The payment password sheet of an application. */
export const applyPasswordSchema = bodySchema(applyLoanContract).pick({ paymentPassword: true }).safeExtend({ paymentPassword: paymentPasswordSchema });

/** The payment password sheet of a repayment. */
export const repayPasswordSchema = bodySchema(repayLoanContract).pick({ paymentPassword: true }).safeExtend({ paymentPassword: paymentPasswordSchema });
