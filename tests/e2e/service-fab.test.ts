import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn, storage } from './helpers/browser.ts';
import { type E2eServer, registerUser, SERVICE_URL, startServer, uniqueUsername } from './helpers/server.ts';

// The floating customer-service button of spec sections 2 and 9.

const VIEWPORT_WIDTH = 390;
const EDGE_TOLERANCE_PX = 12;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let session: { token: string; userId: string };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  session = await registerUser(server.baseUrl, uniqueUsername('fab'));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

async function openWithFab(path = '/index'): Promise<Page> {
  context = await newPhoneContext(browser, server.baseUrl);
  // The service site is outside the test: the browser gets a stand-in page instead.
  await context.route('https://support.keel.example/**', (route) =>
    route.fulfill({ body: '<h1>support</h1>', contentType: 'text/html' }),
  );
  const page = await openLoggedIn(context, session, path);
  await page.getByTestId('service-fab').waitFor();
  return page;
}

async function box(page: Page) {
  const found = await page.getByTestId('service-fab').boundingBox();
  if (!found) throw new Error('the service button has no box');
  return found;
}

/** Presses the button in its centre, moves the pointer by (dx, dy) in steps, and releases. */
async function drag(page: Page, dx: number, dy: number) {
  const start = await box(page);
  const x = start.x + start.width / 2;
  const y = start.y + start.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
}

/** The box once the snap animation has finished (two equal readings in a row). */
async function settledBox(page: Page) {
  let previous = await box(page);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await page.waitForTimeout(60);
    const current = await box(page);
    if (current.x === previous.x && current.y === previous.y) return current;
    previous = current;
  }
  return previous;
}

