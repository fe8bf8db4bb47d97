import { meContract, type PublicUser } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { session } from '../../shared/api/session.ts';

// The last answer per token, so switching tabs shows the profile at once while it is refreshed.
let cached: { token: string; user: PublicUser } | null = null;

export interface MeState {
  user: PublicUser | null;
  failed: boolean;
  reload: () => void;
}

/** The logged-in user (GET /home/user/me). */
export function useMe(): MeState {
  const token = session.token();
  const [user, setUser] = useState<PublicUser | null>(() => (cached && cached.token === token ? cached.user : null));
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    const requestedWith = session.token();
    setFailed(false);
    // `attempt` only re-runs the request when the user asks to try again.
    void attempt;
    api(meContract)
      .then((answer) => {
        if (requestedWith) cached = { token: requestedWith, user: answer };
        if (current) setUser(answer);
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { user, failed, reload };
}

/** Forgets the cached profile (at logout). */
export function forgetMe() {
  cached = null;
}
