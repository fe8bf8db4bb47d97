import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { fabVisibleOn } from '../features/service-fab/fab-logic.ts';

// Both are features of their own, fetched after the first screen's script: the page never waits for them.
const ParticleBackground = lazy(async () => ({ default: (await import('../features/particles/ParticleBackground.tsx')).ParticleBackground }));
const ServiceFab = lazy(async () => ({ default: (await import('../features/service-fab/ServiceFab.tsx')).ServiceFab }));

/** What every page shares: the particle background behind it and the customer-service button above it. */
export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <Suspense fallback={null}>
        <ParticleBackground />
      </Suspense>
      {/* Where the button is, the page ends with room for it, so the end of the content can scroll clear of it. */}
      <div className={fabVisibleOn(pathname) ? 'app-frame with-service-fab' : 'app-frame'}>
        <Outlet />
      </div>
      <Suspense fallback={null}>
        <ServiceFab />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
