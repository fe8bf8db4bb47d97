import {
  appealP2pOrderContract,
  cancelP2pOrderContract,
  getP2pOrderContract,
  listAccountsContract,
  listP2pAdsContract,
  listP2pOrdersContract,
  listRecordsContract,
  markP2pOrderPaidContract,
  releaseP2pOrderContract,
} from '@keel/contracts';
import { useState } from 'react';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import type { P2pOrder } from './order-rules.ts';
import { type Refused, refusedOf } from './P2pParts.tsx';

export type OrderStep = { kind: 'markPaid' } | { kind: 'cancel' } | { kind: 'release'; paymentPassword: string } | { kind: 'appeal'; reason: string };

/** What a step of an order changes: the order and the lists it is in, the ad it came from, and (release, cancel) balances and records. */
const changedByAStep = [getP2pOrderContract, listP2pOrdersContract, listP2pAdsContract, listAccountsContract, listRecordsContract];

/**
 * The steps of an order (mark paid, cancel, release, appeal) as mutations, one idempotency key per
 * user action, reused only to retry an uncertain outcome. The answer replaces the order on screen
 * and what the step changed is invalidated; a refusal is kept for the screen to show, and the order
 * is asked again (it may have moved on meanwhile).
 */
export function useOrderStep({ orderId, onDone, reload }: { orderId: string; onDone: (order: P2pOrder) => void; reload: () => void }) {
  const actionKey = useActionKey();
  const options = { invalidates: changedByAStep };
  const markPaid = useContractMutation(markP2pOrderPaidContract, options);
  const cancel = useContractMutation(cancelP2pOrderContract, options);
  const release = useContractMutation(releaseP2pOrderContract, options);
  const appeal = useContractMutation(appealP2pOrderContract, options);
  const [busy, setBusy] = useState<OrderStep['kind'] | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);

  function call(step: OrderStep, idempotencyKey: string): Promise<P2pOrder> {
    const params = { orderId };
    switch (step.kind) {
      case 'markPaid':
        return markPaid.mutateAsync({ params, idempotencyKey });
      case 'cancel':
        return cancel.mutateAsync({ params, idempotencyKey });
      case 'release':
        return release.mutateAsync({ params, body: { paymentPassword: step.paymentPassword }, idempotencyKey });
      case 'appeal':
        return appeal.mutateAsync({ params, body: { reason: step.reason.trim() }, idempotencyKey });
    }
  }

  async function run(step: OrderStep): Promise<boolean> {
    setBusy(step.kind);
    setRefused(null);
    // The same step with the same input after an uncertain outcome is a retry of one action; the
    // order's state machine makes any other repeat harmless (a released order cannot be released again).
    const input = JSON.stringify({ orderId, ...step });
    try {
      const answer = await call(step, actionKey.keyFor(input));
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
