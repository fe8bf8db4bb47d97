import type { EarnProductProposal } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

// The server's refusals of an earn proposal (issue 17, ADR 0035), in words on the field they are
// about. A "parameter error" names `data.field` and `data.problem`: a rule of the product's terms
// (`field: 'terms'`, the domain's `earnTermsProblem`), an amount or rate that does not parse (the
// field itself, the amount parser's problem), an unknown asset, a kind or asset an existing
// product cannot change, or — on approval — a total quota below the principal active now.

export type ProposalField = keyof EarnProductProposal;

/** A refusal placed on a form field, said by an `admin.earn.problem.*` key. */
export interface FieldRefusal {
  field: ProposalField;
  key: MessageKey;
}

/** Where each rule of the product's terms is shown, and how it is said. */
const termsProblems: Record<string, FieldRefusal> = {
  cycle_days: { field: 'cycleDays', key: 'admin.earn.problem.cycleDays' },
  daily_rate: { field: 'dailyRatePercent', key: 'admin.earn.problem.dailyRate' },
  penalty_rate: { field: 'penaltyRatePercent', key: 'admin.earn.problem.penaltyRate' },
  penalty_without_redemption: { field: 'penaltyRatePercent', key: 'admin.earn.problem.penaltyWithoutRedemption' },
  payout_time: { field: 'payoutTimeUtc', key: 'admin.earn.problem.payoutTime' },
  amount_range: { field: 'maxAmount', key: 'admin.earn.problem.amountRange' },
  quota: { field: 'userQuota', key: 'admin.earn.problem.quota' },
};

/** An amount or a rate that does not parse (`AmountError`'s problems). */
const numberProblems: Record<string, MessageKey> = {
  format: 'admin.earn.problem.numberFormat',
  too_many_decimals: 'admin.earn.problem.tooManyDecimals',
  too_large: 'admin.earn.problem.tooLarge',
  not_positive: 'admin.earn.problem.notPositive',
};

const proposalFields: readonly ProposalField[] = [
  'kind',
  'name',
  'asset',
  'cycleDays',
  'dailyRatePercent',
  'penaltyRatePercent',
  'payoutTimeUtc',
  'earlyRedemption',
  'minAmount',
  'maxAmount',
  'userQuota',
  'totalQuota',
  'open',
];

/**
 * The field and the words of a "parameter error" answer's data, or null when the answer names
 * nothing this form shows (the general message then stands alone).
 */
export function proposalRefusal(data: unknown): FieldRefusal | null {
  if (!data || typeof data !== 'object') return null;
  const { field, problem } = data as { field?: unknown; problem?: unknown };
  if (typeof field !== 'string' || typeof problem !== 'string') return null;
  if (field === 'terms') return termsProblems[problem] ?? null;
  if (field === 'asset' && problem === 'unknown') return { field, key: 'admin.earn.problem.unknownAsset' };
  if ((field === 'asset' || field === 'kind') && problem === 'fixed') return { field, key: 'admin.earn.problem.fixed' };
  if (field === 'totalQuota' && problem === 'below_active') return { field, key: 'admin.earn.problem.belowActive' };
  if (!(proposalFields as readonly string[]).includes(field)) return null;
  const key = numberProblems[problem];
  return key ? { field: field as ProposalField, key } : null;
}
