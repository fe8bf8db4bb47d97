import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FAIL400, loginPathFor } from '../shared/api/redirect.ts';
import { session, useLoggedIn } from '../shared/api/session.ts';

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
    return <Navigate to={to} replace />;
  }
  return children ?? <Outlet />;
}
