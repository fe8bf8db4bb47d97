import { ApiError, type ContractData, errorCatalogue, getWithdrawalContract } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';

export type WithdrawalView = ContractData<typeof getWithdrawalContract>;

/** One withdrawal (GET /home/wallet/withdrawals/:id), telling "not yours / no such" apart from a failed load. */
export function useWithdrawal(id: string) {
  const [withdrawal, setWithdrawal] = useState<WithdrawalView | null>(null);
  const [problem, setProblem] = useState<'notFound' | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void attempt;
    setProblem(null);
    api(getWithdrawalContract, { params: { withdrawalId: id } })
      .then((answer) => {
        if (current) setWithdrawal(answer);
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
  return { withdrawal, problem, reload, replace: setWithdrawal };
}
