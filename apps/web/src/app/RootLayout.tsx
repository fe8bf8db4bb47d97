import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { fabVisibleOn } from '../features/service-fab/fab-logic.ts';
import { useAfterFirstScreen } from '../shared/ui/useAfterFirstScreen.ts';
import { SiteDemoBanner } from './SiteDemoBanner.tsx';

// Both are features of their own, fetched once the first screen has loaded and the browser is idle:
// the page never waits for them, and their script never delays its first paint.
const ParticleBackground = lazy(async () => ({ default: (await import('../features/particles/ParticleBackground.tsx')).ParticleBackground }));
const ServiceFab = lazy(async () => ({ default: (await import('../features/service-fab/ServiceFab.tsx')).ServiceFab }));

/**
 * What every page shares: the particle background behind it, the customer-service button above it
 * and, on a demo deployment, the demo banner at its top (in the flow, so it covers nothing).
 */
export function RootLayout() {
  const { pathname } = useLocation();
  const afterFirstScreen = useAfterFirstScreen();
  return (
    <>
      {afterFirstScreen && (
        <Suspense fallback={null}>
          <ParticleBackground />
        </Suspense>
      )}
      <SiteDemoBanner />
      {/* Where the button is, the page ends with room for it, so the end of the content can scroll clear of it. */}
      <div className={fabVisibleOn(pathname) ? 'app-frame with-service-fab' : 'app-frame'}>
        <Outlet />
      </div>
      {afterFirstScreen && (
        <Suspense fallback={null}>
          <ServiceFab />
        </Suspense>
      )}
      <ScrollRestoration />
    </>
  );
}
