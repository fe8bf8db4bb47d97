import { getOptionsOverviewContract, listOptionOrdersContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { historyInput, openOrdersInput, prefetchTradeScreen } from './option-queries.ts';

// The query module reads the device's session and listens for its changes when it loads; Node
// has neither localStorage nor window. The API client takes `fetch` when it is made, so the
// requests go through one that records them and never answers.
const requested = vi.hoisted(() => {
  const urls: string[] = [];
  const stored = new Map<string, string>([['token', 'a-session-token']]);
  Object.assign(globalThis, {
    localStorage: { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value), removeItem: (key: string) => stored.delete(key) },
    window: { addEventListener: () => {}, removeEventListener: () => {}, location: { origin: 'http://keel.test', pathname: '/trade', search: '' } },
    fetch: (url: string) => {
      urls.push(String(url));
      return new Promise(() => {});
    },
  });
  return urls;
});

describe('prefetchTradeScreen: the trade route loader starts the screen reads under the keys the screen uses', () => {
  beforeEach(() => {
    requested.length = 0;
  });

  it('asks for the overview, the open orders and the first history page, once each', async () => {
    const client = new QueryClient();
    prefetchTradeScreen(client);
    // useOptions reads these three keys (useContractQuery keys an absent input as {}).
    for (const key of [
      contractKey(getOptionsOverviewContract, {}),
      contractKey(listOptionOrdersContract, openOrdersInput),
      contractKey(listOptionOrdersContract, historyInput(1)),
    ]) {
      expect(client.getQueryCache().find({ queryKey: key, exact: true })?.state.fetchStatus).toBe('fetching');
    }
    await vi.waitFor(() => expect(requested).toHaveLength(3));
    expect(requested.some((url) => url.includes('/home/options/overview'))).toBe(true);
    expect(requested.filter((url) => url.includes('scope=open')).length).toBe(1);
    expect(requested.filter((url) => url.includes('scope=history')).length).toBe(1);

    // A second entry while the requests are under way sends nothing more.
    prefetchTradeScreen(client);
    await new Promise((done) => setTimeout(done, 10));
    expect(requested).toHaveLength(3);
  });

  it('fresh answers in the cache are kept: nothing is asked again', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 5_000 } } });
    client.setQueryData(contractKey(getOptionsOverviewContract, {}), { products: [] });
    client.setQueryData(contractKey(listOptionOrdersContract, openOrdersInput), { items: [], total: 0 });
    client.setQueryData(contractKey(listOptionOrdersContract, historyInput(1)), { items: [], total: 0 });
    prefetchTradeScreen(client);
    await new Promise((done) => setTimeout(done, 10));
    expect(requested).toEqual([]);
  });
});
