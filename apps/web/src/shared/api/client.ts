import { ApiError, createApiClient, errorCatalogue } from '@keel/contracts';
import { fetchWithEarlyReads } from './early-reads.ts';
import { FAIL400, loginPathFor } from './redirect.ts';
import { session } from './session.ts';

export { ApiError };

type Navigate = (to: string) => void;

// The router registers itself at start-up; until then a full page load does the same job.
let navigate: Navigate = (to) => window.location.assign(to);

export function setSessionNavigator(next: Navigate) {
  navigate = next;
}

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * Spec section 4, applied to every answer: a 401 ends the session and sends the user to login
 * with a way back; "user status incorrect" ends it and sends them to login with redirect=fail400,
 * where a notice explains why.
 */
export function applySessionRules(error: ApiError) {
  if (error.code === 401) {
    session.clear('unauthorised');
    const path = window.location.pathname;
    // Already on a login page: keep its own redirect rather than pointing back at itself.
    if (path === '/login' || path === '/loginaccount') return;
    navigate(loginPathFor(currentPath()));
    return;
  }
  if (error.code === 400 && error.message === errorCatalogue.USER_STATUS_INCORRECT.msg) {
    session.clear('status');
    navigate(`/login?redirect=${FAIL400}`);
  }
}

/** The typed client of every call; same origin, token from the device's session. */
export const api = createApiClient({
  baseUrl: '',
  getToken: session.token,
  onError: applySessionRules,
  // The first screen's reads may already be under way, started by the first script.
  fetchImpl: fetchWithEarlyReads,
});

/** True for the two errors that already moved the user to login; callers stay quiet about them. */
export function isSessionError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 401 || (error.code === 400 && error.message === errorCatalogue.USER_STATUS_INCORRECT.msg))
  );
}
