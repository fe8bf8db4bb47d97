import {
  type ContractData,
  type EarnProduct,
  type EarnSubscription,
  getEarnOverviewContract,
  getEarnSubscriptionContract,
  listAccountsContract,
  listEarnSubscriptionsContract,
  listRecordsContract,
} from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';

export type EarnKind = EarnProduct['kind'];
export type EarnOverviewData = ContractData<typeof getEarnOverviewContract>;

/**
 * Every earn change moves money: the overview (quotas, the treasury, balances), both subscription
 * lists, a subscription's detail, the balances and the records are out of date after it (ADR 0026).
 */
export const earnChanged = [getEarnOverviewContract, listEarnSubscriptionsContract, getEarnSubscriptionContract, listAccountsContract, listRecordsContract];

/** The products of a kind (or all), the treasuries, the acknowledgement, the coin balances, the server's time. */
export function useEarnOverview(kind: EarnKind | undefined) {
  const query = useContractQuery(getEarnOverviewContract, { query: kind ? { kind } : {} });
  return { data: query.data ?? null, receivedAtMs: query.dataUpdatedAt, failed: loadFailed(query), reload: () => void query.refetch() };
}

/** One subscription with every day paid (its journal entries), fetched when its row is opened. */
export function useEarnSubscription(id: string, enabled: boolean) {
  const query = useContractQuery(getEarnSubscriptionContract, { params: { subscriptionId: id } }, { enabled });
  return { data: (query.data as EarnSubscription | undefined) ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}
