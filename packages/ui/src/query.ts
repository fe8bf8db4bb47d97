import { ApiError, type ApiCall, type Callable, type Contract, type ContractData, type ContractInput } from '@keel/contracts';
import {
  keepPreviousData,
  type Query,
  QueryClient,
  type QueryKey,
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

// Server state in both front ends goes through TanStack Query (ADR 0026): every read is a query
// keyed by its contract and its input, every change a mutation that names what it invalidates.
// The apps give their own API client (the user app's applies the session rules of spec section 4,
// the back-office its staff session), so the hooks are made by `createContractHooks(api)`.

export { keepPreviousData };

/**
 * A query's key: the contract's id, then its input. Invalidating `[contract.id]` reaches the call
 * with every input (every page of a list, every order), which is what a change usually affects.
 */
export function contractKey(contract: Pick<Contract, 'id'>, input?: unknown): QueryKey {
  return input === undefined ? [contract.id] : [contract.id, input];
}

/** A refusal (4xx) is the server's answer, not a glitch: asking again would get the same answer. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.code >= 400 && error.code < 500;
}

/**
 * The query client of an app. The library's defaults are kept where they suit money screens
 * (refetch on window focus and on reconnect, so a balance seen after coming back is current;
 * structural sharing; garbage collection after 5 minutes), and changed where they do not:
 * - `retry`: only network failures and 5xx are retried (twice, with the default backoff); a 4xx
 *   refusal is shown at once.
 * - `staleTime` 5 s: screens that mount together or one after another share one request instead
 *   of each asking again; anything older is refetched in the background when used.
 * - mutations are never retried by the library: a money-moving call is repeated only by the user,
 *   under the same idempotency key (the apps' action keys).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !isRefusal(error) && failureCount < 2,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}

export interface ContractQueryOptions<C extends Contract, T = ContractData<C>> {
  /** False holds the request back (e.g. until an id is known). */
  enabled?: boolean;
  /** Milliseconds between background refetches, or false (the user app polls only while `/ws` is down). */
  refetchInterval?: number | false;
  /** Keeps the previous input's answer on screen while the next one loads (paged lists, filters). */
  keepPrevious?: boolean;
  staleTime?: number;
  select?: (data: ContractData<C>) => T;
}

export interface ContractMutationOptions<C extends Contract> {
  /** Contracts whose queries (with any input) this change makes out of date. */
  invalidates?: readonly Pick<Contract, 'id'>[];
  onSuccess?: (data: ContractData<C>, input: MutationInput<C>) => void | Promise<void>;
}

export type MutationInput<C extends Contract> = ContractInput<C> & { idempotencyKey?: string };

/** The query and mutation hooks of one API client. */
export function createContractHooks(api: ApiCall) {
  /** The key and the read of one contract with `input`: what the hook and the prefetch share. */
  const contractRead = <C extends Contract>(contract: Callable<C>, input?: ContractInput<C>) => ({
    queryKey: contractKey(contract, input ?? {}),
    queryFn: () => api(contract, (input ?? {}) as MutationInput<C>) as Promise<ContractData<C>>,
  });

  /**
   * Reads one contract with `input`, cached under `contractKey(contract, input)`. The contract or its
   * address (a first screen's read, without zod: contracts http/address.ts) is the same query.
   */
  function useContractQuery<C extends Contract, T = ContractData<C>>(
    contract: Callable<C>,
    input?: ContractInput<C>,
    options: ContractQueryOptions<C, T> = {},
  ): UseQueryResult<T, Error> {
    const { keepPrevious, ...rest } = options;
    return useQuery({
      ...contractRead(contract, input),
      ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
      ...rest,
    });
  }

  /** Calls a changing contract; once it succeeds, what it `invalidates` is refetched where shown. */
  function useContractMutation<C extends Contract>(
    contract: C,
    options: ContractMutationOptions<C> = {},
  ): UseMutationResult<ContractData<C>, Error, MutationInput<C>> {
    const client = useQueryClient();
    return useMutation({
      mutationFn: (input: MutationInput<C>) => api(contract, input) as Promise<ContractData<C>>,
      onSuccess: async (data, input) => {
        await Promise.all((options.invalidates ?? []).map((each) => client.invalidateQueries({ queryKey: contractKey(each) })));
        await options.onSuccess?.(data, input);
      },
    });
  }

  /**
   * Starts reading one contract into the cache, as `useContractQuery(contract, input)` would, without
   * a screen: a route's loader calls it so the request travels while the screen's chunk downloads,
   * and the screen finds the answer (or the request under way) when it mounts. Fresh data is kept.
   */
  function prefetchContract<C extends Contract>(client: QueryClient, contract: Callable<C>, input?: ContractInput<C>): void {
    void client.prefetchQuery(contractRead(contract, input));
  }

  return { useContractQuery, useContractMutation, prefetchContract };
}

/**
 * Marks every query of these contracts out of date (refetched where shown): for pushed events.
 * `which` narrows it to some of their queries (e.g. those whose data is older than a moment).
 */
export function invalidateContracts(client: QueryClient, contracts: readonly Pick<Contract, 'id'>[], which?: (query: Query) => boolean): Promise<void> {
  return Promise.all(contracts.map((each) => client.invalidateQueries({ queryKey: contractKey(each), ...(which ? { predicate: which } : {}) }))).then(
    () => undefined,
  );
}
