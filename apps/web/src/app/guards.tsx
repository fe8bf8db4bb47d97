import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FAIL400, loginPathFor } from '../shared/api/redirect.ts';
import { session, useLoggedIn } from '../shared/api/session.ts';
import { desktopLoginPath, isDesktopPath } from './desktop-site.ts';

// The push connection and what its events make out of date: a chunk of its own, fetched once a
// session is on the device (a visitor's first screen does without it).
const RealtimeCacheSync = lazy(async () => ({ default: (await import('../shared/realtime/cache-sync.ts')).RealtimeCacheSync }));

/**
 * Spec section 2: every route outside the public list needs a token; without one the user goes to
 * login with a redirect back to where they were.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const loggedIn = useLoggedIn();
  const location = useLocation();
  if (!loggedIn) {
    const reason = session.endReason();
    const to =
      reason === 'status'
        ? `/login?redirect=${FAIL400}`
        : reason === 'logout'
          ? '/login'
          : loginPathFor(`${location.pathname}${location.search}`);
    // A desktop page (ADR 0048) sends the visitor to the desktop login, which brings them back.
    return <Navigate to={isDesktopPath(location.pathname) ? desktopLoginPath(to) : to} replace />;
  }
  return (
    <>
      <Suspense fallback={null}>
        <RealtimeCacheSync />
      </Suspense>
      {children ?? <Outlet />}
    </>
  );
}
