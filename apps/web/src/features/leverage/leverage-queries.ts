import { getLeverageOverviewContract, listPositionsContract } from '@keel/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchContract } from '../../shared/api/queries.ts';
import { openPositionsInput, positionHistoryInput } from './leverage-inputs.ts';
import type { LeverageProduct } from './trade-products.ts';

/**
 * A leverage screen's first reads (useLeverage), started by the route's loader once the screen's
 * chunk has arrived (before the screen renders), under the keys the screen reads them by.
 */
export function prefetchLeverageScreen(client: QueryClient, product: LeverageProduct): void {
  prefetchContract(client, getLeverageOverviewContract);
  prefetchContract(client, listPositionsContract, openPositionsInput(product));
  prefetchContract(client, listPositionsContract, positionHistoryInput(product, 1));
}
