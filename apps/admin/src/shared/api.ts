import { type ApiError, createApiClient } from '@keel/contracts';
import { useSyncExternalStore } from 'react';

const TOKEN_KEY = 'staffToken';
const tokenListeners = new Set<() => void>();
const tokenChanged = () => {
  for (const listener of tokenListeners) listener();
};

/** The staff session token, kept in localStorage; the shell re-renders when it is set or cleared. */
export const staffToken = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (token: string) => {
    localStorage.setItem(TOKEN_KEY, token);
    tokenChanged();
  },
  clear: () => {
    localStorage.removeItem(TOKEN_KEY);
    tokenChanged();
  },
  subscribe: (listener: () => void) => {
    tokenListeners.add(listener);
    return () => tokenListeners.delete(listener);
  },
};

/** The current staff token, or null: the shell shows the login form in place of the view while it is null. */
export function useStaffToken(): string | null {
  return useSyncExternalStore(staffToken.subscribe, staffToken.get);
}

let onSessionLost: () => void = () => {};

/** The app registers what else a lost session drops (the cached staff data); see shared/queries.ts. */
export function setSessionLostHandler(handler: () => void) {
  onSessionLost = handler;
}

/** A 401 ends the staff session (back to the login form, at the same URL); every staff call applies this. */
export function reportStaffError(error: ApiError) {
  if (error.code === 401) {
    staffToken.clear();
    onSessionLost();
  }
}

export const api = createApiClient({
  baseUrl: '',
  getToken: staffToken.get,
  onError: reportStaffError,
});
