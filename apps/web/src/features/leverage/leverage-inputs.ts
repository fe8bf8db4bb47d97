import type { LeverageProduct } from './trade-products.ts';

// The inputs of the leverage screens' reads, without the query layer (so that a test of them need
// not load it).

/** History rows per page. */
export const POSITION_HISTORY_PAGE_SIZE = 10;
/** Open positions, all on one page (the contract's largest). */
export const OPEN_POSITIONS_PAGE_SIZE = 100;

/** The open positions of a product. */
export const openPositionsInput = (product: LeverageProduct) => ({ query: { scope: 'open', product, page: 1, pageSize: OPEN_POSITIONS_PAGE_SIZE } }) as const;

/** One page of a product's closed and liquidated positions. */
export const positionHistoryInput = (product: LeverageProduct, page: number) =>
  ({ query: { scope: 'history', product, page, pageSize: POSITION_HISTORY_PAGE_SIZE } }) as const;

/** One position with all its events. */
export const positionInput = (positionId: string) => ({ params: { positionId } }) as const;

/** A product's limit orders waiting for their price, all on one page. */
export const pendingOrdersInput = (product: LeverageProduct) => ({ query: { scope: 'open', product, page: 1, pageSize: OPEN_POSITIONS_PAGE_SIZE } }) as const;

/** A product's latest filled and cancelled limit orders. */
export const pastOrdersInput = (product: LeverageProduct) => ({ query: { scope: 'history', product, page: 1, pageSize: POSITION_HISTORY_PAGE_SIZE } }) as const;
