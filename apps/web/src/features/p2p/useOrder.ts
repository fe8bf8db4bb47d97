import { ApiError, errorCatalogue, getP2pOrderContract } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { isOrderInProgress, ORDER_POLL_MS, type P2pOrder } from './order-rules.ts';

/** Runs `tick` every `intervalMs` while `active` and the page is visible (a hidden tab asks nothing). */
export function useInterval(tick: () => void, intervalMs: number, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (typeof document === 'undefined' || document.visibilityState !== 'hidden') tick();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [tick, intervalMs, active]);
}

/**
 * One P2P order (GET /home/p2p/orders/:id), "not yours / no such" told apart from a failed load.
 * While the order is in progress it is asked again every few seconds, so the other side's step
 * (paid, released, an appeal) shows without a reload.
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
  useInterval(reload, ORDER_POLL_MS, order !== null && isOrderInProgress(order.status));
  return { order, problem, reload, replace: setOrder };
}
