import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// The swap (flash exchange and conversion) in the browser: a live 10 s quote priced from recorded
// ticks, its expiry, a new quote, the server's fresh quote on a late confirmation, and the result
// in the balances and the records.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded' }), launchBrowser()]);
});

/** The id of the BTC/USDT tick recorded for the current test. */
let btcTickId: string;

// Known prices, recorded fresh for each test (a quote refuses a price older than 30 s), so every
// figure of a quote can be checked.
beforeEach(async () => {
  const [btc] = await recordKnownTicks(server, [
    { symbol: 'BTC/USDT', price: '64000', source: 'test-feed' },
    { symbol: 'ETH/USDT', price: '3200', source: 'test-feed' },
  ]);
  btcTickId = btc!.tickId.toString();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();
const quoteId = (page: Page) => page.getByTestId('swap-quote').getAttribute('data-quote-id');

function countQuoteRequests(page: Page) {
  const counter = { quotes: 0, executions: 0 };
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/home/assets/swap/quote') counter.quotes += 1;
    if (path === '/home/assets/swap') counter.executions += 1;
  });
  return counter;
}

describe('flash exchange', () => {
  it('quotes live, expires after 10 s, quotes again, executes, and shows the result everywhere', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('swap'));
    await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: '1000' });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/assets');
    await page.getByTestId('action-exchange').click();
    await page.waitForURL((url) => url.pathname === '/assets/flashExchange');
    const calls = countQuoteRequests(page);
    expect(await text(page, 'swap-wallet')).toBe('Coin account');
    await expect.poll(() => text(page, 'swap-available')).toBe('1,000.00 USDT');

    // Spec section 5: a swap needs a quantity; checked before anything is sent.
    await page.getByTestId('swap-get-quote').click();
    await page.getByText('A swap needs a quantity').waitFor();
    expect(calls.quotes).toBe(0);

    await page.getByTestId('swap-to').selectOption('BTC');
    await page.getByTestId('swap-amount').fill('100');
    await page.getByTestId('swap-get-quote').click();
    await page.getByTestId('swap-quote').waitFor();
    const firstQuote = await quoteId(page);
    // 1 USDT = 1/64,000 BTC at the mid; 0.20 % spread; 0.1 % fee rounded up (ADR 0004).
    expect(await text(page, 'swap-mid-rate')).toBe('1 USDT = 0.000015625 BTC');
    expect(await text(page, 'swap-rate')).toBe('1 USDT = 0.00001559375 BTC');
    expect(await text(page, 'swap-spread')).toBe('0.20\u00a0% below the mid rate');
    expect(await text(page, 'swap-fee')).toBe('0.00000156 BTC');
    expect(await text(page, 'swap-estimate')).toBe('0.00155781 BTC');
    const tick = await text(page, 'swap-tick');
    expect(tick).toContain('BTC/USDT 64,000.00');
    expect(tick).toContain('test-feed');
    expect(tick).toContain(`tick ${btcTickId}`);

    // The countdown runs down from 10 s; at the end the quote cannot be confirmed.
    const seconds = Number(await page.getByTestId('swap-countdown').getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThanOrEqual(8);
    expect(seconds).toBeLessThanOrEqual(10);
    await expect.poll(async () => Number(await page.getByTestId('swap-countdown').getAttribute('data-seconds'))).toBeLessThan(seconds);
    expect(await page.getByTestId('swap-confirm').isEnabled()).toBe(true);
    await page.getByTestId('swap-expired').waitFor({ timeout: 12_000 });
    expect(await page.getByTestId('swap-confirm').isDisabled()).toBe(true);
    expect(calls.executions).toBe(0);

    // A new quote for the same swap, then confirm it.
    await page.getByTestId('swap-requote').click();
    await expect.poll(() => quoteId(page)).not.toBe(firstQuote);
    await page.getByTestId('swap-countdown').waitFor();
    await page.getByTestId('swap-confirm').click();
    await page.getByTestId('swap-result').waitFor();
    expect(await text(page, 'swap-result-received')).toBe('0.00155781 BTC');
    expect(await text(page, 'swap-result-from')).toBe('900.00 USDT');
    expect(await text(page, 'swap-result-to')).toBe('0.00155781 BTC');
    expect(calls.executions).toBe(1);
    await expect.poll(() => text(page, 'swap-available')).toBe('900.00 USDT');

    // The records show the swap as one entry with both legs signed.
    await page.getByRole('link', { name: 'See it in the records' }).click();
    await page.waitForURL((url) => url.pathname === '/assets/records');
    const swap = page.getByTestId('record').first();
    await expect.poll(() => swap.getAttribute('data-reason')).toBe('swap');
    expect(await swap.locator('.record-reason').textContent()).toBe('Exchange');
    expect(await swap.getByTestId('record-posting').allTextContents()).toEqual(['Coin account-100.00 USDT', 'Coin account+0.00155781 BTC']);
    const [row] = await server.db.query<{ id: bigint }>('SELECT id FROM swap_quotes WHERE executed_entry_id IS NOT NULL AND user_id = $1', [
      BigInt(user.userId),
    ]);
    expect(await swap.locator('.record-ref').textContent()).toContain(`Quote #${row!.id}`);

    // And the assets tab has the new balances.
    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-coin-BTC-available')).toBe('0.00155781');
    expect(await text(page, 'balance-coin-USDT-available')).toBe('900.00');
  });

  it('shows the server’s fresh quote when the quote ran out on its way', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('swaplate'));
    await fundUser(server.db, { userId: user.userId, asset: 'BTC', amount: '0.1' });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/assets/flashExchange');
    await page.getByTestId('swap-from').selectOption('BTC');
    await page.getByTestId('swap-to').selectOption('ETH');
    await page.getByTestId('swap-all').click();
    expect(await page.getByTestId('swap-amount').inputValue()).toBe('0.10000000');
    await page.getByTestId('swap-get-quote').click();
    await page.getByTestId('swap-quote').waitFor();
    const stale = await quoteId(page);

    // The server's clock has the quote expired although this device still counts down.
    await server.db.query(
      "UPDATE swap_quotes SET created_at = created_at - interval '1 minute', expires_at = expires_at - interval '1 minute' WHERE id = $1",
      [BigInt(stale!)],
    );
    await page.getByTestId('swap-confirm').click();
    await expect.poll(() => text(page, 'swap-notice')).toBe('The quote has expired. A new quote is shown.');
    const fresh = await quoteId(page);
    expect(fresh).not.toBe(stale);
    expect(await page.getByTestId('swap-result').count()).toBe(0);
    // 0.1 BTC at 64,000 / 3,200 = 2 ETH at the mid; less 0.20 % spread and 0.1 % fee.
    expect(await text(page, 'swap-estimate')).toBe('1.994004 ETH');

    await page.getByTestId('swap-confirm').click();
    await page.getByTestId('swap-result').waitFor();
    expect(await text(page, 'swap-result-received')).toBe('1.994004 ETH');
    expect(await text(page, 'swap-result-from')).toBe('0.00 BTC');
  });
});

