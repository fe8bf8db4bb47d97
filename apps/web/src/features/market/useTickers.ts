import { type ContractData, listTickersContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api/client.ts';
import { loadFailed } from '../../shared/api/queries.ts';
import { type RecordedTick, useTicks } from '../../shared/realtime/realtime.ts';
import { applyTick, type Ticker } from './tickers.ts';

type TickersAnswer = ContractData<typeof listTickersContract>;

export interface TickersState {
  tickers: readonly Ticker[] | null;
  failed: boolean;
  reload: () => void;
}

const tickersKey = contractKey(listTickersContract, {});
/** Ticks pushed before any snapshot was cached: applied on top of the first one (the app holds one list). */
const early: RecordedTick[] = [];
const EARLY_MAX = 500;

/**
 * GET /home/market/tickers, with what was pushed meanwhile kept: a tick that came while the request
 * was on its way may be newer than the snapshot (applyTick ignores it when it is not).
 */
async function fetchTickers(client: QueryClient): Promise<TickersAnswer> {
  const answer = await api(listTickersContract);
  const shown = client.getQueryData<TickersAnswer>(tickersKey)?.items ?? [];
  let items: readonly Ticker[] = answer.items;
  for (const tick of [...early.splice(0), ...shown.map((ticker) => ticker.last)]) items = applyTick(items, tick);
  return { ...answer, items: [...items] };
}

/** A pushed tick written into the cached list: every screen showing prices moves with it. */
function takeTick(client: QueryClient, tick: RecordedTick) {
  const current = client.getQueryData<TickersAnswer>(tickersKey);
  if (!current) {
    if (early.length < EARLY_MAX) early.push(tick);
    return;
  }
  const items = applyTick(current.items, tick);
  if (items !== current.items) client.setQueryData<TickersAnswer>(tickersKey, { ...current, items: [...items] });
}

/**
 * The market list (ADR 0026): one query fetched over HTTP once, then kept live by the ticks pushed
 * on `/ws`, written into the cache (so a price never asks the server again, and the list stays
 * fresh while ticks flow). It is fetched again when the push connection says ticks were missed.
 */
export function useTickers(): TickersState {
  const client = useQueryClient();
  const query = useQuery({ queryKey: tickersKey, queryFn: () => fetchTickers(client) });
  useTicks(
    (tick) => takeTick(client, tick),
    () => void client.invalidateQueries({ queryKey: tickersKey }),
  );
  return { tickers: query.data?.items ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}
