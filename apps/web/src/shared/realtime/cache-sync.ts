import type { Contract, UserEvent } from '@keel/contracts';
import { invalidateContracts } from '@keel/ui';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ResyncReason } from './connection.ts';
import { realtime, useRealtimeStatus } from './realtime.ts';

/**
 * What each pushed user event makes out of date (ADR 0026), by contract id: the ids and not the
 * contracts themselves, so that following the events does not build, on every screen's start, the
 * schemas of every area named here (cache-sync.test.ts checks each id is a read contract's; ADR
 * 0025). Events carry ids only and can be lost, so the cache is never written from them: the
 * queries they name are refetched where shown. A feature whose screens follow a new event kind adds
 * its contracts here.
 */
export const contractIdsByUserEvent: Record<UserEvent['kind'], readonly Contract['id'][]> = {
  // Staff decisions on the user's deposits and withdrawals (credited, approved, rejected, paid out)
  // and on-chain credits reach the user only as a system message, so a message also refreshes the
  // wallet: balances, both lists, a withdrawal's detail, the standing against the daily limits.
  message: [
    'user.unread',
    'user.messages',
    'assets.accounts',
    'assets.records',
    'wallet.deposits',
    'wallet.withdrawals',
    'wallet.withdrawalDetail',
    'wallet.overview',
    // A C2C order's merchant steps (accepted, paid, confirmed) and its ends reach the user as a message (issue 19).
    'c2c.request',
    'c2c.requests',
    'c2c.options',
  ],
  'p2p.order': ['p2p.order', 'p2p.orders', 'p2p.ads', 'assets.accounts', 'assets.records'],
  'p2p.chat': ['p2p.chat'],
  'options.order': ['options.orders.get', 'options.orders.list', 'options.overview', 'assets.accounts', 'assets.records'],
  'leverage.position': ['leverage.positions.get', 'leverage.positions.list', 'leverage.overview', 'assets.accounts', 'assets.records'],
  'leverage.order': ['leverage.orders.list', 'leverage.positions.list', 'leverage.overview', 'assets.accounts', 'assets.records'],
  'earn.subscription': ['earn.subscriptions.list', 'earn.subscriptions.get', 'earn.overview', 'assets.accounts', 'assets.records'],
  // A loan applied for, approved (paid out), rejected, repaid, margin-called or liquidated (issue 18).
  loan: ['loans.list', 'loans.get', 'loans.overview', 'assets.accounts', 'assets.records'],
  // A funding request published or invested in changed: reviewed, invested in, filled, released, settled (issue 18).
  'fund.request': ['fund.pool', 'fund.requests.mine', 'fund.requests.get', 'fund.investments', 'fund.investments.get', 'fund.overview', 'assets.accounts', 'assets.records'],
};

const byId = (ids: readonly string[]): Pick<Contract, 'id'>[] => ids.map((id) => ({ id }));
const contractsByUserEvent: Record<UserEvent['kind'], readonly Pick<Contract, 'id'>[]> = {
  message: byId(contractIdsByUserEvent.message),
  'p2p.order': byId(contractIdsByUserEvent['p2p.order']),
  'p2p.chat': byId(contractIdsByUserEvent['p2p.chat']),
  'options.order': byId(contractIdsByUserEvent['options.order']),
  'leverage.position': byId(contractIdsByUserEvent['leverage.position']),
  'leverage.order': byId(contractIdsByUserEvent['leverage.order']),
  'earn.subscription': byId(contractIdsByUserEvent['earn.subscription']),
  loan: byId(contractIdsByUserEvent.loan),
  'fund.request': byId(contractIdsByUserEvent['fund.request']),
};

const followedContracts = [...new Map(Object.values(contractsByUserEvent).flat().map((each) => [each.id, each])).values()];
/**
 * Refetched after the first `authed` ('start') too, the window between a screen's own load and the
 * authentication. Not the tab bar's unread flag: the shell asks for it on every tab change anyway
 * (spec section 7), and asking once more right after the load would be one request too many.
 */
const refetchedAtStart = followedContracts.filter((each) => each.id !== 'user.unread');

/**
 * What the push connection's resync makes out of date. After a gap anything may have been missed:
 * every followed query. At the start, the followed queries (but the unread flag) whose data is
 * older than the moment events began to flow; a query still loading then holds no newer data, so it
 * is refetched too, and one answered since is left alone.
 */
export function resyncFollowedQueries(client: QueryClient, reason: ResyncReason, eventsSinceMs: number): Promise<void> {
  if (reason === 'gap') return invalidateContracts(client, followedContracts);
  return invalidateContracts(client, refetchedAtStart, (query) => query.state.dataUpdatedAt < eventsSinceMs);
}

/**
 * Mounted once inside the logged-in part of the app: follows the user's events on `/ws` and
 * invalidates what they change. After a reconnect (events in between were not replayed) everything
 * events would have refreshed is refetched; at the start, whatever of it was loaded before events
 * began to flow — also when this mounts after the socket authenticated, as it does when a route's
 * prefetch and the push connection both run before the screen commits.
 */
export function RealtimeCacheSync(): null {
  const client = useQueryClient();
  useEffect(
    () =>
      realtime().onUserEvent({
        onEvent: (event) => void invalidateContracts(client, contractsByUserEvent[event.kind]),
        onResync: (reason, eventsSinceMs) => void resyncFollowedQueries(client, reason, eventsSinceMs),
      }),
    [client],
  );
  return null;
}

/** Polling is the fallback while the push connection is down: `refetchInterval` for a followed query. */
export function useFallbackPolling(intervalMs = 30_000): number | false {
  return useRealtimeStatus() === 'open' ? false : intervalMs;
}
