import { applyForVipContract, myVipContract } from '@keel/contracts';
import type { z } from 'zod';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';

export type MyVip = z.infer<typeof myVipContract.data>;
export type VipLevelRow = MyVip['levels'][number];

/** GET /home/vip/mine: the published table, my level, my standing and progress, my applications. */
export function useMyVip() {
  const query = useContractQuery(myVipContract);
  return {
    data: (query.data as MyVip | undefined) ?? null,
    failed: loadFailed(query),
    reload: () => void query.refetch(),
  };
}

export function useApplyForVip() {
  return useContractMutation(applyForVipContract, { invalidates: [myVipContract] });
}

export { discountPercent, progressPercent } from './vip-figures.ts';
