import { getOptionsOverviewContract, listOptionOrdersContract } from '@keel/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchContract } from '../../shared/api/queries.ts';

/** History rows per page. */
export const HISTORY_PAGE_SIZE = 10;

/** The open orders, all on one page (a user has few at a time). */
export const openOrdersInput = { query: { scope: 'open', page: 1, pageSize: 100 } } as const;

/** One page of the settled orders. */
export const historyInput = (page: number) => ({ query: { scope: 'history', page, pageSize: HISTORY_PAGE_SIZE } }) as const;

/**
 * The trade screen's first reads (useOptions), started by the route's loader before the screen's
 * chunk has arrived, under the keys the screen reads them by. Without React, so the router's
 * module can hold it without the screen.
 */
export function prefetchTradeScreen(client: QueryClient): void {
  prefetchContract(client, getOptionsOverviewContract);
  prefetchContract(client, listOptionOrdersContract, openOrdersInput);
  prefetchContract(client, listOptionOrdersContract, historyInput(1));
}
