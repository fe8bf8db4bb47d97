import { getOptionsOverviewAddress, listOptionOrdersAddress } from '@keel/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchContract } from '../../shared/api/queries.ts';
import { historyInput, openOrdersInput } from './option-inputs.ts';

export { HISTORY_PAGE_SIZE, historyInput, openOrdersInput } from './option-inputs.ts';

/**
 * The trade screen's first reads (useOptions), started by the route's loader before the screen's
 * chunk has arrived, under the keys the screen reads them by. Without React, so the router's
 * module can hold it without the screen.
 */
export function prefetchTradeScreen(client: QueryClient): void {
  prefetchContract(client, getOptionsOverviewAddress);
  prefetchContract(client, listOptionOrdersAddress, openOrdersInput);
  prefetchContract(client, listOptionOrdersAddress, historyInput(1));
}
