import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { optionsTrader } from '../../apps/server/test/integration/options/options-helpers.ts';
import { launchBrowser } from './helpers/browser.ts';
import { callApi, createStaff, staffLogin } from './helpers/identity.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 7 in the back-office: the read-only Contracts view. A user's order is placed and settled by
// the server's own settler from recorded ticks (the house pays 80 USDT on a won 100 USDT order);
// finance staff see the house's result and the order with both ticks, support staff see the orders
// but not the house, and staff with neither role are not offered the view. Nothing in it acts.

const BTC = 'BTC/USDT';

// The server's clock: real time plus this offset; the test moves it past the order's expiry.
const clock = { offsetMs: 0 };
let server: E2eServer;
let browser: Browser;
let staffContext: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded', clock }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await staffContext?.close();
  staffContext = undefined;
});

/** A staff member's back-office, in UTC so tick times read exactly as the test computes them. */
async function staffPage(staff: { username: string; password: string }): Promise<Page> {
  staffContext = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  staffContext.setDefaultTimeout(10_000);
  const page = await staffContext.newPage();
  await staffLogin(page, staff);
  return page;
}

/** How the back-office writes a time with milliseconds (format.ts formatEpochMs), in UTC. */
function shownAt(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '/')} ${iso.slice(11, 23)}`;
}

type Tick = { tickId: string; price: string; atMs: number; source: string };
type Order = { id: string; orderNo: string; status: string; expiresAtMs: number; openTick: Tick; closeTick: Tick | null; actualProfit: string | null };

/** Places an order through the API as the app does (with its Idempotency-Key). */
async function placeOrder(token: string, body: Record<string, unknown>): Promise<Order> {
  const response = await fetch(`${server.baseUrl}/home/options/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: Order };
  if (answer.code !== 200) throw new Error(`place: ${answer.msg}`);
  return answer.data;
}

const text = (scope: Page | ReturnType<Page['getByTestId']>, testId: string) => scope.getByTestId(testId).first().textContent();

/** The four fields of a tick cell: price, time, source and tick id. */
async function tickShown(row: ReturnType<Page['getByTestId']>, prefix: 'open-tick' | 'close-tick') {
  return {
    price: await text(row, `${prefix}-price`),
    time: await text(row, `${prefix}-time`),
    source: await text(row, `${prefix}-source`),
    id: await text(row, `${prefix}-id`),
  };
}

