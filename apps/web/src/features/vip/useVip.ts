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

/** A progress share 0–100 from decimal strings (display only: no money is computed from it). */
export function progressPercent(have: string, need: string): number {
  const needNumber = Number(need);
  if (!(needNumber > 0)) return 100;
  return Math.max(0, Math.min(100, Math.floor((Number(have) / needNumber) * 100)));
}

/** "20 %" from basis points of a fee. */
export function discountPercent(bps: number): string {
  return `${bps / 100} %`;
}
