import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn, putSessionOnDevice } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// The market tab against the real market service running the simulator: prices that move over
// the push connection, the watchlist, and resume after a dropped connection.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

function countRequests(page: Page, path: string, method = 'GET') {
  const counter = { calls: 0 };
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) counter.calls += 1;
  });
  return counter;
}

describe('market tab', () => {
  it('lists every market and its price changes live over the push connection', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('mkt'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    const tickers = countRequests(page, '/home/market/tickers');
    // Every market has a recorded price before the page asks for the list: just after the server
    // starts one may not have yet, and the page then rightly asks again when its first tick comes.
    const pricedMarkets = async () => (await server.db.query<{ n: number }>('SELECT count(DISTINCT symbol)::int AS n FROM market_ticks'))[0]!.n;
    await expect.poll(pricedMarkets, { timeout: 10_000 }).toBe(server.market!.symbols.length);
    await putSessionOnDevice(page, user);
    await page.goto('/news');

    await expect.poll(() => page.getByTestId('market-list').locator('.market-row').count()).toBe(server.market!.symbols.length);
    await expect.poll(() => page.getByTestId('realtime-status').getAttribute('data-status')).toBe('open');
    expect(await text(page, 'realtime-status')).toBe('Live');

    const first = await text(page, 'price-BTC-USDT');
    expect(first).toMatch(/^\d{1,3}(,\d{3})*\.\d{2,8}$/);
    await expect.poll(() => text(page, 'price-BTC-USDT'), { timeout: 10_000 }).not.toBe(first);
    // The new prices came over /ws, not from asking the server again.
    expect(tickers.calls).toBe(1);

    // The 24 h change carries its sign and its colour follows it.
    for (const symbol of ['BTC-USDT', 'ETH-USDT']) {
      // Read together: the next tick may change both at any moment.
      const { shown, tone } = await page
        .getByTestId(`change-${symbol}`)
        .evaluate((element) => ({ shown: element.textContent ?? '', tone: element.className }));
      expect(shown).toMatch(/^[▲▼•][+-]?\d+\.\d{2}%$/u);
      if (shown.includes('+')) expect(tone).toContain('change-up');
      else if (shown.includes('-')) expect(tone).toContain('change-down');
      else expect(tone).toContain('change-flat');
    }
    // The shown price is a recorded tick: the server's latest, or one recorded just before it.
    const shown = (await text(page, 'price-ETH-USDT'))!.replaceAll(',', '');
    const [recorded] = await server.db.query<{ found: number }>(
      "SELECT count(*)::int AS found FROM market_ticks WHERE symbol = 'ETH/USDT' AND price = $1::numeric",
      [shown],
    );
    expect(recorded!.found).toBeGreaterThan(0);
  });

  it('keeps a watchlist with the star, on the server', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('watch'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/news');
    const saves = countRequests(page, '/home/market/watchlist', 'PUT');
    const star = page.getByTestId('star-ETH-USDT');
    await expect.poll(() => star.isEnabled()).toBe(true);
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    expect(await star.getAttribute('aria-label')).toBe('Add ETH/USDT to the watchlist');

    await page.getByTestId('view-watchlist').click();
    await page.getByTestId('market-empty').waitFor();
    await page.getByTestId('view-all').click();

    await star.click();
    await page.getByTestId('star-SOL-USDT').click();
    expect(await star.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => saves.calls).toBe(2);
    const watchlistOf = async () =>
      (await server.db.query<{ symbol: string }>(
        'SELECT w.symbol FROM market_watchlists w JOIN users u ON u.id = w.user_id WHERE u.username = $1 ORDER BY w.position',
        [user.username],
      )).map((row) => row.symbol);
    await expect.poll(watchlistOf).toEqual(['ETH/USDT', 'SOL/USDT']);

    await page.getByTestId('view-watchlist').click();
    await expect.poll(() => page.locator('.market-row').count()).toBe(2);
    // After a reload the view and the list are still there.
    await page.reload();
    await expect.poll(() => page.locator('.market-row').count()).toBe(2);
    expect(await page.getByTestId('view-watchlist').getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId('star-ETH-USDT').click();
    await page.getByTestId('star-SOL-USDT').click();
    await page.getByTestId('market-empty').waitFor();
    await expect.poll(watchlistOf).toEqual([]);
  });

  it('resumes after a dropped connection from the last tick it saw', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('resume'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    // Sit between the page and the server's /ws, recording what each side says.
    const connections: { route: WebSocketRoute; sent: unknown[]; lastTickId: bigint; paused: boolean }[] = [];
    await page.routeWebSocket(/\/ws$/, (route) => {
      const connection = { route, sent: [] as unknown[], lastTickId: 0n, paused: false };
      connections.push(connection);
      const upstream = route.connectToServer();
      route.onMessage((message) => {
        connection.sent.push(JSON.parse(String(message)));
        upstream.send(message);
      });
      upstream.onMessage((message) => {
        // A paused connection forwards nothing more: the page has seen exactly up to lastTickId.
        if (connection.paused) return;
        const frame = JSON.parse(String(message)) as { type: string; tick?: { tickId: string } };
        if (frame.type === 'tick' && frame.tick) connection.lastTickId = BigInt(frame.tick.tickId);
        route.send(message);
      });
    });
    // The newest tick of the market list the page read over HTTP.
    let snapshotTickId: bigint | undefined;
    page.on('response', async (response) => {
      if (!response.url().endsWith('/home/market/tickers')) return;
      const answer = (await response.json()) as { data: { items: { last: { tickId: string } }[] } };
      snapshotTickId = answer.data.items.reduce((max, item) => (BigInt(item.last.tickId) > max ? BigInt(item.last.tickId) : max), 0n);
    });
    await putSessionOnDevice(page, user);
    await page.goto('/news');
    // The first tick comes 0.2–0.6 s after the page's load event here; on a busy machine past the
    // poll's default second, so it gets the same allowance as the reconnection below.
    await expect.poll(() => connections[0]?.lastTickId ?? 0n, { timeout: 10_000 }).toBeGreaterThan(0n);
    // A logged-in page authenticates first (user events), then subscribes, asking for the ticks
    // recorded after the list it read: none between the list and the subscription is lost.
    const subscribeFrame = (connection: (typeof connections)[number]) => connection.sent.find((frame) => (frame as { op?: string }).op === 'subscribe');
    expect(snapshotTickId).toBeDefined();
    expect(subscribeFrame(connections[0]!)).toEqual({ op: 'subscribe', channels: ['ticks'], sinceTickId: snapshotTickId!.toString() });

    // The connection drops; the page reconnects by itself and asks for what it missed.
    connections[0]!.paused = true;
    const seen = connections[0]!.lastTickId;
    await connections[0]!.route.close({ code: 4000, reason: 'test drop' });
    await expect.poll(() => connections.length, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => subscribeFrame(connections[1]!)).toEqual({ op: 'subscribe', channels: ['ticks'], sinceTickId: seen.toString() });
    // Replayed and live ticks follow on, and the prices keep moving.
    await expect.poll(() => connections[1]!.lastTickId).toBeGreaterThan(seen);
    await expect.poll(() => page.getByTestId('realtime-status').getAttribute('data-status')).toBe('open');
    const before = await text(page, 'price-BTC-USDT');
    await expect.poll(() => text(page, 'price-BTC-USDT'), { timeout: 10_000 }).not.toBe(before);
  });
});

describe('assets at live prices', () => {
  it('values a BTC balance at the moving price', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('live'));
    await fundUser(server.db, { userId: user.userId, asset: 'BTC', amount: '1' });
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/assets');
    await page.getByTestId('total-usdt').waitFor();
    const first = await text(page, 'total-usdt');
    expect(first).toMatch(/^\d{1,3}(,\d{3})*\.\d{2} USDT$/);
    await expect.poll(() => text(page, 'total-usdt'), { timeout: 10_000 }).not.toBe(first);
  });
});
