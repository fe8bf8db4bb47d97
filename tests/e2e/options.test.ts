import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { formatDateTime } from '../../apps/web/src/shared/format/time.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, pathOf, storage } from './helpers/browser.ts';
import { callApi } from './helpers/identity.ts';
import { freezeFunds, fundUser } from './helpers/ledger.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 7, the short-cycle contract trade screen in the browser: a verified user with USDT in the
// options account accepts the risk disclosure, opens an Up order on the 30 s cycle, watches its
// countdown, and sees it settle as won with both recorded ticks, without a reload (the server's
// clock is moved past expiry and a higher closing tick recorded; the push event brings the
// result). Also: the verification gate, a stake below the product's minimum, a refusal from the
// server shown in the confirmation, the market in the address, and the chart loaded on demand.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
/** The server's clock: real time plus this offset (the browser's clock is not moved). */
const clock = { offsetMs: 0 };

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

// A server (and database) per test: per market, observed times never go back (a tick older than
// the last recorded one is left out as stale), and the first test records a closing tick ahead of
// real time; a fresh database keeps each test's prices its own.
beforeEach(async () => {
  clock.offsetMs = 0;
  server = await startServer({ market: 'recorded', clock });
});

afterEach(async () => {
  await context?.close();
  await server?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();
const seconds = async (page: Page) => Number(await page.getByTestId('options-countdown').first().getAttribute('data-seconds'));
/**
 * Polls for up to 12 s: ample for a refresh brought by a push event, and short of the screen's
 * 30 s fallback poll, so a screen that stopped following events fails instead of passing slowly.
 */
const eventually = { timeout: 12_000, interval: 100 };

/** A verified user with `usdt` in the options account. */
async function trader(prefix: string, usdt = '1000') {
  const user = await registerUser(server.baseUrl, uniqueUsername(prefix));
  await verifyUser(server.db, user.userId);
  await fundUser(server.db, { userId: user.userId, kind: 'options', asset: 'USDT', amount: usdt });
  return user;
}

/** A fresh price (an order refuses a last price older than 5 s). */
const freshPrice = (price = '64000', symbol = 'BTC/USDT') => recordKnownTicks(server, [{ symbol, price, source: 'test-feed' }]);

/** Counts the order requests the page sends. */
function countOrders(page: Page) {
  const counter = { posts: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/home/options/orders') counter.posts += 1;
  });
  return counter;
}

describe('contract trade screen', () => {
  it('accepts the disclosure, opens an Up order, counts down and shows the won result with both ticks', async () => {
    const user = await trader('optwin');
    await freshPrice('64000');
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/trade');
    const orders = countOrders(page);

    // /trade shows the first listed market; its live price; the options balance.
    await expect.poll(() => page.getByTestId('options-symbol-picker').inputValue()).toBe('BTC/USDT');
    await expect.poll(() => text(page, 'options-price')).toBe('64,000.00');
    await expect.poll(() => text(page, 'options-available')).toBe('1,000.00 USDT');
    // The floating service button is not on the trade screen.
    expect(await page.getByTestId('service-fab').count()).toBe(0);
    // The tab's other trading stays reachable.
    expect(await page.getByTestId('trade-to-shop').getAttribute('href')).toBe('/trade/shopping');
    expect(await page.getByTestId('trade-to-orders').getAttribute('href')).toBe('/orderlist');

    // The 30 s cycle at 80 %: 100 USDT expects exactly 80 USDT, shown before confirming.
    await page.getByTestId('options-cycle-30').click();
    expect(await page.getByTestId('options-cycle-30').getAttribute('aria-pressed')).toBe('true');
    expect(await text(page, 'options-range')).toContain('10.00 – 5,000.00 USDT');
    await page.getByTestId('options-amount').fill('100');
    expect(await text(page, 'options-yield')).toBe('80.00 %');
    expect(await text(page, 'options-expected-profit')).toBe('80.00 USDT');

    // First order: the risk disclosure, accepted only with the box ticked.
    await page.getByTestId('options-direction-up').click();
    const disclosure = page.getByTestId('options-disclosure');
    await disclosure.waitFor();
    const disclosureText = await disclosure.textContent();
    expect(disclosureText).toContain('Keel keeps the whole stake');
    expect(disclosureText).toContain('on average users lose money');
    expect(disclosureText).toContain('Nobody at Keel can set a price or a result');
    expect(await page.getByTestId('options-disclosure-accept').isDisabled()).toBe(true);
    await page.getByTestId('options-disclosure-check').check();
    await page.getByTestId('options-disclosure-accept').click();

    // The confirmation states the order and the settlement rule; nothing was sent yet.
    const sheet = page.getByTestId('options-confirm-sheet');
    await sheet.waitFor();
    expect(await disclosure.count()).toBe(0);
    const [accepted] = await server.db.query<{ version: number }>('SELECT version FROM option_risk_disclosures WHERE user_id = $1', [BigInt(user.userId)]);
    expect(accepted?.version).toBe(1);
    expect(await text(page, 'options-confirm-symbol')).toBe('BTC/USDT');
    expect(await text(page, 'options-confirm-direction')).toBe('Up');
    expect(await text(page, 'options-confirm-cycle')).toBe('30 s');
    expect(await text(page, 'options-confirm-stake')).toBe('100.00 USDT');
    expect(await text(page, 'options-confirm-profit')).toBe('80.00 USDT');
    expect(await text(page, 'options-confirm-price')).toContain('64,000.00');
    expect(await text(page, 'options-rule')).toBe(
      'Closes at the first price recorded at or after expiry. Up wins if the close is above the open, down wins if below; equal returns your stake. If no price is recorded within 10 s of expiry the order is void and the stake returned.',
    );
    expect(orders.posts).toBe(0);
    const [placeTick] = await freshPrice('64000');
    await page.getByTestId('options-confirm').click();

    // The order in progress, counting down from 30 s.
    const open = page.getByTestId('options-open-order');
    await open.waitFor();
    expect(orders.posts).toBe(1);
    expect(await sheet.count()).toBe(0);
    expect(await text(page, 'options-placed')).toMatch(/^Order C\d{16} placed\.$/);
    const first = await seconds(page);
    expect(first).toBeGreaterThanOrEqual(27);
    expect(first).toBeLessThanOrEqual(30);
    await expect.poll(() => seconds(page), eventually).toBeLessThan(first);
    expect(await text(page, 'options-open-stake')).toBe('100.00 USDT');
    expect(await text(page, 'options-open-price')).toBe('64,000.00');
    expect(await text(page, 'options-open-profit')).toBe('80.00 USDT');
    await expect.poll(() => text(page, 'options-available')).toBe('900.00 USDT');

    // Expiry: the server's clock moves past it and a higher price is recorded after it.
    const [order] = await server.db.query<{ id: bigint; expires_at_ms: bigint; open_tick_id: bigint }>(
      'SELECT id, expires_at_ms, open_tick_id FROM option_orders WHERE user_id = $1',
      [BigInt(user.userId)],
    );
    expect(order!.open_tick_id.toString()).toBe(placeTick!.tickId.toString());
    const expiresAtMs = Number(order!.expires_at_ms);
    clock.offsetMs = expiresAtMs + 500 - Date.now();
    const [closeTick] = await recordKnownTicks(server, [{ symbol: 'BTC/USDT', price: '64100.5', source: 'close-feed', atMs: expiresAtMs + 200 }]);

    // Settled as won and shown without a reload: the push event brings it.
    const row = page.locator(`[data-testid="options-history-row"][data-order-id="${order!.id}"]`);
    await expect.poll(() => row.getAttribute('data-status', { timeout: 500 }).catch(() => null), eventually).toBe('won');
    expect(await page.getByTestId('options-open-order').count()).toBe(0);
    expect(await row.getByTestId('options-result').textContent()).toBe('Won');
    expect(await row.getByTestId('options-actual-profit').textContent()).toBe('+80.00 USDT');
    // Opened by itself: both ticks with time, price, source and id.
    const openFacts = row.getByTestId('options-open-tick');
    const closeFacts = row.getByTestId('options-close-tick');
    expect(await openFacts.isVisible()).toBe(true);
    expect(await closeFacts.isVisible()).toBe(true);
    expect(await openFacts.getByTestId('options-open-tick-price').textContent()).toBe('64,000.00');
    expect(await openFacts.getByTestId('options-open-tick-time').textContent()).toBe(formatDateTime(new Date(placeTick!.atMs).toISOString()));
    expect(await openFacts.textContent()).toContain('source test-feed');
    expect(await openFacts.getByTestId('options-open-tick-id').textContent()).toBe(`tick ${placeTick!.tickId}`);
    expect(await closeFacts.getByTestId('options-close-tick-price').textContent()).toBe('64,100.50');
    expect(await closeFacts.getByTestId('options-close-tick-time').textContent()).toBe(formatDateTime(new Date(expiresAtMs + 200).toISOString()));
    expect(await closeFacts.textContent()).toContain('source close-feed');
    expect(await closeFacts.getByTestId('options-close-tick-id').textContent()).toBe(`tick ${closeTick!.tickId}`);
    expect(await row.getByTestId('options-history-open-price').textContent()).toBe('64,000.00');
    expect(await row.getByTestId('options-history-close-price').textContent()).toBe('64,100.50');
    expect(await row.getByTestId('options-history-expected').textContent()).toBe('80.00 USDT');
    expect(await row.getByTestId('options-order-no').textContent()).toMatch(/^C\d{16}$/);
    // The stake back and the payout: 900 + 100 + 80.
    await expect.poll(() => text(page, 'options-available')).toBe('1,080.00 USDT');
    expect(await page.getByTestId('service-fab').count()).toBe(0);

    // The disclosure is asked only once.
    await freshPrice('64000');
    await page.getByTestId('options-amount').fill('10');
    await page.getByTestId('options-direction-down').click();
    await page.getByTestId('options-confirm-sheet').waitFor();
    expect(await page.getByTestId('options-disclosure').count()).toBe(0);
    expect(await text(page, 'options-confirm-direction')).toBe('Down');
    expect(await text(page, 'options-confirm-profit')).toBe('8.00 USDT');
  });

  it('shows an unverified user the verification notice instead of the form', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('optunv'));
    await fundUser(server.db, { userId: user.userId, kind: 'options', asset: 'USDT', amount: '100' });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/trade');
    await page.getByTestId('options-verify-notice').waitFor();
    expect(await text(page, 'options-verify-notice')).toContain('Identity verification needed');
    expect(await page.getByTestId('options-amount').count()).toBe(0);
    expect(await page.getByTestId('options-direction-up').count()).toBe(0);
    await page.getByTestId('options-verify-link').click();
    await page.waitForURL((url) => url.pathname === '/person/authentication');
  });

  it('refuses a stake below the product’s minimum before anything is sent', async () => {
    const user = await trader('optmin');
    await freshPrice();
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/trade_BTCUSDT');
    const orders = countOrders(page);
    await page.getByTestId('options-cycle-30').click();
    await page.getByTestId('options-amount').fill('5');
    // The expected profit is still exact for what was typed.
    expect(await text(page, 'options-expected-profit')).toBe('4.00 USDT');
    await page.getByTestId('options-direction-up').click();
    await page.getByRole('alert').filter({ hasText: 'Amount out of range' }).waitFor();
    expect(await page.getByTestId('options-range').getAttribute('data-problem')).toBe('belowMin');
    expect(await text(page, 'options-range')).toBe('Stake range: 10.00 – 5,000.00 USDT');
    expect(await page.getByTestId('options-disclosure').count()).toBe(0);
    expect(await page.getByTestId('options-confirm-sheet').count()).toBe(0);

    // Above the options balance: the amount check of every form.
    await page.getByTestId('options-amount').fill('1000.5');
    await page.getByTestId('options-direction-up').click();
    await page.getByText('This is more than the available balance').waitFor();
    expect(orders.posts).toBe(0);
  });

  it('shows the server’s refusal in the confirmation, translated', async () => {
    const user = await trader('optref', '50');
    await callApi(server, 'POST', '/home/options/disclosure', user.token, { version: 1 });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/trade_ethusdt');
    await expect.poll(() => page.getByTestId('options-symbol-picker').inputValue()).toBe('ETH/USDT');
    await expect.poll(() => text(page, 'options-available')).toBe('50.00 USDT');
    await page.getByTestId('options-amount').fill('40');
    await page.getByTestId('options-direction-down').click();
    await page.getByTestId('options-confirm-sheet').waitFor();
    // Meanwhile most of the balance is frozen elsewhere: the server refuses.
    await freezeFunds(server.db, { userId: user.userId, kind: 'options', asset: 'USDT', amount: '20' });
    await freshPrice('3200', 'ETH/USDT');
    await page.getByTestId('options-confirm').click();
    await expect.poll(() => text(page, 'options-order-error')).toBe('Insufficient balance');
    expect(await page.getByTestId('options-open-order').count()).toBe(0);
    // The balance shown is the server's again.
    await expect.poll(() => text(page, 'options-available')).toBe('30.00 USDT');
  });

  it('takes the market from the address, remembers the choice, and loads the chart on demand', async () => {
    const user = await trader('optaddr');
    await recordKnownTicks(server, [
      { symbol: 'BTC/USDT', price: '64000', source: 'test-feed', atMs: Date.now() - 120_000 },
      { symbol: 'BTC/USDT', price: '64050', source: 'test-feed', atMs: Date.now() - 60_000 },
      { symbol: 'BTC/USDT', price: '64020', source: 'test-feed' },
      { symbol: 'ETH/USDT', price: '3200', source: 'test-feed' },
    ]);
    context = await newPhoneContext(browser, server.baseUrl);
    const chartChunks: string[] = [];
    context.on('request', (request) => {
      if (/\/_app\/CandleChart-[^/]+\.js$/.test(new URL(request.url()).pathname)) chartChunks.push(request.url());
    });
    const page = await openLoggedIn(context, user, '/index');
    await page.getByTestId('service-fab').waitFor();
    // The chart library is not part of the app's first load.
    expect(chartChunks).toEqual([]);

    await page.getByTestId('tab-trade').click();
    await page.waitForURL((url) => url.pathname === '/trade');
    await expect.poll(() => page.getByTestId('options-symbol-picker').inputValue()).toBe('BTC/USDT');
    // The chart: its chunk, a canvas, and the recorded candles.
    await expect.poll(() => chartChunks.length).toBe(1);
    await page.getByTestId('options-chart').locator('canvas').first().waitFor();
    await expect.poll(async () => Number(await page.getByTestId('options-chart').getAttribute('data-candles'))).toBeGreaterThanOrEqual(2);
    await page.getByTestId('options-interval-1h').click();
    await expect.poll(() => page.getByTestId('options-chart').getAttribute('data-interval')).toBe('1h');
    await expect.poll(async () => Number(await page.getByTestId('options-chart').getAttribute('data-candles'))).toBeGreaterThanOrEqual(1);

    // Picking a market goes to its address; /trade then shows it again.
    await page.getByTestId('options-symbol-picker').selectOption('ETH/USDT');
    await page.waitForURL((url) => url.pathname === '/trade_ETHUSDT');
    await expect.poll(() => text(page, 'options-price')).toBe('3,200.00');
    expect(await storage(page, 'options-symbol')).toBe('ETH/USDT');
    expect(await page.getByTestId('options-chart').getAttribute('data-interval')).toBe('1h');

    // Kept live by the candles channel: a new price moves the current candle without a reload (the
    // channel may still be subscribing when the first tick is recorded, so the price is recorded
    // again until it arrives; only a pushed candle can bring it, nothing refetches over HTTP).
    const lastClose = () => page.getByTestId('options-chart').getAttribute('data-last-close');
    await expect.poll(lastClose).toMatch(/^3200\.0*$/);
    await expect
      .poll(async () => {
        await recordKnownTicks(server, [{ symbol: 'ETH/USDT', price: '3210.5', source: 'test-feed' }]);
        await page.waitForTimeout(300);
        return lastClose();
      }, eventually)
      .toMatch(/^3210\.50*$/);
    await expect.poll(() => text(page, 'options-price')).toBe('3,210.50');
    await page.getByTestId('tab-news').click();
    await page.getByTestId('tab-trade').click();
    await page.waitForURL((url) => url.pathname === '/trade');
    await expect.poll(() => page.getByTestId('options-symbol-picker').inputValue()).toBe('ETH/USDT');

    // Any case names the market; an id naming none is not found.
    await page.goto('/trade_btcusdt');
    await expect.poll(() => page.getByTestId('options-symbol-picker').inputValue()).toBe('BTC/USDT');
    expect(pathOf(page)).toBe('/trade_btcusdt');
    await page.goto('/trade_NOPEUSDT');
    await page.getByTestId('not-found-page').waitFor();
    expect(await page.getByTestId('tab-trade').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('service-fab').count()).toBe(0);
  });
});
