// The inputs of the trade screen's list reads, without the query layer, so that what only needs
// the addresses (app/pages.test.ts checks the first script's early reads against them) need not
// load it.

/** History rows per page. */
export const HISTORY_PAGE_SIZE = 10;

/** The open orders, all on one page (a user has few at a time). */
export const openOrdersInput = { query: { scope: 'open', page: 1, pageSize: 100 } } as const;

/** One page of the settled orders. */
export const historyInput = (page: number) => ({ query: { scope: 'history', page, pageSize: HISTORY_PAGE_SIZE } }) as const;

