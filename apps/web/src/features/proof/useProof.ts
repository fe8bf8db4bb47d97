import {
  ApiError,
  errorCatalogue,
  getLiabilitySnapshotContract,
  getMyInclusionProofContract,
  type LiabilitySnapshot,
  listLiabilitySnapshotsContract,
} from '@keel/contracts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';

/** The published snapshots, newest first, a page at a time (`?page=`). Public: no session needed. */
export function useSnapshots() {
  return usePagedQuery(listLiabilitySnapshotsContract, {});
}

/** One published snapshot (public), "no such snapshot" told apart from a failed load. */
export function useSnapshot(snapshotId: string) {
  const query = useContractQuery(getLiabilitySnapshotContract, { params: { snapshotId } });
  const notFound = query.error instanceof ApiError && query.error.message === errorCatalogue.RECORD_NOT_FOUND.msg;
  return {
    snapshot: (query.data as LiabilitySnapshot | undefined) ?? null,
    notFound,
    failed: !notFound && loadFailed(query),
    reload: () => void query.refetch(),
  };
}

/**
 * The user's own proof file of a snapshot, fetched only once asked for (the "verify" button). A
 * published snapshot never changes, nor does a user's place in it: the file is kept for the session.
 */
export function useMyProof(snapshotId: string, asked: boolean) {
  const query = useContractQuery(getMyInclusionProofContract, { params: { snapshotId } }, { enabled: asked, staleTime: Number.POSITIVE_INFINITY });
  return {
    file: query.data as unknown,
    error: query.error,
    sessionError: isSessionError(query.error),
    fetching: query.isFetching,
    reload: () => void query.refetch(),
  };
}
