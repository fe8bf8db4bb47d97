import { type ApiError, createApiClient } from '@keel/contracts';

const TOKEN_KEY = 'staffToken';

export const staffToken = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

let onSessionLost: () => void = () => {};

/** The app shell registers what to do when the staff session is gone (back to the login form). */
export function setSessionLostHandler(handler: () => void) {
  onSessionLost = handler;
}

/** A 401 ends the staff session (back to the login form); every staff call applies this. */
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
