import {
  type ContractData,
  type FundInvestmentView,
  type FundRequestView,
  getFundInvestmentContract,
  getFundOverviewContract,
  getFundRequestContract,
  getLoansOverviewContract,
  listAccountsContract,
  listFundInvestmentsContract,
  listFundPoolContract,
  listMyFundRequestsContract,
  listRecordsContract,
} from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';

export type FundOverviewData = ContractData<typeof getFundOverviewContract>;

/**
 * A publication or an investment moves money: the overview (balances, the escrow), the pool, the
 * user's requests and investments, one request, the balances and the records are out of date after
 * it (ADR 0026). The push event `{ kind: 'fund.request' }` invalidates the same reads (cache-sync.ts).
 */
export const fundChanged = [
  getFundOverviewContract,
  listFundPoolContract,
  listMyFundRequestsContract,
  getFundRequestContract,
  listFundInvestmentsContract,
  getFundInvestmentContract,
  listAccountsContract,
  listRecordsContract,
];

/** How often a request's progress is asked again while the push connection is down. */
export const FUND_FALLBACK_POLL_MS = 60_000;

/** The published rules, the tier, the coin balances, the escrow and the latest prices. */
export function useFundOverview() {
  const query = useContractQuery(getFundOverviewContract);
  return { data: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}

/** The borrower's credit score (the loans' published rule): the credit rating's input on the publish form. */
export function useCreditScore(enabled: boolean): number | null {
  const query = useContractQuery(getLoansOverviewContract, undefined, { enabled });
  return query.data?.credit.score ?? null;
}

/** One funding request with its schedule and settlement. */
export function useFundRequest(requestId: string) {
  const fallback = useFallbackPolling(FUND_FALLBACK_POLL_MS);
  const query = useContractQuery(getFundRequestContract, { params: { requestId } }, { refetchInterval: fallback });
  return { data: (query.data as FundRequestView | undefined) ?? null, error: query.error, failed: loadFailed(query), reload: () => void query.refetch() };
}

/** One of the user's investments. */
export function useFundInvestment(investmentId: string) {
  const query = useContractQuery(getFundInvestmentContract, { params: { investmentId } });
  return { data: (query.data as FundInvestmentView | undefined) ?? null, error: query.error, failed: loadFailed(query), reload: () => void query.refetch() };
}