describe('the Contracts view (read only)', () => {
  let trader: { token: string; userId: string; username: string };
  let order: Order;

  it('finance staff see the open order, then the house paying a win from recorded ticks, with both ticks', async () => {
    trader = await optionsTrader(server.app, server.db, uniqueUsername('opttrader'));
    const [opening] = await recordKnownTicks(server, [{ symbol: BTC, price: '50000', atMs: server.now().getTime() }]);
    order = await placeOrder(trader.token, { symbol: BTC, direction: 'up', cycleSeconds: 30, amount: '100' });
    expect(order).toMatchObject({ status: 'open', openTick: { tickId: opening!.tickId.toString(), price: '50000.00000000' } });

    const finance = await createStaff(server, 'optfinance1', ['finance']);
    const page = await staffPage(finance);
    await page.getByRole('link', { name: 'Contracts', exact: true }).click();
    const view = page.getByTestId('options-page');
    expect(await text(view, 'options-read-only')).toContain('No staff action can set a price, a tick or a result');

    // Open: staked and at risk, no closing tick yet, no result.
    await view.getByTestId('options-house').waitFor();
    expect(await text(view, 'house-balance')).toBe('0.000000');
    expect(await text(view, 'house-open-count')).toBe('1');
    expect(await text(view, 'house-open-staked')).toBe('100.000000');
    expect(await text(view, 'house-max-payout')).toBe('80.000000');
    await view.getByTestId('house-by-day-empty').waitFor();
    const row = view.getByTestId(`option-row-${order.id}`);
    await row.waitFor();
    expect(await text(row, 'order-status')).toBe('Open');
    expect(await text(row, 'close-tick')).toBe('Not yet: the first tick recorded at or after expiry');
    expect(await row.getByTestId('order-profit').count()).toBe(0);

    // Past expiry on the server's clock, a higher tick is recorded: the server's settler pays the win.
    clock.offsetMs += 31_000;
    const [closing] = await recordKnownTicks(server, [{ symbol: BTC, price: '50100', atMs: order.expiresAtMs + 500 }]);
    await expect
      .poll(async () => (await callApi<Order>(server, 'GET', `/home/options/orders/${order.id}`, trader.token)).data.status, { timeout: 10_000 })
      .toBe('won');

    await view.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => text(view, 'house-balance')).toBe('-80.000000');
    expect(await view.getByTestId('house-balance').getAttribute('class')).toContain('signed-negative');
    expect(await text(view, 'house-result')).toBe('-80.000000');
    expect(await view.getByTestId('house-mismatch').count()).toBe(0);
    expect(await text(view, 'house-settled-count')).toBe('1');
    expect(await text(view, 'house-won')).toBe('1');
    expect(await text(view, 'house-lost')).toBe('0');
    expect(await text(view, 'house-flat')).toBe('0');
    expect(await text(view, 'house-void')).toBe('0');
    expect(await text(view, 'house-staked')).toBe('100.000000');
    expect(await text(view, 'house-paid')).toBe('80.000000');
    expect(await text(view, 'house-taken')).toBe('0.000000');
    expect(await text(view, 'house-open-count')).toBe('0');
    expect(await text(view, 'house-max-payout')).toBe('0.000000');
    const today = server.now().toISOString().slice(0, 10);
    const day = view.getByTestId(`house-day-${today}`);
    expect(await day.textContent()).toBe(`${today}1-80.000000 USDT`);

    // The order: won, the user's +80, and both ticks exactly as recorded.
    await expect.poll(() => text(row, 'order-status')).toBe('Won');
    expect(await text(row, 'order-no')).toBe(order.orderNo);
    expect(await text(row, 'order-user')).toBe(`#${trader.userId}`);
    expect(await text(row, 'order-stake')).toBe('100.000000');
    expect(await text(row, 'order-profit')).toBe('+80.000000');
    expect(await row.getByTestId('order-profit').getAttribute('class')).toContain('signed-positive');
    expect(await tickShown(row, 'open-tick')).toEqual({
      price: '50000.00000000',
      time: shownAt(opening!.atMs),
      source: 'test',
      id: opening!.tickId.toString(),
    });
    expect(await tickShown(row, 'close-tick')).toEqual({
      price: '50100.00000000',
      time: shownAt(order.expiresAtMs + 500),
      source: 'test',
      id: closing!.tickId.toString(),
    });
    expect(await text(row, 'order-expires')).toBe(shownAt(order.expiresAtMs));

    // Filters: by status (at once) and by user id (on submit); a malformed id is refused in the form.
    const status = view.getByLabel('Status', { exact: true });
    await status.selectOption('lost');
    await view.getByTestId('options-orders-empty').waitFor();
    await status.selectOption('won');
    await row.waitFor();
    const user = view.getByLabel('User ID', { exact: true });
    await user.fill('12x');
    await view.getByRole('button', { name: 'Filter' }).click();
    expect(await view.getByRole('alert').textContent()).toBe('A user ID is a whole number, such as 42.');
    await user.fill(String(BigInt(trader.userId) + 1000n));
    await view.getByRole('button', { name: 'Filter' }).click();
    await view.getByTestId('options-orders-empty').waitFor();
    await user.fill(trader.userId);
    await view.getByRole('button', { name: 'Filter' }).click();
    await row.waitFor();
    // One order, said in the singular (issue 14: it read "1 orders" before ICU plurals).
    expect(await view.getByText('1 order, newest first').count()).toBe(1);

    // Read only: the view's only buttons filter, refresh and page; nothing sets a price, tick or result.
    expect(await view.getByRole('button').allTextContents()).toEqual(['Filter', 'Refresh', 'Previous', 'Next']);
    expect(await view.locator('textarea, input:not([name="userId"])').count()).toBe(0);
  });

  it('support staff see every order with both ticks but not the house; other roles are not offered the view', async () => {
    expect(order?.status).toBeDefined();
    const support = await createStaff(server, 'optsupport1', ['support']);
    const page = await staffPage(support);
    await page.getByRole('link', { name: 'Contracts', exact: true }).click();
    const view = page.getByTestId('options-page');
    const row = view.getByTestId(`option-row-${order.id}`);
    await row.waitFor();
    expect(await text(row, 'order-status')).toBe('Won');
    expect((await tickShown(row, 'open-tick')).price).toBe('50000.00000000');
    expect((await tickShown(row, 'close-tick')).price).toBe('50100.00000000');
    expect(await view.getByTestId('options-house').count()).toBe(0);
    expect(await view.getByRole('alert').count()).toBe(0);
    expect(await text(view, 'options-read-only')).toContain('No staff action can set a price, a tick or a result');
    // The server refuses the house to support staff anyway.
    const token = await page.evaluate(() => localStorage.getItem('staffToken'));
    expect((await callApi(server, 'GET', '/home/admin/options/house', token)).code).toBe(403);

    await staffContext!.close();
    const compliance = await createStaff(server, 'optcompliance1', ['compliance']);
    const other = await staffPage(compliance);
    expect(await other.getByRole('link', { name: 'Contracts', exact: true }).count()).toBe(0);
  });
});
