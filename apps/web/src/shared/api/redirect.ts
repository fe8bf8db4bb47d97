/** The redirect value that marks a forced logout for a suspended or banned account (spec section 4). */
export const FAIL400 = 'fail400';

/**
 * Where to go after login: the `redirect` parameter when it is a path on this site, else /index.
 * Only a single leading '/' is accepted, so `//evil.example` and `/\evil.example` (which browsers
 * treat as other hosts) can never be used to send a user off the site.
 */
export function safeRedirect(redirect: string | null | undefined, fallback = '/index'): string {
  if (!redirect || redirect === FAIL400) return fallback;
  if (!redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return fallback;
  // Sending a user back to a login page after logging in would look like a failed login.
  const path = redirect.split(/[?#]/)[0];
  if (path === '/login' || path === '/loginaccount' || path === '/register' || path === '/web/index/login' || path === '/web/index/Register') return fallback;
  return redirect;
}

/** The login address that brings the user back to `path` afterwards. */
export function loginPathFor(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}
