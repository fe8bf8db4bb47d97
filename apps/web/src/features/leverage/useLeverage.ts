import {
  type ContractData,
  getLeverageOverviewContract,
  type LeverageOverview,
  type LeveragePosition,
  listLimitOrdersContract,
  listPositionsContract,
} from '@keel/contracts';
import { contractKey, invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { openPositionsInput, pastOrdersInput, pendingOrdersInput, positionHistoryInput } from './leverage-inputs.ts';
import type { LeverageProduct } from './leverage-logic.ts';
import { newestServerMarks, type ShownMark } from './mark-prices.ts';
import { useLiveMarks } from './useLiveMarks.ts';

export type PositionPage = ContractData<typeof listPositionsContract>;
export type OrderPage = ContractData<typeof listLimitOrdersContract>;

/** While the push connection is down and a position is open, the screen asks again this often. */
export const LEVERAGE_FALLBACK_POLL_MS = 15_000;

export interface LeverageData {
  product: LeverageProduct;
  overview: LeverageOverview | null;
  overviewFailed: boolean;
  open: PositionPage | null;
  history: PositionPage | null;
  /** Limit orders waiting for their price, and the latest filled or cancelled ones. */
  pendingOrders: OrderPage | null;
  pastOrders: OrderPage | null;
  historyPage: number;
  setHistoryPage: (page: number) => void;
  failed: boolean;
  /** The live mark price of a market shown (the screen's market and every open position's). */
  markOf: (symbol: string) => ShownMark | null;
  /** Asks the server again for everything shown (a retry after a failed load). */
  refresh: () => void;
  reloadOverview: () => void;
  /** Shows a just-opened position at once, before the refetch answers. */
  addOpen: (position: LeveragePosition) => void;
}

/**
 * Everything a leverage screen shows from the API, as queries (ADR 0026): the overview (products,
 * brackets, rules, marks, disclosure, identity, balance), the product's open positions and a page
 * of its history. The `leverage.position` push event invalidates them (shared/realtime/cache-sync.ts),
 * as does every change the screen makes; while a position is open and the push connection is down
 * they are polled. Mark prices are live (useLiveMarks) for `symbol` and every open position's market.
 */
export function useLeverage(product: LeverageProduct, symbol: string | null): LeverageData {
  const client = useQueryClient();
  const [historyPage, setHistoryPage] = useState(1);
  const fallback = useFallbackPolling(LEVERAGE_FALLBACK_POLL_MS);
  const openInput = openPositionsInput(product);
  const openKey = contractKey(listPositionsContract, openInput);
  const pendingKey = contractKey(listLimitOrdersContract, pendingOrdersInput(product));
  // Triggers, liquidation and fills change the screen on their own: only an open position or a
  // waiting order makes polling worth it.
  const anyOpen =
    (client.getQueryData<PositionPage>(openKey)?.items.length ?? 0) > 0 || (client.getQueryData<OrderPage>(pendingKey)?.items.length ?? 0) > 0;
  const refetchInterval = anyOpen ? fallback : false;
  const overview = useContractQuery(getLeverageOverviewContract, undefined, { refetchInterval });
  const open = useContractQuery(listPositionsContract, openInput, { refetchInterval });
  const history = useContractQuery(listPositionsContract, positionHistoryInput(product, historyPage), { keepPrevious: true, refetchInterval });
  const pendingOrders = useContractQuery(listLimitOrdersContract, pendingOrdersInput(product), { refetchInterval });
  const pastOrders = useContractQuery(listLimitOrdersContract, pastOrdersInput(product), { refetchInterval });

  const refetchOverview = overview.refetch;
  const refreshMarks = useCallback(() => void refetchOverview({ cancelRefetch: false }), [refetchOverview]);
  const openItems = open.data?.items;
  const wanted = useMemo(() => {
    const symbols = new Set<string>(symbol ? [symbol] : []);
    for (const position of openItems ?? []) symbols.add(position.symbol);
    return [...symbols].sort();
  }, [symbol, openItems]);
  const overviewMarks = overview.data?.marks;
  const openMarks = open.data?.marks;
  const serverMarks = useMemo(() => newestServerMarks(overviewMarks, openMarks), [overviewMarks, openMarks]);
  const marks = useLiveMarks(wanted, serverMarks, refreshMarks);
  const markOf = useCallback((wantedSymbol: string) => marks.get(wantedSymbol) ?? null, [marks]);

  const refresh = useCallback(() => void invalidateContracts(client, [getLeverageOverviewContract, listPositionsContract, listLimitOrdersContract]), [client]);
  const reloadOverview = useCallback(() => void invalidateContracts(client, [getLeverageOverviewContract]), [client]);
  const addOpen = useCallback(
    (position: LeveragePosition) =>
      client.setQueryData<PositionPage>(contractKey(listPositionsContract, openPositionsInput(product)), (page) => {
        if (!page || page.items.some((item) => item.id === position.id)) return page;
        return { ...page, items: [position, ...page.items], total: page.total + 1 };
      }),
    [client, product],
  );

  return {
    product,
    overview: overview.data ?? null,
    overviewFailed: loadFailed(overview),
    open: open.data ?? null,
    history: history.data ?? null,
    pendingOrders: pendingOrders.data ?? null,
    pastOrders: pastOrders.data ?? null,
    historyPage,
    setHistoryPage,
    failed: loadFailed(open) || loadFailed(history) || loadFailed(pendingOrders) || loadFailed(pastOrders),
    markOf,
    refresh,
    reloadOverview,
    addOpen,
  };
}
