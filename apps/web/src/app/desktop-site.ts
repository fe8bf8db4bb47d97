import { useEffect, useState } from 'react';

/**
 * What the shell knows of the desktop site (issue 21, ADR 0048), kept small: it is in every
 * visit's first script. The path table and the switch are in desktop-paths.ts, fetched by wide
 * screens and desktop pages only (SiteSwitch.tsx).
 */

/** A screen at least this wide (CSS px) is offered the desktop site; a narrower one never gets it. */
export const DESKTOP_MIN_WIDTH = 1024;

export const isDesktopPath = (pathname: string): boolean => pathname === '/web' || pathname.startsWith('/web/');

/** The desktop login address for the mobile one (`/login?redirect=…`), bringing the user back the same way. */
export const desktopLoginPath = (mobileLoginPath: string): string => mobileLoginPath.replace(/^\/login/, '/web/index/login');

const wideQuery = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;

/** Whether the screen is wide enough for the desktop site now. */
export const isWideScreen = (): boolean => typeof matchMedia === 'function' && matchMedia(wideQuery).matches;

/** Whether the screen is wide enough for the desktop site, following resizes. */
export function useWideScreen(): boolean {
  const [wide, setWide] = useState(isWideScreen);
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
