import {
  type ContractData,
  getLoanAgreementContract,
  getLoanContract,
  getLoansOverviewContract,
  type LoanView,
  listAccountsContract,
  listLoansContract,
  listRecordsContract,
} from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';

export type LoansOverviewData = ContractData<typeof getLoansOverviewContract>;

/**
 * Every loan change moves money: the overview (credit, balances, the treasury), the lists, a loan's
 * detail, the balances and the records are out of date after it (ADR 0026). The push event
 * `{ kind: 'loan' }` invalidates the same reads (shared/realtime/cache-sync.ts).
 */
export const loansChanged = [getLoansOverviewContract, listLoansContract, getLoanContract, listAccountsContract, listRecordsContract];

/** The contract ids the `loan` push event makes out of date, for cache-sync.ts's table. */
export const loanEventContractIds = ['loans.overview', 'loans.list', 'loans.get', 'assets.accounts', 'assets.records'] as const;

/** Products, credit, policy, prices, the coin balances and the lending treasury. */
export function useLoansOverview() {
  const query = useContractQuery(getLoansOverviewContract);
  return { data: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}

/** The agreement for these numbers (only asked for when they are all there). */
export function useLoanAgreement(input: { productId: string; amount: string; collateralAsset: string; collateralAmount: string }, enabled: boolean) {
  const query = useContractQuery(getLoanAgreementContract, { query: input }, { enabled });
  return { data: query.data ?? null, error: query.error, failed: loadFailed(query), loading: query.isLoading, reload: () => void query.refetch() };
}

/** One loan with its repayments. */
export function useLoan(loanId: string, enabled = true) {
  const query = useContractQuery(getLoanContract, { params: { loanId } }, { enabled });
  return { data: (query.data as LoanView | undefined) ?? null, error: query.error, failed: loadFailed(query), reload: () => void query.refetch() };
}
