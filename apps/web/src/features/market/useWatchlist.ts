import { getWatchlistContract, setWatchlistContract } from '@keel/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';

export interface WatchlistState {
  symbols: readonly string[] | null;
  failed: boolean;
  /** Set when the last change could not be saved (the list shows the saved state again). */
  saveFailed: boolean;
  toggle: (symbol: string) => void;
}

/**
 * The user's watchlist (GET/PUT /home/market/watchlist). A star changes the list at once and the
 * whole list is then saved; saves run one after another so the server ends with the last state the
 * user saw, and a failed save puts the saved list back.
 */
export function useWatchlist(): WatchlistState {
  const [symbols, setSymbols] = useState<readonly string[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const saved = useRef<readonly string[]>([]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const latest = useRef<readonly string[] | null>(null);

  useEffect(() => {
    let current = true;
    api(getWatchlistContract)
      .then((answer) => {
        if (!current) return;
        saved.current = answer.symbols;
        latest.current = answer.symbols;
        setSymbols(answer.symbols);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, []);

  const toggle = useCallback((symbol: string) => {
    const before = latest.current;
    if (before === null) return;
    const next = before.includes(symbol) ? before.filter((each) => each !== symbol) : [...before, symbol];
    latest.current = next;
    setSymbols(next);
    setSaveFailed(false);
    queue.current = queue.current.then(async () => {
      // Only the newest state needs saving; a later toggle queued its own save.
      if (latest.current !== next) return;
      try {
        const answer = await api(setWatchlistContract, { body: { symbols: [...next] } });
        saved.current = answer.symbols;
      } catch (error) {
        if (latest.current !== next) return;
        latest.current = saved.current;
        setSymbols(saved.current);
        if (!isSessionError(error)) setSaveFailed(true);
      }
    });
  }, []);

  return { symbols, failed, saveFailed, toggle };
}
