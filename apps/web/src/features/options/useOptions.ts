import { type ContractData, getOptionsOverviewAddress, type listOptionOrdersContract, listOptionOrdersAddress, type OptionOrder, type OptionsOverview } from '@keel/contracts';
import { contractKey, invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { estimateSkewMs } from './options-logic.ts';
import { historyInput, openOrdersInput } from './option-queries.ts';

export { HISTORY_PAGE_SIZE } from './option-queries.ts';

type OrderPage = ContractData<typeof listOptionOrdersContract>;

/** While the push connection is down, an open order's screen asks again this often. */
export const OPTIONS_FALLBACK_POLL_MS = 30_000;

/**
 * The server clock against this device's, estimated from the last order this device placed (its
 * `placedAtMs` was made while the request was on its way); 0 (the device clock) until then.
 */
let skewEstimateMs: number | null = null;
export const serverClock = {
  skewMs: (): number => skewEstimateMs ?? 0,
  note(serverMs: number, sentAtLocalMs: number, receivedAtLocalMs: number) {
    // A slow answer says little about the clock: keep the estimate from the fastest one.
    if (receivedAtLocalMs - sentAtLocalMs > 5_000 && skewEstimateMs !== null) return;
    skewEstimateMs = estimateSkewMs(serverMs, sentAtLocalMs, receivedAtLocalMs);
  },
};

export interface OptionsData {
  overview: OptionsOverview | null;
  overviewFailed: boolean;
  open: OrderPage | null;
  history: OrderPage | null;
  historyPage: number;
  setHistoryPage: (page: number) => void;
  failed: boolean;
  /** Asks the server again for everything shown (a retry after a failed load). */
  refresh: () => void;
  reloadOverview: () => void;
  /** Shows a just-placed order at once, before the refetch answers. */
  addOpen: (order: OptionOrder) => void;
}

const openKey = contractKey(listOptionOrdersAddress, openOrdersInput);

/**
 * Everything the trade screen shows from the options API, as queries (ADR 0026): the overview
 * (products, rule, disclosure, balance), the open orders and a page of the history. The
 * `options.order` push event invalidates them (shared/realtime/cache-sync.ts), as does placing an
 * order; while an order is open and the push connection is down they are polled every 30 s.
 */
export function useOptions(): OptionsData {
  const client = useQueryClient();
  const [historyPage, setHistoryPage] = useState(1);
  const fallback = useFallbackPolling(OPTIONS_FALLBACK_POLL_MS);
  // Settlement is what changes the screen on its own: only an open order makes polling worth it.
  const anyOpen = (client.getQueryData<OrderPage>(openKey)?.items.length ?? 0) > 0;
  const refetchInterval = anyOpen ? fallback : false;
  const overview = useContractQuery(getOptionsOverviewAddress, undefined, { refetchInterval });
  const open = useContractQuery(listOptionOrdersAddress, openOrdersInput, { refetchInterval });
  const history = useContractQuery(
    listOptionOrdersAddress,
    historyInput(historyPage),
    { keepPrevious: true, refetchInterval },
  );

  const refresh = useCallback(() => void invalidateContracts(client, [getOptionsOverviewAddress, listOptionOrdersAddress]), [client]);
  const reloadOverview = useCallback(() => void invalidateContracts(client, [getOptionsOverviewAddress]), [client]);
  const addOpen = useCallback(
    (order: OptionOrder) =>
      client.setQueryData<OrderPage>(openKey, (page) => {
        if (!page || page.items.some((item) => item.id === order.id)) return page;
        const items = [...page.items, order].sort((a, b) => a.expiresAtMs - b.expiresAtMs);
        return { ...page, items, total: page.total + 1 };
      }),
    [client],
  );

  return {
    overview: overview.data ?? null,
    overviewFailed: loadFailed(overview),
    open: open.data ?? null,
    history: history.data ?? null,
    historyPage,
    setHistoryPage,
    failed: loadFailed(open) || loadFailed(history),
    refresh,
    reloadOverview,
    addOpen,
  };
}
