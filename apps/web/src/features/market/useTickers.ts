import { type ContractData, type listTickersContract, listTickersAddress } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api/client.ts';
import { loadFailed } from '../../shared/api/queries.ts';
import { type RecordedTick, realtime, useTicks } from '../../shared/realtime/realtime.ts';
import { applyTick, type Ticker } from './tickers.ts';

type TickersAnswer = ContractData<typeof listTickersContract>;

export interface TickersState {
  tickers: readonly Ticker[] | null;
  failed: boolean;
  reload: () => void;
}

export const tickersKey = contractKey(listTickersAddress, {});
/** Ticks pushed before any snapshot was cached: applied on top of the first one (the app holds one list). */
const early: RecordedTick[] = [];
const EARLY_MAX = 500;

/**
 * GET /home/market/tickers, with what was pushed meanwhile kept: a tick that came while the request
 * was on its way may be newer than the snapshot (applyTick ignores it when it is not).
 */
async function fetchTickers(client: QueryClient): Promise<TickersAnswer> {
  const answer = await api(listTickersAddress);
  // The push connection, if it has not subscribed yet, asks for the ticks recorded after this list.
  const newest = answer.items.reduce<bigint | null>((max, ticker) => {
    const id = BigInt(ticker.last.tickId);
    return max === null || id > max ? id : max;
  }, null);
  if (newest !== null) realtime().noteTickSnapshot(newest.toString());
  const shown = client.getQueryData<TickersAnswer>(tickersKey)?.items ?? [];
  let items: readonly Ticker[] = answer.items;
  for (const tick of [...early.splice(0), ...shown.map((ticker) => ticker.last)]) items = applyTick(items, tick);
  return { ...answer, items: [...items] };
}

/** Ticks received since the cache was last written, the newest per market. */
const pending = new Map<string, RecordedTick>();
let flushScheduled = false;

/**
 * Markets whose ticks came while the list did not show them, each asked about once. The list holds
 * the markets that had a recorded tick when it was fetched (a market's first tick may come later:
 * a server just started, a market just added); its row, in its place and with its 24 h figures,
 * comes from the server, so such a tick refetches the list. Once per market: a tick of a market
 * the server does not list never makes the page ask again and again.
 */
const askedAbout = new Set<string>();

/** Every market's newest pending tick written into the cached list in one update. */
function writePending(client: QueryClient) {
  flushScheduled = false;
  const ticks = [...pending.values()];
  pending.clear();
  const current = client.getQueryData<TickersAnswer>(tickersKey);
  if (!current) {
    early.push(...ticks.slice(0, Math.max(0, EARLY_MAX - early.length)));
    return;
  }
  let items: readonly Ticker[] = current.items;
  for (const tick of ticks) items = applyTick(items, tick);
  if (items !== current.items) client.setQueryData<TickersAnswer>(tickersKey, { ...current, items: [...items] });
  const unlisted = ticks.filter((tick) => !askedAbout.has(tick.symbol) && !current.items.some((ticker) => ticker.symbol === tick.symbol));
  if (unlisted.length > 0) {
    for (const tick of unlisted) askedAbout.add(tick.symbol);
    void client.invalidateQueries({ queryKey: tickersKey });
  }
}

/**
 * A pushed tick, written into the cached list at the next frame: the feed sends every market's
 * tick at once, and one cache write (one render of every price on screen) per frame does for all
 * of them what one per tick did six times over. A hidden tab paints no frames and writes nothing
 * until it is shown; only the newest tick per market waits, and applyTick ignores older ones.
 */
export function queueTick(client: QueryClient, tick: RecordedTick) {
  const waiting = pending.get(tick.symbol);
  if (!waiting || BigInt(tick.tickId) > BigInt(waiting.tickId)) pending.set(tick.symbol, tick);
  if (flushScheduled) return;
  flushScheduled = true;
  requestAnimationFrame(() => writePending(client));
}

/**
 * The market list (ADR 0026): one query fetched over HTTP once, then kept live by the ticks pushed
 * on `/ws`, written into the cache (so a price never asks the server again, and the list stays
 * fresh while ticks flow). It is fetched again when the push connection says ticks were missed,
 * and when a market missing from it sends its first tick.
 */
export function useTickers(): TickersState {
  const client = useQueryClient();
  const query = useQuery({ queryKey: tickersKey, queryFn: () => fetchTickers(client) });
  useTicks(
    (tick) => queueTick(client, tick),
    () => void client.invalidateQueries({ queryKey: tickersKey }),
  );
  return { tickers: query.data?.items ?? null, failed: loadFailed(query), reload: () => void query.refetch() };
}
