import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { webMessages } from '../shared/i18n/messages.ts';
import { savedSiteChoice, siteSwitch } from './desktop-paths.ts';
import { useWideScreen } from './desktop-site.ts';

// The desktop header over a page that has no desktop page, and its texts: fetched only when it shows.
const FramedPhonePage = lazy(async () => {
  const [layout] = await Promise.all([import('../routes/desktop/DesktopLayout.tsx'), webMessages.loadLater('more')]);
  return { default: layout.DesktopHeaderOverPhonePage };
});

// The offer and its texts (the `more` part): fetched only when it shows.
const DesktopOffer = lazy(async () => {
  const [offer] = await Promise.all([import('../routes/desktop/DesktopOffer.tsx'), webMessages.loadLater('more')]);
  return { default: offer.DesktopOffer };
});

/**
 * The desktop site's switch (ADR 0048), a chunk of its own that RootLayout fetches on a wide
 * screen or a desktop page only: a narrow screen on /web/… goes to the mobile page; a wide one on a
 * mobile page goes to its desktop page when the user chose that, or is offered it; on the desktop
 * site a page with no desktop page keeps its phone column under the desktop header. The choice is
 * read afresh on every navigation.
 */
export function SiteSwitch() {
  const location = useLocation();
  const site = siteSwitch(location, useWideScreen(), savedSiteChoice());
  if (site.kind === 'redirect') return <Navigate to={site.to} replace />;
  if (site.kind === 'framed')
    return (
      <Suspense fallback={null}>
        <FramedPhonePage />
      </Suspense>
    );
  if (site.kind === 'offer')
    return (
      <Suspense fallback={null}>
        <DesktopOffer to={site.to} />
      </Suspense>
    );
  return null;
}
