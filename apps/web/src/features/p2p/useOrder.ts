import { ApiError, errorCatalogue, getP2pOrderContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { isOrderInProgress, ORDER_FALLBACK_POLL_MS, type P2pOrder } from './order-rules.ts';

function subscribeVisibility(listener: () => void): () => void {
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}

/**
 * Whether the page is shown. A query that must not run in a hidden tab (reading a chat marks the
 * other side's messages read) is enabled only while it is: an invalidation meanwhile marks it out
 * of date, and it is fetched once the tab is shown again.
 */
export function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

export const orderInput = (orderId: string) => ({ params: { orderId } });

/**
 * One P2P order (GET /home/p2p/orders/:id) as a query, "not yours / no such" told apart from a
 * failed load. The `p2p.order` push event invalidates it (shared/realtime/cache-sync.ts), so the
 * other side's step (paid, released, an appeal) shows without a reload; while the order is in
 * progress and the push connection is down it is polled. `replace` puts a step's answer in place.
 */
export function useOrder(id: string) {
  const client = useQueryClient();
  const fallback = useFallbackPolling(ORDER_FALLBACK_POLL_MS);
  const input = orderInput(id);
  const cached = client.getQueryData<P2pOrder>(contractKey(getP2pOrderContract, input));
  const query = useContractQuery(getP2pOrderContract, input, {
    refetchInterval: cached && isOrderInProgress(cached.status) ? fallback : false,
  });
  const notFound = query.error instanceof ApiError && query.error.message === errorCatalogue.RECORD_NOT_FOUND.msg;
  const problem: 'notFound' | 'failed' | null = notFound ? 'notFound' : loadFailed(query) ? 'failed' : null;
  const replace = useCallback((order: P2pOrder) => client.setQueryData(contractKey(getP2pOrderContract, orderInput(id)), order), [client, id]);
  return { order: query.data ?? null, problem, reload: () => void query.refetch(), replace };
}
