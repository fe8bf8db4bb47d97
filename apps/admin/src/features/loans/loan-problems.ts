import { ApiError, errorCatalogue, type LoanProductProposal } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

// The server's refusals in the loan pages (issue 18, ADR 0036), in words. A proposal's "parameter
// error" names `data.field` and `data.problem`: a rule of the product's terms (`field: 'terms'`,
// the domain's `loanTermsProblem`) or a rate, ratio or amount that does not parse (the field
// itself — a collateral row's LTV as `collateral.<row>.ltvPercent` — with the amount parser's problem).

/** A form field of a proposal, a collateral row's LTV included. */
export type ProposalField = Exclude<keyof LoanProductProposal, 'collateral'> | 'collateral' | `collateral.${number}.ltvPercent`;

/** A refusal placed on a form field, said by an `admin.loans.problem.*` key. */
export interface FieldRefusal {
  field: ProposalField;
  key: MessageKey;
}

/** Where each rule of the product's terms is shown, and how it is said. */
const termsProblems: Record<string, FieldRefusal> = {
  cycle: { field: 'cycleDays', key: 'admin.loans.problem.cycle' },
  rate: { field: 'dailyRatePercent', key: 'admin.loans.problem.rate' },
  range: { field: 'maxAmount', key: 'admin.loans.problem.range' },
  collateral: { field: 'collateral', key: 'admin.loans.problem.collateral' },
  ratios: { field: 'marginCallLtvPercent', key: 'admin.loans.problem.ratios' },
};

/** An amount, rate or ratio that does not parse (`AmountError`'s problems). */
const numberProblems: Record<string, MessageKey> = {
  format: 'admin.loans.problem.numberFormat',
  too_many_decimals: 'admin.loans.problem.tooManyDecimals',
  too_large: 'admin.loans.problem.tooLarge',
  not_positive: 'admin.loans.problem.notPositive',
};

const numberFields = ['dailyRatePercent', 'minAmount', 'maxAmount', 'marginCallLtvPercent', 'liquidationLtvPercent'];

/**
 * The field and the words of a "parameter error" answer's data, or null when the answer names
 * nothing this form shows (the general message then stands alone).
 */
export function proposalRefusal(data: unknown): FieldRefusal | null {
  if (!data || typeof data !== 'object') return null;
  const { field, problem } = data as { field?: unknown; problem?: unknown };
  if (typeof field !== 'string' || typeof problem !== 'string') return null;
  if (field === 'terms') return termsProblems[problem] ?? null;
  const key = numberProblems[problem];
  if (!key) return null;
  if (numberFields.includes(field)) return { field: field as ProposalField, key };
  if (/^collateral\.\d+\.ltvPercent$/.test(field)) return { field: field as ProposalField, key };
  return null;
}

/** The loan decision's refusals that say more in the review page than the catalogue's one line. */
const decisionRefusals: [msg: string, key: MessageKey][] = [
  [errorCatalogue.SECOND_APPROVER_REQUIRED.msg, 'admin.loans.refused.secondApprover'],
  [errorCatalogue.NOT_PENDING_REVIEW.msg, 'admin.loans.refused.notPending'],
  [errorCatalogue.LENDING_FUNDS_UNAVAILABLE.msg, 'admin.loans.refused.lendingFunds'],
];

/** What the review page adds to a refused decision, or null (the catalogue's message is shown either way). */
export function decisionRefusalKey(error: unknown): MessageKey | null {
  if (!(error instanceof ApiError)) return null;
  return decisionRefusals.find(([msg]) => msg === error.message)?.[1] ?? null;
}
