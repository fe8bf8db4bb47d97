import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addProduct, fundTreasury, specProduct } from '../../apps/server/test/integration/earn/earn-helpers.ts';
import { verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, pathOf, putSessionOnDevice, storage } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 21, the desktop site (ADR 0048) at 1,440 × 900: every desktop route with its header menu,
// the assets centre's menu, no serious or critical axe violation and one main landmark on every
// page; the desktop login bringing a visitor back; a futures order placed from the three-column
// screen; the width switch both ways (a phone on /web/… gets the mobile page; a wide screen on a
// mobile page is offered the desktop page, and the choice is remembered); Arabic right to left.

const BTC = 'BTC/USDT';

/** Polls up to 10 s: a chunk or two to fetch before the address changes. */
const eventually = { timeout: 10_000, interval: 50 };

let server: E2eServer;
let browser: Browser;
let context: BrowserContext | undefined;
let user: { token: string; userId: string };
let productId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded' }), launchBrowser()]);
  user = await registerUser(server.baseUrl, uniqueUsername('desk'));
  await verifyUser(server.db, user.userId);
  await fundUser(server.db, { userId: user.userId, kind: 'leveraged', asset: 'USDT', amount: '10000' });
  productId = await addProduct(server.db, specProduct());
  await fundTreasury(server.db, '100000');
  await recordKnownTicks(server, ['60000', '60000', '60000', '60000', '60000'].map((price) => ({ symbol: BTC, price, source: 'test-feed' })));
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function desktopContext(): Promise<BrowserContext> {
  const created = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, locale: 'en-US' });
  created.setDefaultTimeout(10_000);
  return created;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

