import { ApiError, errorCatalogue, getP2pOrderContract } from '@keel/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useUserEvents } from '../../shared/realtime/realtime.ts';
import { isOrderInProgress, ORDER_FALLBACK_POLL_MS, type P2pOrder } from './order-rules.ts';

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/** Runs `tick` every `intervalMs` while `active` and the page is visible (a hidden tab asks nothing). */
export function useInterval(tick: () => void, intervalMs: number, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (!isHidden()) tick();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [tick, intervalMs, active]);
}

/**
 * Wraps `run` so that it runs at once while the page is visible, and in a hidden tab once the tab
 * is shown again (a hidden tab asks nothing, and reading a chat marks the other side's messages
 * read). Several calls while hidden make one run.
 */
export function useWhenVisible(run: () => void): () => void {
  const latest = useRef(run);
  latest.current = run;
  const pending = useRef(false);
  useEffect(() => {
    const onVisibility = () => {
      if (!pending.current || isHidden()) return;
      pending.current = false;
      latest.current();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
  return useCallback(() => {
    if (isHidden()) pending.current = true;
    else latest.current();
  }, []);
}

/**
 * One P2P order (GET /home/p2p/orders/:id), "not yours / no such" told apart from a failed load.
 * It is asked again at each `p2p.order` push event for it and after the push connection
 * (re)authenticates, so the other side's step (paid, released, an appeal) shows without a reload;
 * while the order is in progress a slow poll covers a dropped connection.
 */
export function useOrder(id: string) {
  const [order, setOrder] = useState<P2pOrder | null>(null);
  const [problem, setProblem] = useState<'notFound' | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void attempt;
    api(getP2pOrderContract, { params: { orderId: id } })
      .then((answer) => {
        if (!current) return;
        setOrder(answer);
        setProblem(null);
      })
      .catch((error: unknown) => {
        if (!current || isSessionError(error)) return;
        setProblem(error instanceof ApiError && error.message === errorCatalogue.RECORD_NOT_FOUND.msg ? 'notFound' : 'failed');
      });
    return () => {
      current = false;
    };
  }, [id, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  const refresh = useWhenVisible(reload);
  useUserEvents((event) => event.kind === 'p2p.order' && event.orderId === id, refresh, refresh);
  useInterval(reload, ORDER_FALLBACK_POLL_MS, order !== null && isOrderInProgress(order.status));
  return { order, problem, reload, replace: setOrder };
}
