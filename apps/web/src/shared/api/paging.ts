/** Rows per page of every paged list of the user app. */
export const LIST_PAGE_SIZE = 20;

/** A page number from the address (1 when absent or not a sensible page; the contracts allow 100,000). */
export function pageFromQuery(value: string | null): number {
  const page = Number.parseInt(value ?? '1', 10);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** How many pages `total` rows fill (at least one, so an empty list reads "page 1 of 1"). */
export function pageCount(total: number, pageSize = LIST_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
