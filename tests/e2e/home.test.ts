import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 14, "fix while moving": the home page shows the user's total in USDT, the quick actions,
// the market movers and a link to every feature area that exists (none to a page that does not);
// /news/OrderDeyail is the announcements list, public (issue 20; it replaced ADR 0029's placeholder).

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
const HOUR = 3_600_000;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded' }), launchBrowser()]);
  // Known 24 h changes: SOL +50 %, BTC +10 %, ETH −10 %, XRP +1 %.
  const now = Date.now();
  const opening = now - 2 * HOUR;
  const last = now - 60_000;
  await recordKnownTicks(server, [
    { symbol: 'BTC/USDT', price: '60000', atMs: opening, source: 'test-feed' },
    { symbol: 'ETH/USDT', price: '3000', atMs: opening, source: 'test-feed' },
    { symbol: 'SOL/USDT', price: '100', atMs: opening, source: 'test-feed' },
    { symbol: 'XRP/USDT', price: '2', atMs: opening, source: 'test-feed' },
    { symbol: 'BTC/USDT', price: '66000', atMs: last, source: 'test-feed' },
    { symbol: 'ETH/USDT', price: '2700', atMs: last, source: 'test-feed' },
    { symbol: 'SOL/USDT', price: '150', atMs: last, source: 'test-feed' },
    { symbol: 'XRP/USDT', price: '2.02', atMs: last, source: 'test-feed' },
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

describe('home page', () => {
  it('shows the total in USDT, the quick actions, the market movers, and leads only to pages that exist', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('home'));
    await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: '100' });
    await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: '20', kind: 'options' });
    await fundUser(server.db, { userId: user.userId, asset: 'BTC', amount: '0.5' });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/index');

    // 100 + 20 USDT and 0.5 BTC at 66,000: every account, valued as the assets tab values it.
    await expect.poll(() => text(page, 'home-total-usdt')).toBe('33,120.00 USDT');
    expect(await page.getByTestId('home-total').getAttribute('href')).toBe('/assets');
    // Nothing says that deposits, withdrawals or trading are closed: they are open.
    expect(await page.locator('main').textContent()).not.toContain('not open yet');

    const actions = page.getByTestId('home-actions').getByRole('link');
    expect(await actions.allTextContents()).toEqual(['Deposit', 'Withdraw', 'Transfer', 'Exchange', 'Trade']);
    expect(await Promise.all((await actions.all()).map((link) => link.getAttribute('href')))).toEqual([
      '/assets/recharge',
      '/assets/withdraw',
      '/assets/transfer',
      '/assets/flashExchange',
      '/trade',
    ]);

    // The three largest 24 h changes, whichever way; each opens its market's trade screen.
    const movers = page.getByTestId('home-movers').getByRole('link');
    await expect.poll(() => movers.count()).toBe(3);
    expect(await Promise.all((await movers.all()).map((link) => link.getAttribute('href')))).toEqual(['/trade_SOLUSDT', '/trade_BTCUSDT', '/trade_ETHUSDT']);
    expect(await page.getByTestId('mover-SOL-USDT').getByTestId('mover-change').textContent()).toBe('▲+50.00%');
    expect(await page.getByTestId('mover-ETH-USDT').getByTestId('mover-change').textContent()).toBe('▼-10.00%');
    expect(await page.getByTestId('mover-BTC-USDT').getByTestId('mover-price').textContent()).toBe('66,000.00');

    // A new price moves the total and the movers live, over /ws.
    await recordKnownTicks(server, [{ symbol: 'BTC/USDT', price: '70000', source: 'test-feed' }]);
    await expect.poll(() => text(page, 'home-total-usdt')).toBe('35,120.00 USDT');
    await expect.poll(() => page.getByTestId('mover-BTC-USDT').getByTestId('mover-change').textContent()).toBe('▲+16.67%');

    // Every feature area it links to is a page that exists.
    const areas = page.getByTestId('home-areas').getByRole('link');
    const hrefs = await Promise.all((await areas.all()).map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining(['/trade/shopping', '/orderlist', '/trade', '/Lockup', '/message', '/person/authentication', '/person/setting']));
    for (const href of hrefs) {
      await page.getByTestId('home-areas').locator(`a[href="${href}"]`).click();
      await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
      await page.locator('h1').first().waitFor();
      expect(await page.getByTestId('not-found-page').count(), href!).toBe(0);
      expect(await page.getByTestId('error-page').count(), href!).toBe(0);
      await page.goBack();
      await page.getByTestId('home-areas').waitFor();
    }
  });
});

describe('/news/OrderDeyail', () => {
  it('is the list of announcements (issue 20, ADR 0044), public: a visitor reads it without a session', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/news/OrderDeyail');
    await page.getByTestId('page-announcements').waitFor();
    expect(new URL(page.url()).pathname).toBe('/news/OrderDeyail');
    expect(await page.locator('h1').first().textContent()).toBe('Announcements');
    expect(await page.getByTestId('not-found-page').count()).toBe(0);
    // This server has no content: the list says so, and leads to industry news.
    expect(await text(page, 'content-list-empty')).toBe('No announcements yet.');
    expect(await page.getByTestId('announcements-industry').getAttribute('href')).toBe('/industrynews');
  });
});