describe('conversion', () => {
  it('swaps in the account the user picks', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('conv'));
    await fundUser(server.db, { userId: user.userId, asset: 'ETH', amount: '1', kind: 'fiat' });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/assets/conversion');
    await page.getByTestId('swap-account').selectOption('fiat');
    await page.getByTestId('swap-from').selectOption('ETH');
    await page.getByTestId('swap-to').selectOption('USDT');
    await expect.poll(() => text(page, 'swap-available')).toBe('1.00 ETH');
    await page.getByTestId('swap-amount').fill('0.5');
    await page.getByTestId('swap-get-quote').click();
    // 0.5 ETH × 3,200 × (1 − 0.20 %) = 1,596.8 USDT gross; fee 1.5968 → 1.596800.
    await expect.poll(() => text(page, 'swap-estimate')).toBe('1,595.2032 USDT');
    await page.getByTestId('swap-confirm').click();
    await page.getByTestId('swap-result').waitFor();
    expect(await text(page, 'swap-result-from')).toBe('0.50 ETH');
    expect(await text(page, 'swap-result-to')).toBe('1,595.2032 USDT');

    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-fiat-USDT-available')).toBe('1,595.2032');
    expect(await text(page, 'balance-coin-USDT-available')).toBe('0.00');
  });
});
