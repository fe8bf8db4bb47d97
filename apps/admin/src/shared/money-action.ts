import { ApiError, type Contract, type ContractData, type ContractInput, errorCatalogue, newIdempotencyKey } from '@keel/contracts';
import type { ContractMutationOptions } from '@keel/ui';
import { useCallback, useRef } from 'react';
import { useContractMutation } from './queries.ts';

/** An outcome nobody can know yet (network failure, server failure, or the first try still running). */
export function outcomeUnknown(error: unknown): boolean {
  return error instanceof ApiError && (error.code >= 500 || error.message === errorCatalogue.REQUEST_IN_PROGRESS.msg);
}

/** A request whose outcome is unknown, with the key it was sent under. */
export type Unsettled = { signature: string; key: string } | null;

/**
 * The Idempotency-Key of the next click: the unsettled request's key when the click repeats that
 * very request (same action, same input), so the server answers what the first one did instead
 * of deciding twice; otherwise a fresh one (a refused decision followed by a corrected one is a
 * new request).
 */
export function keyForClick(unsettled: Unsettled, signature: string, fresh: () => string = newIdempotencyKey): string {
  return unsettled?.signature === signature ? unsettled.key : fresh();
}

/**
 * A money-moving staff action (a decision, a broadcast record, a failure, an appeal's resolution)
 * as a mutation with its Idempotency-Key (`keyForClick`). A second click while one runs is
 * ignored (the ref guards it before React re-renders the disabled button). The mutation
 * invalidates what it changes; `error` is its refusal, for the detail to show.
 */
export function useMoneyAction<C extends Contract>(contract: C, options: ContractMutationOptions<C> = {}) {
  const mutation = useContractMutation(contract, options);
  const running = useRef(false);
  const unsettled = useRef<Unsettled>(null);
  const { mutateAsync } = mutation;

  const run = useCallback(
    async (input: ContractInput<C>): Promise<ContractData<C> | undefined> => {
      if (running.current) return undefined;
      running.current = true;
      const signature = JSON.stringify(input);
      const key = keyForClick(unsettled.current, signature);
      unsettled.current = null;
      try {
        return await mutateAsync({ ...input, idempotencyKey: key });
      } catch (caught) {
        if (outcomeUnknown(caught)) unsettled.current = { signature, key };
        return undefined;
      } finally {
        running.current = false;
      }
    },
    [mutateAsync],
  );

  return { run, busy: mutation.isPending, error: mutation.error, reset: mutation.reset };
}
