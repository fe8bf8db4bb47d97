import { bankDetailsSchema, createC2cDepositContract, createC2cWithdrawalContract, decimalAmountSchema, paymentPasswordSchema } from '@keel/contracts';
import type { BankDetails, C2cCountry } from '@keel/domain';
import { bodySchema } from '../../shared/forms/index.ts';
import { encodeProblem } from '../../shared/forms/problems.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { bankDetailIssues, type C2cAmountLimits, type C2cAmountProblem, c2cAmountProblem } from './c2c-figures.ts';

/**
 * The C2C forms' schemas (ADR 0027): the contracts' bodies, with the amount checked at the scale of
 * what is typed and against the merchants' limits (`c2cAmountProblem`), and the bank details by the
 * domain's `bankDetailsProblems` for the chosen country — the function the server applies, so the
 * form marks the same fields with the same rules the server's "parameter error" would.
 */

/** Problems the shared money words say (`useMoneyErrorText`) travel as `amount:…`; the C2C ones as `c2c:…`. */
const SHARED: ReadonlySet<C2cAmountProblem> = new Set(['format', 'tooManyDecimals', 'notPositive']);

export function c2cAmountMessage(problem: C2cAmountProblem | 'required'): string {
  return SHARED.has(problem as C2cAmountProblem) || problem === 'required' ? `amount:${problem}` : `c2c:${problem}`;
}

/** The C2C problem a field error's message carries, if it is one of the channel's own. */
export function c2cProblemOfMessage(message: string | undefined): Exclude<C2cAmountProblem, 'format' | 'tooManyDecimals' | 'notPositive'> | undefined {
  if (!message?.startsWith('c2c:')) return undefined;
  const problem = message.slice(4);
  return problem === 'tooSmall' || problem === 'belowMin' || problem === 'aboveMax' || problem === 'aboveAvailable' ? problem : undefined;
}

/** The amount field: the contract's decimal text, normalised, then its problems under the limits on screen when it is checked. */
export function c2cAmountField(limits: () => C2cAmountLimits) {
  return decimalAmountSchema.transform(normaliseAmountInput).superRefine((text, context) => {
    const problem = text === '' ? 'required' : c2cAmountProblem(text, limits());
    if (problem) context.addIssue({ code: 'custom', message: c2cAmountMessage(problem) });
  });
}

/** The deposit form: the amount and what it is in (the country and the price live outside the form). */
export function depositFormSchema(limits: () => C2cAmountLimits) {
  return bodySchema(createC2cDepositContract).pick({ amount: true, amountIn: true }).safeExtend({ amount: c2cAmountField(limits) });
}

/** The bank details with every field a text, checked by the country's formats once they are. */
export function bankDetailsFormSchema(country: () => C2cCountry | null) {
  return bankDetailsSchema.superRefine((details, context) => {
    const chosen = country();
    if (!chosen) return;
    for (const issue of bankDetailIssues(chosen, details as BankDetails)) {
      context.addIssue({ code: 'custom', path: [issue.field], message: encodeProblem({ rule: issue.rule }) });
    }
  });
}

/** The withdrawal form: the amount, what it is in, the bank details (`bankDetails.<field>`, as the server names them) and the payment password. */
export function withdrawalFormSchema(limits: () => C2cAmountLimits, country: () => C2cCountry | null) {
  return bodySchema(createC2cWithdrawalContract)
    .pick({ amount: true, amountIn: true, bankDetails: true, paymentPassword: true })
    .safeExtend({ amount: c2cAmountField(limits), bankDetails: bankDetailsFormSchema(country), paymentPassword: paymentPasswordSchema });
}

export interface WithdrawalValues {
  amount: string;
  amountIn: 'fiat' | 'usdt';
  bankDetails: BankDetails;
  paymentPassword: string;
}
