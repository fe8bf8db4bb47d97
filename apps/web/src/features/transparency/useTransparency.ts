import { getTransparencyContract, type LiabilitySnapshot, listLiabilitySnapshotsContract, type Transparency } from '@keel/contracts';
import { LIST_PAGE_SIZE } from '../../shared/api/paging.ts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';

/** GET /home/transparency (public): the house accounts, the earn yield paid and every published rule, as the server applies them now. */
export function useTransparency() {
  const query = useContractQuery(getTransparencyContract);
  return {
    data: (query.data as Transparency | undefined) ?? null,
    failed: loadFailed(query),
    reload: () => void query.refetch(),
  };
}

/**
 * The newest published proof-of-liabilities snapshot (public), or null when none is yet. Asked as
 * /proof asks for its first page, so opening /proof from here finds the list in the cache.
 */
export function useLatestSnapshot() {
  const query = useContractQuery(listLiabilitySnapshotsContract, { query: { page: 1, pageSize: LIST_PAGE_SIZE } });
  const items = (query.data?.items ?? []) as LiabilitySnapshot[];
  return {
    loaded: query.data !== undefined,
    snapshot: items.find((each) => each.published !== null) ?? null,
    failed: loadFailed(query),
    reload: () => void query.refetch(),
  };
}
