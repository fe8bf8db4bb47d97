/**
 * The desktop site (issue 21, ADR 0048): its pages under /web/… and the mobile page each one
 * matches, in one table; the width at which a screen counts as wide; and what a visit to a path
 * does on a screen of a width, given the site the user chose (remembered in localStorage).
 */
import { isDesktopPath } from './desktop-site.ts';

export { DESKTOP_MIN_WIDTH, desktopLoginPath, isDesktopPath } from './desktop-site.ts';

/** localStorage key of the user's choice: 'desktop' (wide screens go straight to the desktop pages) or 'mobile'. */
export const SITE_CHOICE_KEY = 'site-choice';

export type SiteChoice = 'desktop' | 'mobile';

/** Desktop path → the mobile page with the same content (the spec's spelling of each). */
export const desktopToMobile: Readonly<Record<string, string>> = {
  '/web/index/index': '/index',
  '/web/index/login': '/login',
  '/web/index/Register': '/register',
  '/web/index/Forget': '/forget',
  '/web/index/Agreement': '/agreement',
  '/web/index/Terms': '/terms',
  '/web/my/index': '/my',
  '/web/my/setting': '/person/setting',
  '/web/my/Contact_list': '/trade/contact/list',
  '/web/helpCenter/index': '/helpcenter',
  '/web/assets/index': '/assets',
  '/web/trade/LeveragedTrading': '/trade/leveraged',
  '/web/trade/FuturesTrading': '/trade/futures',
  '/web/trade/LockUpMining': '/Lockup',
};

/** Mobile path → desktop page: the table read backwards, and the mobile paths that share a page. */
const mobileToDesktop: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(desktopToMobile).map(([desktop, mobile]) => [mobile, desktop])),
  '/': '/web/index/index',
  '/loginaccount': '/web/index/login',
};


/** The mobile page of a desktop path (the home page for a /web/… path not in the table). */
export function mobilePathFor(pathname: string): string {
  return desktopToMobile[pathname] ?? '/index';
}

/** The desktop page of a mobile path, or null when it has none. */
export function desktopPathFor(pathname: string): string | null {
  return mobileToDesktop[pathname] ?? null;
}

/**
 * What the site does on a visit: nothing, send the screen to the other site's page, offer the
 * desktop page, or — a wide screen on the desktop site opening a page that has no desktop page —
 * show that page under the desktop header (`framed`), so the way around stays the same.
 */
export type SiteSwitch = { kind: 'stay' } | { kind: 'redirect'; to: string } | { kind: 'offer'; to: string } | { kind: 'framed' };

/**
 * A narrow screen on a desktop path goes to its mobile page; a wide screen on a mobile path that
 * has a desktop page goes there when the user chose the desktop site, is offered it when they
 * have not chosen, and stays when they chose the mobile site. The query and fragment go along.
 */
export function siteSwitch(location: { pathname: string; search: string; hash: string }, wide: boolean, choice: SiteChoice | null): SiteSwitch {
  const rest = `${location.search}${location.hash}`;
  if (isDesktopPath(location.pathname)) return wide ? { kind: 'stay' } : { kind: 'redirect', to: `${mobilePathFor(location.pathname)}${rest}` };
  const desktop = wide ? desktopPathFor(location.pathname) : null;
  if (wide && desktop === null && choice === 'desktop') return { kind: 'framed' };
  if (desktop === null || choice === 'mobile') return { kind: 'stay' };
  return { kind: choice === 'desktop' ? 'redirect' : 'offer', to: `${desktop}${rest}` };
}

/** The remembered choice (null when none, or when storage cannot be read). */
export function savedSiteChoice(): SiteChoice | null {
  try {
    const value = localStorage.getItem(SITE_CHOICE_KEY);
    return value === 'desktop' || value === 'mobile' ? value : null;
  } catch {
    return null;
  }
}

export function saveSiteChoice(choice: SiteChoice): void {
  try {
    localStorage.setItem(SITE_CHOICE_KEY, choice);
  } catch {
    // Private mode without storage: the choice holds for this visit only.
  }
}

/** `mobilePath`, or its desktop page when the user is on the desktop site (`pathname` under /web/) and it has one. */
export function onSiteOf(pathname: string, mobilePath: string): string {
  return (isDesktopPath(pathname) && desktopPathFor(mobilePath)) || mobilePath;
}