describe('floating customer-service button', () => {
  it('is a 60 px round button', async () => {
    const page = await openWithFab('/index');
    const { width, height } = await box(page);
    expect(width).toBe(60);
    expect(height).toBe(60);
    expect(await page.getByTestId('service-fab').evaluate((element) => getComputedStyle(element).borderRadius)).toBe('50%');
  });

  // Issue 14: a visitor who cannot log in needs customer service most. The spec puts the button on
  // every page whose path has no /trade, public pages included, and the service URL is public.
  it('is on the public pages too, and opens the service URL without a session', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    await context.route('https://support.keel.example/**', (route) => route.fulfill({ body: '<h1>support</h1>', contentType: 'text/html' }));
    const page = await context.newPage();
    for (const path of ['/register', '/forget', '/agreement', '/login']) {
      await page.goto(path);
      await page.getByTestId('service-fab').waitFor();
    }
    expect(await storage(page, 'token')).toBeNull();
    const serviceCall = page.waitForResponse((response) => new URL(response.url()).pathname === '/home/index/serviceurl');
    await page.getByTestId('service-fab').click();
    // Asked without a token, and answered: the page goes on to the URL the server gave.
    expect((await serviceCall).request().headers().authorization).toBeUndefined();
    await page.waitForURL(SERVICE_URL);
    expect(await page.locator('h1').textContent()).toBe('support');
  });

  it('starts at the bottom edge, just above the tab bar, and covers no content there', async () => {
    const page = await openWithFab('/index');
    const start = await settledBox(page);
    const tabBar = await page.locator('.tab-bar').boundingBox();
    if (!tabBar) throw new Error('no tab bar');
    // Its bottom edge 8 px above the tab bar, at the inline end.
    expect(Math.abs(start.y + start.height + 8 - tabBar.y)).toBeLessThanOrEqual(1);
    expect(start.x + start.width).toBeGreaterThanOrEqual(VIEWPORT_WIDTH - EDGE_TOLERANCE_PX);
    // Scrolled to the end, the page's last content ends above the button.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(() => page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight))
      .toBe(true);
    const lastCard = await page.locator('.tab-content .card').last().boundingBox();
    if (!lastCard) throw new Error('no content');
    expect(lastCard.y + lastCard.height).toBeLessThanOrEqual(start.y);
    // On a page without a tab bar it starts at the same place.
    await page.goto('/message');
    await page.getByTestId('page-message').waitFor();
    const elsewhere = await settledBox(page);
    expect(Math.abs(elsewhere.y - start.y)).toBeLessThanOrEqual(1);
  });

  it('opens the service URL on a click', async () => {
    const page = await openWithFab('/index');
    await page.getByTestId('service-fab').click();
    await page.waitForURL(SERVICE_URL);
    expect(await page.locator('h1').textContent()).toBe('support');
  });

  it('does not open the service URL when dragged', async () => {
    const page = await openWithFab('/my');
    const before = page.url();
    await drag(page, -100, 0);
    // Longer than the 250 ms suppression window, so a late click would have had time to navigate.
    await page.waitForTimeout(600);
    expect(page.url()).toBe(before);
  });

  it('counts a movement of at most 6 px as a click', async () => {
    const page = await openWithFab('/index');
    await drag(page, 4, 3);
    await page.waitForURL(SERVICE_URL);
  });

  it('snaps to the nearer edge, keeps the vertical position, and remembers it after a reload', async () => {
    const page = await openWithFab('/index');
    const start = await settledBox(page);
    // It starts at the right edge.
    expect(start.x + start.width).toBeGreaterThanOrEqual(VIEWPORT_WIDTH - EDGE_TOLERANCE_PX);

    // Dragged into the left half, it snaps to the left edge at the height it was dropped.
    await drag(page, -(start.x + start.width / 2 - 80), -150);
    const left = await settledBox(page);
    expect(left.x).toBeLessThanOrEqual(EDGE_TOLERANCE_PX);
    expect(left.x).toBeGreaterThanOrEqual(0);
    expect(Math.abs(left.y - (start.y - 150))).toBeLessThanOrEqual(1);
    const stored = JSON.parse((await storage(page, 'fab-position')) ?? 'null') as { side: string; top: number };
    expect(stored.side).toBe('left');
    expect(Math.abs(stored.top - left.y)).toBeLessThanOrEqual(1);
    expect(new URL(page.url()).pathname).toBe('/index');

    // The position survives a reload.
    await page.reload();
    await page.getByTestId('service-fab').waitFor();
    const reloaded = await settledBox(page);
    expect(reloaded.x).toBeLessThanOrEqual(EDGE_TOLERANCE_PX);
    expect(Math.abs(reloaded.y - left.y)).toBeLessThanOrEqual(1);

    // Dragged just past the middle towards the right, it snaps to the right edge.
    await drag(page, VIEWPORT_WIDTH / 2 - (reloaded.x + reloaded.width / 2) + 20, 40);
    const right = await settledBox(page);
    expect(right.x + right.width).toBeGreaterThanOrEqual(VIEWPORT_WIDTH - EDGE_TOLERANCE_PX);
    expect(right.x + right.width).toBeLessThanOrEqual(VIEWPORT_WIDTH);
    expect(Math.abs(right.y - (left.y + 40))).toBeLessThanOrEqual(1);
    expect(JSON.parse((await storage(page, 'fab-position')) ?? 'null').side).toBe('right');
    expect(new URL(page.url()).pathname).toBe('/index');
  });

  it('stays inside the viewport when dropped beyond its bottom', async () => {
    const page = await openWithFab('/index');
    await drag(page, 0, 2000);
    const dropped = await settledBox(page);
    expect(dropped.y + dropped.height).toBeLessThanOrEqual(844);
  });

  it('is absent on every path that contains /trade', async () => {
    const page = await openWithFab('/index');
    // /trade_{id} names a listed market (issue 7).
    for (const path of ['/trade', '/trade_BTCUSDT']) {
      await page.goto(path);
      await expect.poll(() => page.locator('h1').first().textContent()).toBe('Trade');
      expect(await page.getByTestId('service-fab').count()).toBe(0);
    }
    // And back again once the path no longer contains /trade.
    await page.getByTestId('tab-news').click();
    await page.getByTestId('service-fab').waitFor();
  });
});
