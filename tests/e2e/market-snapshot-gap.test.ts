import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, putSessionOnDevice } from './helpers/browser.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// A price recorded after a screen read the market list over HTTP but before its push connection
// subscribed is not lost: the first subscription asks for the ticks after the list's newest
// (connection.ts, noteTickSnapshot). The test holds the page's socket back from the server until a
// new price is recorded, so the gap is certain rather than a matter of timing.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded' }), launchBrowser()]);
  await recordKnownTicks(server, [
    { symbol: 'BTC/USDT', price: '60000', source: 'test-feed' },
    { symbol: 'ETH/USDT', price: '3000', source: 'test-feed' },
  ]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

describe('a price recorded between the HTTP list and the push subscription', () => {
  it('reaches the page through the subscription, without another request', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('gap'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    let release!: () => void;
    const released = new Promise<void>((done) => {
      release = done;
    });
    const sent: unknown[] = [];
    await page.routeWebSocket(/\/ws$/, (route) => {
      // What the page says waits, in order, until the test releases it to the server.
      const upstream = route.connectToServer();
      upstream.onMessage((message) => route.send(message));
      let open = false;
      const waiting: (string | Buffer)[] = [];
      route.onMessage((message) => {
        sent.push(JSON.parse(String(message)));
        if (open) upstream.send(message);
        else waiting.push(message);
      });
      void released.then(() => {
        open = true;
        for (const message of waiting.splice(0)) upstream.send(message);
      });
    });
    let tickerRequests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/home/market/tickers') tickerRequests += 1;
    });
    await putSessionOnDevice(page, user);
    await page.goto('/news');
    await expect.poll(() => text(page, 'price-BTC-USDT')).toBe('60,000.00');
    // The page has subscribed (held back); a new price is recorded now, before the server hears it.
    await expect.poll(() => sent.some((frame) => (frame as { op?: string }).op === 'subscribe'), { timeout: 10_000 }).toBe(true);
    const [gapTick] = await recordKnownTicks(server, [{ symbol: 'BTC/USDT', price: '61000', source: 'test-feed' }]);
    release();
    await expect.poll(() => text(page, 'price-BTC-USDT'), { timeout: 10_000 }).toBe('61,000.00');
    const subscribe = sent.find((frame) => (frame as { op?: string }).op === 'subscribe') as { sinceTickId?: string };
    expect(BigInt(subscribe.sinceTickId!)).toBe(gapTick!.tickId - 1n);
    expect(tickerRequests).toBe(1);
  });
});
