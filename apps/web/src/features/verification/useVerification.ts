import { type ContractData, verificationStatusContract } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';

export type VerificationStatus = ContractData<typeof verificationStatusContract>;

/** GET /home/verification: identity and advanced states, the tier and its daily withdrawal limit. */
export function useVerification(): { status: VerificationStatus | null; failed: boolean; reload: () => void } {
  const [status, setStatus] = useState<VerificationStatus | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void attempt;
    setFailed(false);
    api(verificationStatusContract)
      .then((answer) => {
        if (current) setStatus(answer);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { status, failed, reload };
}
