import { type ContractData, securityOverviewContract } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';

export type SecurityOverview = ContractData<typeof securityOverviewContract>;

/** GET /home/user/security: what is set (never the secrets) and the withdrawal lock, if any. */
export function useSecurity(): { overview: SecurityOverview | null; failed: boolean; reload: () => void } {
  const [overview, setOverview] = useState<SecurityOverview | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void attempt;
    setFailed(false);
    api(securityOverviewContract)
      .then((answer) => {
        if (current) setOverview(answer);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { overview, failed, reload };
}
