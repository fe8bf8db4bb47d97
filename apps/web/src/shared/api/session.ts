import { useSyncExternalStore } from 'react';

import { TOKEN_KEY, USER_ID_KEY } from './session-keys.ts';

export { TOKEN_KEY, USER_ID_KEY };

const listeners = new Set<() => void>();

/** Why a session ended: an answer of 401, the "user status incorrect" rule, or the user logging out. */
export type EndReason = 'unauthorised' | 'status' | 'logout';

// Why the last session ended, while the app runs: the guard and whoever ended the session must
// send the user to the same login address, whichever of them acts first.
let endReason: EndReason | null = null;

function notify() {
  for (const listener of listeners) listener();
}

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  userId: (): string | null => localStorage.getItem(USER_ID_KEY),
  start(token: string, userId: string) {
    endReason = null;
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_ID_KEY, userId);
    notify();
  },
  /** Ends the session on this device. */
  clear(reason: EndReason) {
    endReason = reason;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_ID_KEY);
    notify();
  },
  endReason: (): EndReason | null => endReason,
};

/** Calls `listener` whenever the session may have changed (here or in another tab); returns the unsubscribe. */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes this tab's session too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** True while the device holds a token; re-renders when the session starts or ends. */
export function useLoggedIn(): boolean {
  return useSyncExternalStore(onSessionChange, () => session.token() !== null);
}
