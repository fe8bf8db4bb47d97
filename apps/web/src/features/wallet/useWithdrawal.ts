import { ApiError, type ContractData, errorCatalogue, getWithdrawalContract } from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';

export type WithdrawalView = ContractData<typeof getWithdrawalContract>;

/**
 * One withdrawal (GET /home/wallet/withdrawals/:id), telling "not yours / no such" apart from a
 * failed load. Staff decisions reach it as a pushed message (cache-sync); polled only while the
 * push connection is down.
 */
export function useWithdrawal(id: string) {
  const query = useContractQuery(getWithdrawalContract, { params: { withdrawalId: id } }, { refetchInterval: useFallbackPolling() });
  const notFound = query.error instanceof ApiError && query.error.message === errorCatalogue.RECORD_NOT_FOUND.msg;
  return {
    withdrawal: query.data ?? null,
    problem: notFound ? ('notFound' as const) : loadFailed(query) ? ('failed' as const) : null,
    reload: () => void query.refetch(),
  };
}
