import { createContractHooks, createQueryClient } from '@keel/ui';
import { api, setSessionLostHandler, staffToken } from './api.ts';

// The back-office's server state (ADR 0026, ADR 0028): every read is a query keyed by its
// contract and input, every change a mutation naming the contracts it makes out of date. The
// query client keeps the policy of packages/ui (refusals are not retried, 5 s stale time,
// mutations never retried by the library); the staff client below adds the staff session rules.

export const queryClient = createQueryClient();

export const { useContractQuery, useContractMutation } = createContractHooks(api);

/**
 * Drops everything read with the session that ended: the next member to log in on this browser
 * never sees the previous one's lists, not even for a moment from the cache.
 */
setSessionLostHandler(() => queryClient.clear());

/** Ends the staff session on this browser (logout, or the current session revoked from the list). */
export function endStaffSession() {
  staffToken.clear();
  queryClient.clear();
}
