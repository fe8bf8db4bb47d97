import { type ContractData, listCandlesAddress, type listCandlesContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../shared/api/client.ts';
import { loadFailed } from '../../shared/api/queries.ts';
import { realtime } from '../../shared/realtime/realtime.ts';
import { type Candle, CHART_CANDLES, type CandleInterval, mergeCandle } from './candles.ts';

type CandlesAnswer = ContractData<typeof listCandlesContract>;

export interface CandlesState {
  /** Oldest first; null while the first load is on its way. */
  candles: readonly Candle[] | null;
  failed: boolean;
  reload: () => void;
}

/**
 * The candles of one market and interval (ADR 0026): a query (GET /home/market/candles, keyed by
 * symbol and interval, so another market or interval never draws this one's bars), kept live by the
 * push channel `candles:<symbol>:<interval>`, whose frames are written into the cache. Candles
 * pushed before the snapshot arrives are folded in on top of it; the channel's resync (missed
 * frames cannot be replayed for candles) fetches again. Not `enabled`: nothing is read yet (the
 * chart asks once it is about to load).
 */
export function useCandles(symbol: string, interval: CandleInterval, enabled = true): CandlesState {
  const client = useQueryClient();
  const input = { query: { symbol, interval, limit: CHART_CANDLES } };
  const key = contractKey(listCandlesAddress, input);
  const early = useRef<Candle[]>([]);

  const query = useQuery({
    queryKey: key,
    queryFn: async (): Promise<CandlesAnswer> => {
      const answer = await api(listCandlesAddress, input);
      let items: readonly Candle[] = answer.items;
      for (const candle of early.current.splice(0)) items = mergeCandle(items, candle);
      return { ...answer, items: [...items] };
    },
    enabled,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is made of symbol and interval
  useEffect(() => {
    early.current = [];
    return realtime().subscribe(`candles:${symbol}:${interval}`, {
      onFrame: (frame) => {
        if (frame.type !== 'candle' || frame.symbol !== symbol || frame.interval !== interval) return;
        const current = client.getQueryData<CandlesAnswer>(key);
        if (!current) {
          if (early.current.length < 50) early.current.push(frame.candle);
          return;
        }
        const items = mergeCandle(current.items, frame.candle);
        if (items !== current.items) client.setQueryData<CandlesAnswer>(key, { ...current, items: [...items] });
      },
      onResync: () => void client.invalidateQueries({ queryKey: key }),
    });
  }, [client, symbol, interval]);

  return { candles: query.data?.items ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}
