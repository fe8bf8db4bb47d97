import { type ContractData, getWatchlistContract, setWatchlistContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';

type Watchlist = ContractData<typeof getWatchlistContract>;

export interface WatchlistState {
  symbols: readonly string[] | null;
  failed: boolean;
  /** Set when the last change could not be saved (the list shows the saved state again). */
  saveFailed: boolean;
  toggle: (symbol: string) => void;
}

const watchlistKey = contractKey(getWatchlistContract, {});

/**
 * The user's watchlist (GET/PUT /home/market/watchlist), optimistic: a star changes the cached list
 * at once and the whole list is then saved; saves run one after another so the server ends with the
 * last state the user saw, and a failed save puts the saved list back.
 */
export function useWatchlist(): WatchlistState {
  const client = useQueryClient();
  const query = useContractQuery(getWatchlistContract);
  const save = useContractMutation(setWatchlistContract);
  const [saveFailed, setSaveFailed] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  /** The list of the newest toggle, and the last one the server holds. */
  const latest = useRef<readonly string[] | null>(null);
  const saved = useRef<readonly string[]>([]);
  const saveAsync = save.mutateAsync;

  const toggle = useCallback(
    (symbol: string) => {
      const before = client.getQueryData<Watchlist>(watchlistKey)?.symbols;
      if (before === undefined) return;
      // With no save under way, what is shown is what the server holds (a refetch may have brought it).
      if (pending.current === 0) saved.current = before;
      const next = before.includes(symbol) ? before.filter((each) => each !== symbol) : [...before, symbol];
      latest.current = next;
      // A refetch on its way must not put the old list back over the change.
      void client.cancelQueries({ queryKey: watchlistKey });
      client.setQueryData<Watchlist>(watchlistKey, { symbols: next });
      setSaveFailed(false);
      pending.current += 1;
      queue.current = queue.current.then(async () => {
        try {
          // Only the newest state needs saving; a later toggle queued its own save.
          if (latest.current !== next) return;
          const answer = await saveAsync({ body: { symbols: next } });
          saved.current = answer.symbols;
        } catch (error) {
          if (latest.current !== next) return;
          client.setQueryData<Watchlist>(watchlistKey, { symbols: [...saved.current] });
          if (!isSessionError(error)) setSaveFailed(true);
        } finally {
          pending.current -= 1;
        }
      });
    },
    [client, saveAsync],
  );

  return { symbols: query.data?.symbols ?? null, failed: loadFailed(query), saveFailed, toggle };
}