/** The header menu: its top links and the trade and fiat groups, opened by keyboard. */
async function checkHeaderMenu(page: Page, loggedIn: boolean) {
  const menu = page.getByTestId('desktop-header-menu');
  expect(await menu.getByTestId('desktop-menu-markets').getAttribute('href')).toBe('/news');
  expect(await menu.getByTestId('desktop-menu-assets').getAttribute('href')).toBe('/web/assets/index');
  expect(await menu.getByTestId('desktop-menu-help').getAttribute('href')).toBe('/web/helpCenter/index');
  const trade = menu.getByTestId('desktop-menu-trade');
  expect(await trade.getAttribute('aria-expanded')).toBe('false');
  await trade.focus();
  await page.keyboard.press('Enter');
  expect(await trade.getAttribute('aria-expanded')).toBe('true');
  expect(await menu.getByTestId('desktop-menu-contracts').getAttribute('href')).toBe('/trade');
  expect(await menu.getByTestId('desktop-menu-leveraged').getAttribute('href')).toBe('/web/trade/LeveragedTrading');
  expect(await menu.getByTestId('desktop-menu-futures').getAttribute('href')).toBe('/web/trade/FuturesTrading');
  expect(await menu.getByTestId('desktop-menu-lockup').getAttribute('href')).toBe('/web/trade/LockUpMining');
  expect(await menu.getByTestId('desktop-menu-futures').isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  expect(await trade.getAttribute('aria-expanded')).toBe('false');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('desktop-menu-trade');
  await menu.getByTestId('desktop-menu-fiat').click();
  expect(await menu.getByTestId('desktop-menu-p2p').getAttribute('href')).toBe('/trade/shopping');
  expect(await menu.getByTestId('desktop-menu-c2c').getAttribute('href')).toBe('/assets/recharge?via=c2c');
  await menu.getByTestId('desktop-menu-fiat').click();
  expect(await page.getByTestId('language-select').count()).toBeGreaterThan(0);
  if (loggedIn) expect(await page.getByTestId('desktop-menu-account').count()).toBe(1);
  else expect(await page.getByTestId('desktop-menu-login').getAttribute('href')).toBe('/web/index/login');
}

async function checkPage(page: Page, path: string) {
  expect(await page.getByRole('main').count(), path).toBe(1);
  expect(await seriousViolations(page), path).toEqual([]);
}

describe('the desktop site at 1,440 × 900', () => {
  it('shows every public desktop page in the desktop frame, with the header menu and no serious axe violation', async () => {
    context = await desktopContext();
    const page = await context.newPage();
    for (const [path, ready] of [
      ['/web/index/login', 'login-submit'],
      ['/web/index/Register', 'register-submit'],
      ['/web/index/Forget', 'reset-submit'],
      ['/web/index/Agreement', 'desktop-page-agreement'],
      ['/web/index/Terms', 'desktop-page-terms'],
      ['/web/helpCenter/index', 'help-search'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      expect(pathOf(page), path).toBe(path);
      await page.getByTestId('desktop-shell').waitFor();
      await checkHeaderMenu(page, false);
      await checkPage(page, path);
    }

    // The forms' links stay on the desktop site.
    await page.goto('/web/index/login');
    await page.getByTestId('login-submit').waitFor();
    const form = page.getByTestId('desktop-page-login');
    expect(await form.getByRole('link', { name: 'User Agreement' }).getAttribute('href')).toBe('/web/index/Agreement');
    expect(await form.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/web/index/Forget');
    expect(await form.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/web/index/Register');
    // One language switcher: the header's (the phone form's own is left out in the frame).
    expect(await page.getByTestId('language-select').count()).toBe(1);
  });

  it('sends a visitor from a desktop page behind the login to the desktop login and back', async () => {
    context = await desktopContext();
    const page = await context.newPage();
    const name = uniqueUsername('deskin');
    await registerUser(server.baseUrl, name);
    await page.goto('/web/my/index');
    await page.getByTestId('login-submit').waitFor();
    expect(pathOf(page)).toBe(`/web/index/login?redirect=${encodeURIComponent('/web/my/index')}`);
    await page.getByLabel('Phone, e-mail or username').fill(name);
    await page.getByLabel('Password', { exact: true }).fill('secret12');
    await page.getByTestId('agreement').check();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('desktop-page-my').waitFor();
    expect(pathOf(page)).toBe('/web/my/index');
  });

  it('shows every desktop page behind the login with its menus, real content and no serious axe violation', async () => {
    context = await desktopContext();
    const page = await context.newPage();
    await putSessionOnDevice(page, user);
    for (const [path, ready] of [
      ['/web/index/index', 'greeting'],
      ['/web/assets/index', 'desktop-page-assets'],
      ['/web/my/index', 'logout'],
      ['/web/my/setting', 'desktop-page-setting'],
      ['/web/my/Contact_list', 'desktop-page-contacts'],
      ['/web/trade/LeveragedTrading', 'leverage-review'],
      ['/web/trade/FuturesTrading', 'leverage-review'],
      ['/web/trade/LockUpMining', `earn-product-${productId}`],
      ['/web/helpCenter/index', 'help-search'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      expect(pathOf(page), path).toBe(path);
      await checkHeaderMenu(page, true);
      await checkPage(page, path);
    }

    // The assets centre's menu: OTC, wallet, USDT/BTC/ETH deposits, leveraged, options, C2C, records.
    await page.goto('/web/assets/index');
    const centre = page.getByTestId('assets-centre-menu');
    await centre.waitFor();
    const links = await centre.getByRole('link').evaluateAll((all) => all.map((link) => [link.textContent, link.getAttribute('href')]));
    expect(links).toEqual([
      ['OTC (P2P)', '/trade/shopping'],
      ['Wallet', '/web/assets/index'],
      ['USDT deposit', '/assets/recharge?channel=USDT-TRC20'],
      ['BTC deposit', '/assets/recharge?channel=BTC'],
      ['ETH deposit', '/assets/recharge?channel=ETH'],
      ['Leveraged', '/web/trade/LeveragedTrading'],
      ['Options', '/trade'],
      ['C2C', '/assets/recharge?via=c2c'],
      ['Transaction records', '/assets/records'],
    ]);
    expect(await centre.getByTestId('assets-menu-wallet').getAttribute('aria-current')).toBe('page');
    // Each opens its page.
    await centre.getByTestId('assets-menu-records').click();
    await expect.poll(() => pathOf(page), eventually).toBe('/assets/records');

    // The account's menu.
    await page.goto('/web/my/setting');
    const account = page.getByTestId('account-menu');
    await account.waitFor();
    expect(await account.getByRole('link').evaluateAll((all) => all.map((link) => link.getAttribute('href')))).toEqual(['/web/my/index', '/web/my/setting', '/web/my/Contact_list']);
    // The menus are the way around: the phone page's "back" arrow (to /my) is not shown in the frame.
    await page.getByTestId('setting-wallet').waitFor();
    expect(await page.locator('.page-back').count()).toBe(0);
  });

  it('places a futures order from the three-column futures screen', async () => {
    context = await desktopContext();
    const page = await context.newPage();
    await putSessionOnDevice(page, user);
    await page.goto(`/web/trade/FuturesTrading?symbol=${encodeURIComponent(BTC)}`);
    await expect.poll(() => page.getByTestId('leverage-symbol-picker').inputValue()).toBe(BTC);
    await expect.poll(() => page.getByTestId('leverage-last-price').first().textContent()).toBe('60,000.00');

    // Three columns side by side: the markets, the market and its chart, the order form; the positions below the first two.
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const markets = await box('.desktop-trade-markets');
    const centre = await box('.desktop-trade-centre');
    const order = await box('.desktop-trade-order');
    const below = await box('.desktop-trade-below');
    expect(markets.x + markets.width).toBeLessThanOrEqual(centre.x);
    expect(centre.x + centre.width).toBeLessThanOrEqual(order.x);
    expect(below.y).toBeGreaterThanOrEqual(Math.max(centre.y + centre.height, markets.y + markets.height) - 1);
    expect(below.x + below.width).toBeLessThanOrEqual(order.x);
    expect(await page.getByTestId('desktop-market-BTCUSDT').getAttribute('aria-current')).toBe('page');

    await page.getByTestId('leverage-side-long').click();
    await page.getByTestId('leverage-margin').fill('100');
    await page.getByTestId('leverage-preset-20').click();
    await page.getByTestId('leverage-review').click();
    await page.getByTestId('leverage-disclosure').waitFor();
    await page.getByTestId('leverage-disclosure-check').check();
    await page.getByTestId('leverage-disclosure-accept').click();
    const sheet = page.getByTestId('leverage-confirm-sheet');
    await sheet.waitFor();
    expect(await sheet.getByTestId('leverage-confirm-leverage').textContent()).toBe('20x');
    // An order opens on a price recorded within the last 5 s.
    await recordKnownTicks(server, [{ symbol: BTC, price: '60000', source: 'test-feed' }]);
    await page.getByTestId('leverage-confirm').click();
    await page.getByTestId('leverage-position').waitFor();
    expect(await page.getByTestId('leverage-opened').first().textContent()).toMatch(/^Position F\d{16} opened\.$/);
    const stored = await server.db.query<{ product: string; user_id: string }>('SELECT product, user_id::text AS user_id FROM leverage_positions');
    expect(stored).toEqual([{ product: 'futures', user_id: user.userId }]);
    // Still on the desktop screen.
    expect(pathOf(page)).toBe(`/web/trade/FuturesTrading?symbol=${encodeURIComponent(BTC)}`);
  });

  it('switches by width: a phone on /web/… gets the mobile page; a wide screen is offered the desktop page and the choice is remembered', async () => {
    // Narrow: the matching mobile page, the address replaced.
    context = await newPhoneContext(browser, server.baseUrl);
    const phone = await context.newPage();
    await putSessionOnDevice(phone, user);
    await phone.goto(`/web/trade/FuturesTrading?symbol=${encodeURIComponent(BTC)}`);
    await expect.poll(() => pathOf(phone), eventually).toBe(`/trade/futures?symbol=${encodeURIComponent(BTC)}`);
    await phone.getByTestId('leverage-review').waitFor();
    await phone.goto('/web/index/Terms');
    await expect.poll(() => pathOf(phone), eventually).toBe('/terms');
    // A phone is never offered the desktop site.
    await phone.goto('/assets');
    await phone.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await phone.getByTestId('desktop-offer').count()).toBe(0);
    await context.close();

    // Wide, no choice yet: the mobile page stays, with the offer.
    context = await desktopContext();
    const page = await context.newPage();
    await putSessionOnDevice(page, user);
    await page.goto('/assets');
    await page.getByTestId('desktop-offer').waitFor();
    expect(pathOf(page)).toBe('/assets');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('desktop-offer-open').click();
    await page.getByTestId('desktop-page-assets').waitFor();
    expect(pathOf(page)).toBe('/web/assets/index');
    expect(await storage(page, 'site-choice')).toBe('desktop');

    // Remembered: a mobile page opens as its desktop page, the query kept.
    await page.goto('/trade/leveraged?symbol=BTCUSDT');
    await expect.poll(() => pathOf(page), eventually).toBe('/web/trade/LeveragedTrading?symbol=BTCUSDT');
    await page.goto('/helpcenter');
    await expect.poll(() => pathOf(page), eventually).toBe('/web/helpCenter/index');
    // A page with no desktop page keeps its phone column, under the desktop header.
    await page.goto('/trade/shopping');
    await page.getByTestId('desktop-header-menu').waitFor();
    expect(pathOf(page)).toBe('/trade/shopping');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    const column = await page.getByRole('main').boundingBox();
    expect(column!.width).toBeLessThan(700);
    const header = await page.locator('header.desktop-header').boundingBox();
    expect(header!.width).toBeGreaterThan(1400);
    await page.goto('/helpcenter');
    await expect.poll(() => pathOf(page), eventually).toBe('/web/helpCenter/index');

    // The footer's "mobile site" goes back, and that is remembered too: no offer, no redirect.
    await page.getByTestId('desktop-mobile-site').click();
    await expect.poll(() => pathOf(page), eventually).toBe('/helpcenter');
    expect(await storage(page, 'site-choice')).toBe('mobile');
    await page.goto('/assets');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(pathOf(page)).toBe('/assets');
    expect(await page.getByTestId('desktop-offer').count()).toBe(0);

    // "Keep the mobile site" on the offer is a choice as well.
    await page.evaluate(() => localStorage.removeItem('site-choice'));
    await page.goto('/my');
    await page.getByTestId('desktop-offer-stay').click();
    expect(await storage(page, 'site-choice')).toBe('mobile');
    expect(await page.getByTestId('desktop-offer').count()).toBe(0);
  });

  it('shows a desktop page in Arabic right to left, the side menu at the inline start (the right)', async () => {
    context = await desktopContext();
    const page = await context.newPage();
    await putSessionOnDevice(page, user);
    await page.evaluate(() => localStorage.setItem('lang', 'ar'));
    await page.goto('/web/assets/index');
    await page.getByTestId('desktop-page-assets').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await expect.poll(() => page.getByTestId('assets-menu-records').textContent()).toBe('سجل المعاملات');
    const menu = (await page.getByTestId('assets-centre-menu').boundingBox())!;
    const content = (await page.getByTestId('desktop-page-assets').boundingBox())!;
    expect(menu.x).toBeGreaterThan(content.x);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
