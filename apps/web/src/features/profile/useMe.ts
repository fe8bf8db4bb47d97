import { meAddress, type PublicUser } from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';

export interface MeState {
  user: PublicUser | null;
  failed: boolean;
  reload: () => void;
}

/**
 * The logged-in user (GET /home/user/me), one cached query shared by every screen that names the
 * user; the cache is dropped whenever the session changes, and a change of the profile (nickname,
 * e-mail, phone) invalidates it.
 */
export function useMe(): MeState {
  const query = useContractQuery(meAddress);
  return { user: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}
