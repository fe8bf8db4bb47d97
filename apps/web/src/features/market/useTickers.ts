import { listTickersContract } from '@keel/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useTicks } from '../../shared/realtime/realtime.ts';
import { applyTick, type Ticker } from './tickers.ts';

export interface TickersState {
  tickers: readonly Ticker[] | null;
  failed: boolean;
  reload: () => void;
}

/**
 * The market list: fetched over HTTP, then kept live by the pushed ticks. It is fetched again when
 * the push connection says ticks were missed (see shared/realtime).
 */
export function useTickers(): TickersState {
  const [tickers, setTickers] = useState<readonly Ticker[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // Ticks that arrive before the first snapshot are kept and applied on top of it.
  const early = useRef<Parameters<typeof applyTick>[1][]>([]);
  const loaded = useRef(false);

  useEffect(() => {
    let current = true;
    void attempt;
    api(listTickersContract)
      .then((answer) => {
        if (!current) return;
        const pushed = early.current;
        early.current = [];
        loaded.current = true;
        // A tick pushed while the request was on its way may be newer than the snapshot: keep it.
        setTickers((previous) => {
          let next: readonly Ticker[] = answer.items;
          for (const tick of [...pushed, ...(previous ?? []).map((ticker) => ticker.last)]) next = applyTick(next, tick);
          return next;
        });
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);

  useTicks((tick) => {
    if (!loaded.current) {
      if (early.current.length < 500) early.current.push(tick);
      return;
    }
    setTickers((currentTickers) => (currentTickers === null ? currentTickers : applyTick(currentTickers, tick)));
  }, reload);

  return { tickers, failed, reload };
}
