import type { Contract, ContractData, ContractInput } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from './client.ts';

export interface ApiQuery<T> {
  data: T | null;
  failed: boolean;
  reload: () => void;
}

/**
 * Loads one GET contract when the screen mounts and again on `reload()`. A session error is left to
 * the client's session rules (they navigate away), so it does not also show the failure notice.
 */
export function useApiQuery<C extends Contract>(
  contract: C,
  input: ContractInput<C> = {} as ContractInput<C>,
): ApiQuery<ContractData<C>> {
  const [data, setData] = useState<ContractData<C> | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // Callers pass the input as a literal; keyed by its text so a new object with the same content
  // does not request again on every render.
  const inputKey = JSON.stringify(input);

  useEffect(() => {
    let current = true;
    // `attempt` only re-runs the request when the user asks to try again.
    void attempt;
    setFailed(false);
    api(contract, JSON.parse(inputKey) as ContractInput<C> & { idempotencyKey?: string })
      .then((answer) => {
        if (current) setData(answer);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [contract, inputKey, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { data, failed, reload };
}
