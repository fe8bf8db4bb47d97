import { ApiError, errorCatalogue, type ProposeCorrectionBody, type StaffCorrection } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

// Staff corrections in the back-office (issue 22, ADR 0039): what the page says beside the
// server's answers, kept apart from the page so it is tested without drawing it.

/** A field of the proposal form a refusal can be put on. */
export type CorrectionField = keyof ProposeCorrectionBody;

/** A refusal placed on a form field, said by an `admin.corrections.problem.*` key (with its values). */
export interface FieldRefusal {
  field: CorrectionField;
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** An amount the ledger's parser refused (`WRONG_AMOUNT`'s `data.problem`). */
const amountProblems: Record<string, MessageKey> = {
  too_many_decimals: 'admin.corrections.problem.decimals',
  too_large: 'admin.corrections.problem.tooLarge',
};

/**
 * The field and the words of a refused proposal, or null when the answer names nothing the form
 * shows (the catalogue's message then stands alone): a reason the user could not read anything in,
 * an asset the house account does not hold, a user or a C2C merchant who does not exist, an amount with more decimals
 * than the asset has.
 */
export function proposalRefusal(error: unknown): FieldRefusal | null {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return null;
  const { field, problem, scale } = error.data as { field?: unknown; problem?: unknown; scale?: unknown };
  if (error.message === errorCatalogue.RECORD_NOT_FOUND.msg && field === 'userId') return { field: 'userId', key: 'admin.corrections.problem.noUser' };
  if (error.message === errorCatalogue.RECORD_NOT_FOUND.msg && field === 'merchantId') return { field: 'merchantId', key: 'admin.corrections.problem.noMerchant' };
  if (error.message === errorCatalogue.WRONG_AMOUNT.msg) {
    const key = (typeof problem === 'string' && amountProblems[problem]) || 'admin.corrections.problem.amount';
    return { field: 'amount', key, ...(typeof scale === 'number' ? { vars: { scale } } : {}) };
  }
  if (error.message !== errorCatalogue.PARAMETER_ERROR.msg) return null;
  if (field === 'reason') return { field: 'reason', key: 'admin.corrections.problem.reason' };
  if (field === 'asset' && problem === 'not_held_by_house_account') return { field: 'asset', key: 'admin.corrections.problem.houseAsset' };
  return null;
}

/**
 * What the page adds to a refused decision, or null (the catalogue's message is shown either way):
 * the maker deciding their own, a finance member approving what only an admin approves, the ledger
 * refusing to take back more than the account holds (the correction stays pending), or a
 * correction a colleague decided meanwhile.
 */
export function decisionRefusalKey(error: unknown): MessageKey | null {
  if (!(error instanceof ApiError)) return null;
  if (error.message === errorCatalogue.SECOND_APPROVER_REQUIRED.msg) {
    const rule = (error.data as { rule?: unknown } | null)?.rule;
    if (rule === 'maker_cannot_check') return 'admin.corrections.refused.maker';
    if (rule === 'admin_checker_required') return 'admin.corrections.refused.adminChecker';
    return null;
  }
  if (error.message === errorCatalogue.INSUFFICIENT_BALANCE.msg) return 'admin.corrections.refused.insufficient';
  if (error.message === errorCatalogue.NOT_PENDING_REVIEW.msg) return 'admin.corrections.refused.notPending';
  return null;
}

/**
 * Which decisions a member may take on a pending correction, and why not: the maker neither
 * (a colleague checks it), a member who is not an admin no approval where an admin checker is
 * required (they may still reject it). The server applies the same rule; this only says it first.
 */
export function decisionsOpenTo(
  correction: Pick<StaffCorrection, 'status' | 'proposedBy' | 'adminCheckerRequired'>,
  member: { username: string; roles: readonly string[] },
): { approve: boolean; reject: boolean; why: MessageKey | null } {
  if (correction.status !== 'pending') return { approve: false, reject: false, why: null };
  if (correction.proposedBy === member.username) return { approve: false, reject: false, why: 'admin.corrections.own' };
  if (correction.adminCheckerRequired && !member.roles.includes('admin')) return { approve: false, reject: true, why: 'admin.corrections.adminOnly' };
  return { approve: true, reject: true, why: null };
}
