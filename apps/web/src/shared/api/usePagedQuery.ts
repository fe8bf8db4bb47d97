import type { Callable, Contract, ContractData, ContractInput } from '@keel/contracts';
import { useSearchParams } from 'react-router';
import { LIST_PAGE_SIZE, pageFromQuery } from './paging.ts';
import { loadFailed, useContractQuery } from './queries.ts';

/** What a paged list screen draws from (the shape `PagedWalletList` takes). */
export interface PagedQuery<T> {
  page: number;
  setPage: (page: number) => void;
  /** The page shown; while another page (or filter) loads, the previous one stays (`loading` is true). */
  data: { items: readonly T[]; total: number } | null;
  failed: boolean;
  /** The rows shown are about to be replaced by another page's (not a background refresh of the same page). */
  loading: boolean;
  reload: () => void;
}

type PagedData = { items: readonly unknown[]; total: number };
type ItemOf<C extends Contract> = ContractData<C> extends { items: readonly (infer T)[] } ? T : never;
/** The list's own query fields (filters, scope); the page and its size come from the hook. */
type FiltersOf<C extends Contract> = Omit<NonNullable<ContractInput<C>['query']>, 'page' | 'pageSize'>;

/**
 * One page of a list contract (`page`/`pageSize` in, `items`/`total` out) as a query, with the page
 * in the address (`?page=`), so a page can be reloaded or shared. Each page is cached under its own
 * key, so going back a page shows it at once; `filters` are part of the key.
 */
export function usePagedQuery<C extends Contract>(
  contract: Callable<C>,
  filters: FiltersOf<C>,
  options: { refetchInterval?: number | false } = {},
): PagedQuery<ItemOf<C>> {
  const [params, setParams] = useSearchParams();
  const page = pageFromQuery(params.get('page'));
  const input = { query: { ...filters, page, pageSize: LIST_PAGE_SIZE } } as ContractInput<C>;
  const query = useContractQuery(contract, input, { keepPrevious: true, refetchInterval: options.refetchInterval });

  function setPage(next: number) {
    const search = new URLSearchParams(params);
    if (next > 1) search.set('page', String(next));
    else search.delete('page');
    setParams(search);
  }

  return {
    page,
    setPage,
    data: (query.data as (PagedData & { items: readonly ItemOf<C>[] }) | undefined) ?? null,
    failed: loadFailed(query),
    loading: query.isPlaceholderData,
    reload: () => void query.refetch(),
  };
}
