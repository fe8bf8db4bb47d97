import { type ContractData, securityOverviewContract } from '@keel/contracts';
import { useApiQuery } from '../../shared/api/useApiQuery.ts';

export type SecurityOverview = ContractData<typeof securityOverviewContract>;

/** GET /home/user/security: what is set (never the secrets) and the withdrawal lock, if any. */
export function useSecurity(): { overview: SecurityOverview | null; failed: boolean; reload: () => void } {
  const { data, failed, reload } = useApiQuery(securityOverviewContract);
  return { overview: data, failed, reload };
}
