import { ApiError, type ContractData, errorCatalogue, type FundRequestView, type listStaffFundRequestsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

// The review of funding requests (issue 18, ADR 0037) in the back-office: what the page shows
// beside the server's answers, kept apart from the page so it is tested without drawing it.

/** A request as staff read it: the schema every caller reads, with the borrower's user id. */
export type StaffFundRequest = ContractData<typeof listStaffFundRequestsContract>['items'][number];
export type FundStatus = FundRequestView['status'];

/**
 * The page's tabs, in the order a request lives through them: the review queue first (the page
 * opens on it, oldest first), then the pool and what follows, the ends last.
 */
export const fundTabs: readonly FundStatus[] = ['review', 'open', 'funded', 'repaid', 'defaulted', 'expired', 'rejected'];

/** The borrower as every user sees them (their public name, ADR 0023), with the id staff search by. */
export const borrowerOf = (request: StaffFundRequest) => `${request.borrower} (#${request.userId})`;

/** A tranche's state: released (with its entry), due at a known time, or waiting for the fill that schedules it. */
export type TrancheState = 'released' | 'scheduled' | 'unscheduled';

export function trancheState(tranche: FundRequestView['schedule'][number]): TrancheState {
  if (tranche.releasedAtMs !== null) return 'released';
  return tranche.releaseAtMs === null ? 'unscheduled' : 'scheduled';
}

/** The request a record URL names, among those the list shows (there is no staff read of one request). */
export function requestIn(items: readonly StaffFundRequest[] | undefined, requestId: string): StaffFundRequest | undefined {
  return items?.find((request) => request.id === requestId);
}

/** The decision's refusals that say more in the review page than the catalogue's one line. */
const decisionRefusals: [msg: string, key: MessageKey][] = [[errorCatalogue.NOT_PENDING_REVIEW.msg, 'admin.fund.refused.notPending']];

/** What the review page adds to a refused decision, or null (the catalogue's message is shown either way). */
export function fundDecisionRefusalKey(error: unknown): MessageKey | null {
  if (!(error instanceof ApiError)) return null;
  return decisionRefusals.find(([msg]) => msg === error.message)?.[1] ?? null;
}
