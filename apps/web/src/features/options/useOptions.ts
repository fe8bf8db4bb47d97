import { type ContractData, getOptionsOverviewContract, listOptionOrdersContract, type OptionOrder, type OptionsOverview } from '@keel/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useUserEvents } from '../../shared/realtime/realtime.ts';
import { useInterval, useWhenVisible } from '../p2p/useOrder.ts';
import { estimateSkewMs } from './options-logic.ts';

type OrderPage = ContractData<typeof listOptionOrdersContract>;

/** A dropped push connection is covered by asking again this often while orders are open. */
export const OPTIONS_FALLBACK_POLL_MS = 30_000;
/** History rows per page. */
export const HISTORY_PAGE_SIZE = 10;

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

/** One loader: its answer, whether the last try failed, and a reload. */
function useLoad<T>(load: () => Promise<T>, key: string) {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let current = true;
    void attempt;
    void key;
    latest
      .current()
      .then((answer) => {
        if (!current) return;
        setData(answer);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [attempt, key]);
  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { data, failed, reload, replace: setData };
}

export interface OptionsData {
  overview: OptionsOverview | null;
  overviewFailed: boolean;
  open: OrderPage | null;
  history: OrderPage | null;
  historyPage: number;
  setHistoryPage: (page: number) => void;
  failed: boolean;
  /** Asks the server again for everything shown (after an order, an event, a retry). */
  refresh: () => void;
  reloadOverview: () => void;
  /** Shows a just-placed order at once, before the refetch answers. */
  addOpen: (order: OptionOrder) => void;
}

/**
 * Everything the trade screen shows from the options API: the overview (products, rule,
 * disclosure, balance), the open orders and a page of the history. All of it is asked again at
 * each `options.order` push event and after the push connection (re)authenticates (events missed
 * meanwhile are not replayed), and, as a fallback for a dropped connection, every 30 s while an
 * order is open.
 */
export function useOptions(): OptionsData {
  const [historyPage, setHistoryPage] = useState(1);
  const overview = useLoad(() => api(getOptionsOverviewContract), 'overview');
  const open = useLoad(() => api(listOptionOrdersContract, { query: { scope: 'open', page: 1, pageSize: 100 } }), 'open');
  const history = useLoad(
    () => api(listOptionOrdersContract, { query: { scope: 'history', page: historyPage, pageSize: HISTORY_PAGE_SIZE } }),
    `history:${historyPage}`,
  );

  const reloadOverview = overview.reload;
  const reloadOpen = open.reload;
  const reloadHistory = history.reload;
  const refresh = useCallback(() => {
    reloadOverview();
    reloadOpen();
    reloadHistory();
  }, [reloadOverview, reloadOpen, reloadHistory]);

  const whenVisible = useWhenVisible(refresh);
  useUserEvents((event) => event.kind === 'options.order', whenVisible, whenVisible);
  useInterval(refresh, OPTIONS_FALLBACK_POLL_MS, (open.data?.items.length ?? 0) > 0);

  const replaceOpen = open.replace;
  const addOpen = useCallback(
    (order: OptionOrder) =>
      replaceOpen((page) => {
        if (!page) return page;
        if (page.items.some((item) => item.id === order.id)) return page;
        const items = [...page.items, order].sort((a, b) => a.expiresAtMs - b.expiresAtMs);
        return { ...page, items, total: page.total + 1 };
      }),
    [replaceOpen],
  );

  return {
    overview: overview.data,
    overviewFailed: overview.failed,
    open: open.data,
    history: history.data,
    historyPage,
    setHistoryPage,
    failed: open.failed || history.failed,
    refresh,
    reloadOverview,
    addOpen,
  };
}
