import type { ReactNode } from 'react';
import { Outlet } from 'react-router';

/**
 * The main landmark of every screen outside the tab shell (public pages, full-screen pages, the
 * error pages); the tab shell has its own beside its tab bar. One per page, never nested.
 */
export function PageMain({ children }: { children?: ReactNode }) {
  return <main className="page-main">{children ?? <Outlet />}</main>;
}

/** What shows while the first screen's chunk is on its way: the empty frame, marked busy. */
export function PageLoading() {
  return <main className="page-main app-frame" aria-busy="true" />;
}
