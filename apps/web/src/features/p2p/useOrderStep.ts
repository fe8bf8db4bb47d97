import { appealP2pOrderContract, cancelP2pOrderContract, markP2pOrderPaidContract, releaseP2pOrderContract } from '@keel/contracts';
import { useState } from 'react';
import { useActionKey } from '../../shared/api/action-key.ts';
import { api, isSessionError } from '../../shared/api/client.ts';
import type { P2pOrder } from './order-rules.ts';
import { type Refused, refusedOf } from './P2pParts.tsx';

export type OrderStep = { kind: 'markPaid' } | { kind: 'cancel' } | { kind: 'release'; paymentPassword: string } | { kind: 'appeal'; reason: string };

function call(orderId: string, step: OrderStep, idempotencyKey: string): Promise<P2pOrder> {
  const params = { orderId };
  switch (step.kind) {
    case 'markPaid':
      return api(markP2pOrderPaidContract, { params, idempotencyKey });
    case 'cancel':
      return api(cancelP2pOrderContract, { params, idempotencyKey });
    case 'release':
      return api(releaseP2pOrderContract, { params, body: { paymentPassword: step.paymentPassword }, idempotencyKey });
    case 'appeal':
      return api(appealP2pOrderContract, { params, body: { reason: step.reason.trim() }, idempotencyKey });
  }
}

/**
 * The steps of an order (mark paid, cancel, release, appeal), one idempotency key per user action,
 * reused only to retry an uncertain outcome. The answer replaces the order on screen; a refusal is
 * kept for the screen to show, and the order is asked again (it may have moved on meanwhile).
 */
export function useOrderStep({ orderId, onDone, reload }: { orderId: string; onDone: (order: P2pOrder) => void; reload: () => void }) {
  const actionKey = useActionKey();
  const [busy, setBusy] = useState<OrderStep['kind'] | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);

  async function run(step: OrderStep): Promise<boolean> {
    setBusy(step.kind);
    setRefused(null);
    // The same step with the same input after an uncertain outcome is a retry of one action; the
    // order's state machine makes any other repeat harmless (a released order cannot be released again).
    const input = JSON.stringify({ orderId, ...step });
    try {
      const answer = await call(orderId, step, actionKey.keyFor(input));
      actionKey.settle();
      onDone(answer);
      return true;
    } catch (error) {
      actionKey.settle(error);
      if (!isSessionError(error)) {
        setRefused(refusedOf(error));
        reload();
      }
      return false;
    } finally {
      setBusy(null);
    }
  }

  return { run, busy, refused, clearRefused: () => setRefused(null) };
}
