import type { Contract, ContractData, ContractInput } from '@keel/contracts';
import type { z } from 'zod';
import { useContractQuery } from './queries.ts';
import { type ListQuerySchema, useUrlFilter } from './url-filter.ts';

/** A paged list contract: its query is `pageQuerySchema.extend({...})`, its answer has the items and their total. */
// biome-ignore lint/suspicious/noExplicitAny: matches any list contract, whatever its other schemas.
export type ListContract = Contract<any, ListQuerySchema, any, z.ZodType<{ items: unknown[]; total: number }>, any>;

/** A list contract's query schema, which its URL filter and its filter forms are read through. */
export function queryOf<C extends ListContract>(contract: C): NonNullable<C['query']> {
  if (!contract.query) throw new Error(`${contract.id} takes no query`);
  return contract.query as NonNullable<C['query']>;
}

/**
 * One page of a staff list, as the URL names it: the filter and page from the query string
 * (`useUrlFilter`), the page read as a query keyed by the contract and that filter (the previous
 * page stays on screen while the next one loads), and the props `PagedTable` draws it with.
 *
 * Staff queues are worked by several members at once, so a list is never taken as fresh from the
 * cache (`staleTime` 0, where the shared client says 5 s): opening a view or choosing a filter
 * always asks the server again, with the cached page on screen meanwhile.
 */
export function useListQuery<C extends ListContract>(contract: C, pageSize: number) {
  type Filter = z.output<NonNullable<C['query']>>;
  const schema = queryOf(contract);
  const url = useUrlFilter(schema);
  const filter = url.filter as Filter & { page: number };
  const input = { query: { ...filter, pageSize } } as ContractInput<C>;
  const list = useContractQuery(contract, input, { keepPrevious: true, staleTime: 0 });
  const data = list.data as ContractData<C> | undefined;
  const searchFor = url.searchFor as (changes: Partial<Filter>) => string;
  const setFilter = url.setFilter as (changes: Partial<Filter>) => void;
  return {
    schema,
    filter,
    searchFor,
    setFilter,
    /** Applies a filter from a form: the filter already shown is read again (staff expect "search" to refresh). */
    applyFilter: (changes: Partial<Filter>) => (searchFor(changes) === searchFor({}) ? void list.refetch() : setFilter(changes)),
    list,
    table: { result: data, page: filter.page, pageSize, onPage: (page: number) => url.setFilter({ page } as unknown as Partial<Filter>) },
  };
}
