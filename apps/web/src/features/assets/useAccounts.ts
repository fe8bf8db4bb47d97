import { listAccountsAddress } from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import type { AccountBalance } from './accounts.ts';

export interface AccountsState {
  /** Null until the first answer. */
  accounts: AccountBalance[] | null;
  failed: boolean;
  reload: () => void;
}

/**
 * The user's balances (GET /home/assets/accounts), one query shared by every screen that shows
 * them. Whatever moves money invalidates it: the app's own mutations (transfer, swap, withdrawal …)
 * and the pushed events of changes made elsewhere (a P2P order, a contract settled, a staff decision
 * announced by a message); it is polled only while the push connection is down.
 */
export function useAccounts(): AccountsState {
  const query = useContractQuery(listAccountsAddress, undefined, { refetchInterval: useFallbackPolling(), select: (data) => data.accounts });
  return { accounts: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}
