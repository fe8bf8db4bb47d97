import { listAccountsContract } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { type AccountBalance, withBalances } from './accounts.ts';

export interface AccountsState {
  accounts: AccountBalance[] | null;
  failed: boolean;
  reload: () => void;
  /** Takes in balances a money-moving answer returned, then refetches the whole list. */
  update: (changed: readonly AccountBalance[]) => void;
}

/** The user's balances (GET /home/assets/accounts). */
export function useAccounts(): AccountsState {
  const [accounts, setAccounts] = useState<AccountBalance[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void attempt;
    api(listAccountsContract)
      .then((answer) => {
        if (!current) return;
        setAccounts(answer.accounts);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  const update = useCallback((changed: readonly AccountBalance[]) => {
    setAccounts((current) => (current ? withBalances(current, changed) : current));
    setAttempt((value) => value + 1);
  }, []);
  return { accounts, failed, reload, update };
}
