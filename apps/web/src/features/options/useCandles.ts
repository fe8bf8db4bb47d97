import { listCandlesContract } from '@keel/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { realtime } from '../../shared/realtime/realtime.ts';
import { type Candle, CHART_CANDLES, type CandleInterval, mergeCandle } from './candles.ts';

export interface CandlesState {
  /** Oldest first; null while the first load is on its way. */
  candles: readonly Candle[] | null;
  failed: boolean;
  reload: () => void;
}

/**
 * The candles of one market and interval: fetched over HTTP (GET /home/market/candles), then kept
 * live by the push channel `candles:<symbol>:<interval>`. Candles pushed before the snapshot
 * arrives are folded in on top of it; the channel's resync (missed frames cannot be replayed for
 * candles) fetches again.
 */
export function useCandles(symbol: string, interval: CandleInterval): CandlesState {
  const [candles, setCandles] = useState<readonly Candle[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const early = useRef<Candle[]>([]);
  const loaded = useRef(false);

  // A new market or interval starts empty (no bars of the previous one drawn as this one's).
  // biome-ignore lint/correctness/useExhaustiveDependencies: symbol and interval are the reason to start over
  useEffect(() => {
    setCandles(null);
    setFailed(false);
    loaded.current = false;
    early.current = [];
  }, [symbol, interval]);

  useEffect(() => {
    let current = true;
    void attempt;
    api(listCandlesContract, { query: { symbol, interval, limit: CHART_CANDLES } })
      .then((answer) => {
        if (!current) return;
        const pushed = early.current;
        early.current = [];
        loaded.current = true;
        let next: readonly Candle[] = answer.items;
        for (const candle of pushed) next = mergeCandle(next, candle);
        setCandles(next);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [symbol, interval, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);

  useEffect(
    () =>
      realtime().subscribe(`candles:${symbol}:${interval}`, {
        onFrame: (frame) => {
          if (frame.type !== 'candle' || frame.symbol !== symbol || frame.interval !== interval) return;
          if (!loaded.current) {
            if (early.current.length < 50) early.current.push(frame.candle);
            return;
          }
          setCandles((list) => (list === null ? list : mergeCandle(list, frame.candle)));
        },
        onResync: reload,
      }),
    [symbol, interval, reload],
  );

  return { candles, failed, reload };
}
