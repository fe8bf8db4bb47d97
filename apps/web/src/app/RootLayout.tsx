import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { fabVisibleOn } from '../features/service-fab/fab-logic.ts';
import { useAfterFirstScreen } from '../shared/ui/useAfterFirstScreen.ts';
import { isDesktopPath, useWideScreen } from './desktop-site.ts';
import { SiteDemoBanner, useSiteReadSettled } from './SiteDemoBanner.tsx';

// Both are features of their own, fetched once the first screen has loaded and the browser is idle:
// the page never waits for them, and their script never delays its first paint.
const ParticleBackground = lazy(async () => ({ default: (await import('../features/particles/ParticleBackground.tsx')).ParticleBackground }));
// The desktop site's switch (ADR 0048): only a wide screen or a desktop page fetches it.
const SiteSwitch = lazy(async () => ({ default: (await import('./SiteSwitch.tsx')).SiteSwitch }));
const ServiceFab = lazy(async () => ({ default: (await import('../features/service-fab/ServiceFab.tsx')).ServiceFab }));

/**
 * What every page shares: the particle background behind it, the customer-service button above it
 * and, on a demo deployment, the demo banner at its top (in the flow, so it covers nothing).
 */
export function RootLayout() {
  const { pathname } = useLocation();
  const afterFirstScreen = useAfterFirstScreen();
  const desktop = isDesktopPath(pathname);
  const wide = useWideScreen();
  const frame = `app-frame${desktop ? ' desktop-frame' : ''}${fabVisibleOn(pathname) ? ' with-service-fab' : ''}`;
  // Shown once the demo banner's place above it is known: the banner never moves a painted page.
  const settled = useSiteReadSettled();
  return (
    <>
      {afterFirstScreen && (
        <Suspense fallback={null}>
          <ParticleBackground />
        </Suspense>
      )}
      <SiteDemoBanner />
      {/* Where the button is, the page ends with room for it, so the end of the content can scroll clear of it. */}
      <div className={frame} style={settled ? undefined : { visibility: 'hidden' }}>
        {/* The desktop site (ADR 0048): a narrow screen on /web/… goes to the mobile page; a wide one on a mobile page goes to the desktop page when the user chose it, or is offered it. */}
        {(wide || desktop) && (
          <Suspense fallback={null}>
            <SiteSwitch />
          </Suspense>
        )}
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
