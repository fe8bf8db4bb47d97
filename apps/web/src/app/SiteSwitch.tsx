import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { webMessages } from '../shared/i18n/messages.ts';
import { DESKTOP_MIN_WIDTH, type SiteSwitch, savedSiteChoice, siteSwitch } from './desktop-paths.ts';

const wideQuery = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;

/** Whether the screen is wide enough for the desktop site, following resizes. */
export function useWideScreen(): boolean {
  const [wide, setWide] = useState(() => typeof matchMedia === 'function' && matchMedia(wideQuery).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const media = matchMedia(wideQuery);
    const follow = () => setWide(media.matches);
    follow();
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
  return wide;
}

/** What this visit does about the desktop site (desktop-paths.ts `siteSwitch`), read afresh on every navigation. */
export function useSiteSwitch(): SiteSwitch {
  const location = useLocation();
  return siteSwitch(location, useWideScreen(), savedSiteChoice());
}

// The offer and its texts (the `more` part) are a chunk of their own: a phone never downloads them.
const DesktopOffer = lazy(async () => {
  const [offer] = await Promise.all([import('../routes/desktop/DesktopOffer.tsx'), webMessages.loadLater('more')]);
  return { default: offer.DesktopOffer };
});

/** The small banner offering a wide screen the desktop page of the mobile page it is on. */
export function DesktopOfferBanner({ to }: { to: string }) {
  return (
    <Suspense fallback={null}>
      <DesktopOffer to={to} />
    </Suspense>
  );
}
