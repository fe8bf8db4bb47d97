import {
  ApiError,
  appealC2cRequestContract,
  cancelC2cRequestContract,
  confirmC2cReceivedContract,
  errorCatalogue,
  errorKeyFromMsg,
  getC2cOptionsContract,
  getC2cRequestContract,
  listAccountsContract,
  listC2cRequestsContract,
  listRecordsContract,
  markC2cPaidContract,
  walletOverviewContract,
} from '@keel/contracts';
import type { C2cKind } from '@keel/domain';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { type Refused, refusedBy } from '../wallet/WalletParts.tsx';
import { type C2cRequest, isOpen } from './c2c-figures.ts';

/**
 * A C2C refusal of a new order (an unfinished one, no merchant, a changed price) is a definite
 * answer — nothing was written — though its status is 409: the next press is a new action with a
 * new idempotency key, not a retry of this one.
 */
const DEFINITE: readonly string[] = ['C2C_ORDER_UNFINISHED', 'C2C_NO_MERCHANT', 'C2C_PRICE_CHANGED'];
export const settledError = (error: unknown) => (error instanceof ApiError && DEFINITE.includes(errorKeyFromMsg(error.message) ?? '') ? undefined : error);

/**
 * How often an open C2C order is asked for while its page is shown (TanStack Query stops while the
 * tab is hidden). The merchant's steps (an offer taken, accepted, paid, confirmed) and the C2C job's
 * (an offer lapsed, a deadline met) are not all pushed to the user, so the page polls.
 */
export const C2C_POLL_MS = 3_000;

/** Prices move as merchants go online and change their terms: the channel's options are asked again this often while shown. */
export const C2C_OPTIONS_POLL_MS = 30_000;

/** GET c2c.options: the countries with their best price and limits for `kind`, the published windows, the user's unfinished order. */
export function useC2cOptions(kind: C2cKind) {
  return useContractQuery(getC2cOptionsContract, { query: { kind } }, { refetchInterval: C2C_OPTIONS_POLL_MS });
}

const requestInput = (requestId: string) => ({ params: { requestId } });

/**
 * One of the user's C2C orders as a query, polled every `C2C_POLL_MS` while it is open, "not yours
 * / no such" told apart from a failed load; `replace` puts a step's answer in place.
 */
export function useC2cRequest(id: string) {
  const client = useQueryClient();
  const input = requestInput(id);
  const cached = client.getQueryData<C2cRequest>(contractKey(getC2cRequestContract, input));
  const query = useContractQuery(getC2cRequestContract, input, { refetchInterval: cached && isOpen(cached.status) ? C2C_POLL_MS : false });
  const notFound = query.error instanceof ApiError && query.error.message === errorCatalogue.RECORD_NOT_FOUND.msg;
  const problem: 'notFound' | 'failed' | null = notFound ? 'notFound' : loadFailed(query) ? 'failed' : null;
  const replace = useCallback((request: C2cRequest) => client.setQueryData(contractKey(getC2cRequestContract, requestInput(id)), request), [client, id]);
  return { request: query.data ?? null, problem, reload: () => void query.refetch(), replace };
}

export type C2cStep = { kind: 'markPaid'; uploadId: string } | { kind: 'cancel' } | { kind: 'confirm'; paymentPassword: string } | { kind: 'appeal'; reason: string };

/** What a step changes: the order, the lists and the unfinished order of the options, balances and records, the day's withdrawal standing. */
const changedByAStep = [getC2cRequestContract, listC2cRequestsContract, getC2cOptionsContract, listAccountsContract, listRecordsContract, walletOverviewContract];

/**
 * The user's steps on an order (mark paid, cancel, confirm received, appeal) as mutations, one
 * idempotency key per user action, reused only to retry an uncertain outcome. The answer replaces
 * the order on screen; a refusal is kept for the screen and the order is asked again (it may have
 * moved on meanwhile: the merchant or the job acts too).
 */
export function useC2cStep({ requestId, onDone, reload }: { requestId: string; onDone: (request: C2cRequest) => void; reload: () => void }) {
  const actionKey = useActionKey();
  const options = { invalidates: changedByAStep };
  const markPaid = useContractMutation(markC2cPaidContract, options);
  const cancel = useContractMutation(cancelC2cRequestContract, options);
  const confirm = useContractMutation(confirmC2cReceivedContract, options);
  const appeal = useContractMutation(appealC2cRequestContract, options);
  const [busy, setBusy] = useState<C2cStep['kind'] | null>(null);
  const [refused, setRefused] = useState<(Refused & { step: C2cStep['kind'] }) | null>(null);

  function call(step: C2cStep, idempotencyKey: string): Promise<C2cRequest> {
    const params = { requestId };
    switch (step.kind) {
      case 'markPaid':
        return markPaid.mutateAsync({ params, body: { uploadId: step.uploadId }, idempotencyKey });
      case 'cancel':
        return cancel.mutateAsync({ params, idempotencyKey });
      case 'confirm':
        return confirm.mutateAsync({ params, body: { paymentPassword: step.paymentPassword }, idempotencyKey });
      case 'appeal':
        return appeal.mutateAsync({ params, body: { reason: step.reason.trim() }, idempotencyKey });
    }
  }

  async function run(step: C2cStep): Promise<boolean> {
    setBusy(step.kind);
    setRefused(null);
    try {
      const answer = await call(step, actionKey.keyFor(JSON.stringify({ requestId, ...step })));
      actionKey.settle();
      onDone(answer);
      return true;
    } catch (error) {
      actionKey.settle(error);
      if (!isSessionError(error)) {
        setRefused({ ...refusedBy(error), step: step.kind });
        reload();
      }
      return false;
    } finally {
      setBusy(null);
    }
  }

  return { run, busy, refused, clearRefused: () => setRefused(null) };
}
