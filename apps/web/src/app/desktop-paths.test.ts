import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { desktopLoginPath, desktopPathFor, desktopToMobile, isDesktopPath, mobilePathFor, onSiteOf, siteSwitch } from './desktop-paths.ts';

/** Every path the router's route tables name (router.tsx and the tables it spreads in). */
function routePaths(): string[] {
  const tables = ['router.tsx', 'account-routes.tsx', 'wallet-routes.tsx', 'p2p-routes.tsx'].map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'));
  return tables.flatMap((text) => [...text.matchAll(/path: '([^']+)'/g)].map((match) => match[1] ?? ''));
}

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('the desktop ↔ mobile path table (ADR 0048)', () => {
  it('names the spec’s 14 desktop routes, each a route of the router, and a mobile route for each', () => {
    expect(Object.keys(desktopToMobile).sort()).toEqual(
      [
        '/web/index/index',
        '/web/index/login',
        '/web/index/Register',
        '/web/index/Forget',
        '/web/index/Agreement',
        '/web/index/Terms',
        '/web/my/index',
        '/web/my/setting',
        '/web/my/Contact_list',
        '/web/helpCenter/index',
        '/web/assets/index',
        '/web/trade/LeveragedTrading',
        '/web/trade/FuturesTrading',
        '/web/trade/LockUpMining',
      ].sort(),
    );
    const paths = routePaths();
    for (const [desktop, mobile] of Object.entries(desktopToMobile)) {
      expect(paths, desktop).toContain(desktop);
      expect(paths, mobile).toContain(mobile);
    }
  });

  it('reads both ways: every desktop page back from its mobile page', () => {
    for (const [desktop, mobile] of Object.entries(desktopToMobile)) {
      expect(mobilePathFor(desktop)).toBe(mobile);
      expect(desktopPathFor(mobile)).toBe(desktop);
    }
    expect(desktopPathFor('/loginaccount')).toBe('/web/index/login');
    expect(desktopPathFor('/')).toBe('/web/index/index');
    expect(desktopPathFor('/trade/shopping')).toBeNull();
    expect(mobilePathFor('/web/nowhere')).toBe('/index');
  });

  it('tells desktop paths apart', () => {
    expect(isDesktopPath('/web/index/index')).toBe(true);
    expect(isDesktopPath('/web')).toBe(true);
    expect(isDesktopPath('/webinar')).toBe(false);
    expect(isDesktopPath('/index')).toBe(false);
  });

  it('keeps the links of a page on the site it is on', () => {
    expect(onSiteOf('/web/index/login', '/register')).toBe('/web/index/Register');
    expect(onSiteOf('/login', '/register')).toBe('/register');
    expect(onSiteOf('/web/index/login', '/orderlist')).toBe('/orderlist');
    expect(desktopLoginPath('/login?redirect=%2Fweb%2Fmy%2Findex')).toBe('/web/index/login?redirect=%2Fweb%2Fmy%2Findex');
  });
});

describe('the width switch (ADR 0048)', () => {
  it('sends a narrow screen on a desktop page to the mobile page, query and fragment kept', () => {
    expect(siteSwitch(at('/web/trade/FuturesTrading', '?symbol=BTC%2FUSDT', '#x'), false, null)).toEqual({ kind: 'redirect', to: '/trade/futures?symbol=BTC%2FUSDT#x' });
    // Whatever was chosen: a phone never gets the desktop frame.
    expect(siteSwitch(at('/web/my/index'), false, 'desktop')).toEqual({ kind: 'redirect', to: '/my' });
  });

  it('leaves a wide screen on a desktop page, whatever was chosen (a link to it is followed)', () => {
    expect(siteSwitch(at('/web/my/index'), true, null)).toEqual({ kind: 'stay' });
    expect(siteSwitch(at('/web/my/index'), true, 'mobile')).toEqual({ kind: 'stay' });
  });

  it('offers a wide screen the desktop page of a mobile page until a choice is made', () => {
    expect(siteSwitch(at('/trade/leveraged', '?symbol=ETHUSDT'), true, null)).toEqual({ kind: 'offer', to: '/web/trade/LeveragedTrading?symbol=ETHUSDT' });
    expect(siteSwitch(at('/login', '?redirect=%2Fmy'), true, 'desktop')).toEqual({ kind: 'redirect', to: '/web/index/login?redirect=%2Fmy' });
    expect(siteSwitch(at('/assets'), true, 'mobile')).toEqual({ kind: 'stay' });
  });

  it('on the desktop site, shows a page without a desktop page under the desktop header', () => {
    expect(siteSwitch(at('/trade/shopping'), true, 'desktop')).toEqual({ kind: 'framed' });
    expect(siteSwitch(at('/assets/records', '?page=2'), true, 'desktop')).toEqual({ kind: 'framed' });
    // Not on a narrow screen, nor for someone who kept (or has not chosen) the mobile site.
    expect(siteSwitch(at('/trade/shopping'), false, 'desktop')).toEqual({ kind: 'stay' });
    expect(siteSwitch(at('/trade/shopping'), true, 'mobile')).toEqual({ kind: 'stay' });
  });

  it('leaves a mobile page without a desktop page, and a narrow screen on a mobile page, alone', () => {
    expect(siteSwitch(at('/trade/shopping'), true, null)).toEqual({ kind: 'stay' });
    expect(siteSwitch(at('/assets'), false, 'desktop')).toEqual({ kind: 'stay' });
    expect(siteSwitch(at('/assets'), false, null)).toEqual({ kind: 'stay' });
  });
});
