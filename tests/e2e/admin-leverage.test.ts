import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTriggerPass } from '../../apps/server/src/use-cases/leverage/trigger-engine.ts';
import { leverageTrader } from '../../apps/server/test/integration/leverage/leverage-helpers.ts';
import { launchBrowser } from './helpers/browser.ts';
import { callApi, createStaff, staffLogin } from './helpers/identity.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 16 in the back-office: the read-only leverage views. Two users open futures positions at a
// recorded price; BTC gaps from 50,000 to 40,000 and the trigger engine liquidates the long at the
// mark price (the insurance fund bears the loss beyond its margin). Finance staff see both
// positions, the liquidated one with every event and its ticks, the house's exposure per market and
// side against the published limit, and the insurance fund with its balance and entry; support
// staff see the positions only; staff with neither role are offered none of it. Nothing in it acts.

const BTC = 'BTC/USDT';

let server: E2eServer;
let browser: Browser;
let staffContext: BrowserContext | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded' }), launchBrowser()]);
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
type Event = { id: string; kind: string; price: string | null; tick: Tick | null; markTickIds: string[] | null; insurance: string | null; entryId: string | null };
type Position = { id: string; positionNo: string; status: string; openedAtMs: number; openTick: Tick; events: Event[] };

/** Opens a position through the API as the app does (with its Idempotency-Key). */
async function openPosition(token: string, body: Record<string, unknown>): Promise<Position> {
  const response = await fetch(`${server.baseUrl}/home/leverage/positions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ product: 'futures', symbol: BTC, margin: '100', leverage: 20, ...body }),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: Position };
  if (answer.code !== 200) throw new Error(`open: ${answer.msg}`);
  return answer.data;
}

const text = (scope: Page | ReturnType<Page['getByTestId']>, testId: string) => scope.getByTestId(testId).first().textContent();

describe('the leverage views (read only)', () => {
  let alice: { token: string; userId: string; username: string };
  let bob: { token: string; userId: string; username: string };
  let short: Position;
  let liquidated: Position;
  let opening: { tickId: bigint; atMs: number };
  let gap: { tickId: bigint }[];

  beforeAll(async () => {
    alice = await leverageTrader(server.app, server.db, uniqueUsername('levalice'));
    bob = await leverageTrader(server.app, server.db, uniqueUsername('levbob'));
    const start = server.now().getTime() - 4_000;
    const steady = await recordKnownTicks(server, [0, 1, 2, 3].map((index) => ({ symbol: BTC, price: '50000', atMs: start + index * 1_000 })));
    opening = steady.at(-1)!;
    short = await openPosition(alice.token, { side: 'short' });
    const long = await openPosition(bob.token, { side: 'long' });
    // BTC gaps to 40,000: the engine judges the new ticks and liquidates Bob's long at the mark.
    const after = server.now().getTime();
    gap = await recordKnownTicks(server, [1, 2, 3].map((index) => ({ symbol: BTC, price: '40000', atMs: after + index })));
    await runTriggerPass({ db: server.db, now: server.now });
    liquidated = (await callApi<Position>(server, 'GET', `/home/leverage/positions/${long.id}`, bob.token)).data;
    expect(liquidated.status).toBe('liquidated');
  });

  it('finance staff see every position, the liquidated one with its events and ticks', async () => {
    const finance = await createStaff(server, 'levfinance1', ['finance']);
    const page = await staffPage(finance);
    await page.getByRole('link', { name: 'Positions', exact: true }).click();
    const view = page.getByTestId('leverage-positions-page');
    expect(await text(view, 'leverage-read-only')).toContain('No staff action can set a price, a tick, a trigger, a liquidation, a PnL, a margin or a balance');

    const liquidatedRow = view.getByTestId(`position-row-${liquidated.id}`);
    await liquidatedRow.waitFor();
    expect(await view.getByText('2 positions, newest first').count()).toBe(1);
    expect(await text(liquidatedRow, 'position-no')).toBe(liquidated.positionNo);
    expect(await text(liquidatedRow, 'position-user')).toBe(`${bob.username} (#${bob.userId})`);
    expect(await text(liquidatedRow, 'position-kind')).toBe('BTC/USDT · Futures · Long · 20x');
    expect(await text(liquidatedRow, 'position-entry-price')).toBe('50025.00000000');
    // What is still open: nothing, once liquidated (the opening size is in its events).
    expect(await text(liquidatedRow, 'position-quantity')).toBe('0.00000000');
    expect(await text(liquidatedRow, 'position-notional')).toBe('0.000000');
    expect(await text(liquidatedRow, 'position-margin')).toBe('0.000000');
    expect(await text(liquidatedRow, 'position-status')).toBe('Liquidated');
    expect(await text(liquidatedRow, 'position-close-reason')).toBe('Liquidated at the mark price');
    expect(await text(liquidatedRow, 'position-pnl')).toBe('-400.799500');
    expect(await liquidatedRow.getByTestId('position-pnl').getAttribute('class')).toContain('signed-negative');
    const openRow = view.getByTestId(`position-row-${short.id}`);
    expect(await text(openRow, 'position-status')).toBe('Open');
    expect(await text(openRow, 'position-kind')).toBe('BTC/USDT · Futures · Short · 20x');
    expect(await text(openRow, 'position-margin')).toBe('100.000000');
    expect(await text(openRow, 'position-notional')).toBe('2000.000000');
    // The mark of the open position's market: the median of the last five ticks (50,000 ×2, 40,000 ×3).
    expect(await text(openRow, 'position-mark')).toBe('Mark price now: 40000.00000000');
    expect(await text(openRow, 'position-opened')).toBe(shownAt(short.openedAtMs));
    expect(await openRow.getByTestId('position-closed').count()).toBe(0);

    // Filters: status and product at once; market and user on submit, each checked by the contract's rule.
    const status = view.getByLabel('Status', { exact: true });
    await status.selectOption('liquidated');
    await expect.poll(() => view.getByTestId(`position-row-${short.id}`).count()).toBe(0);
    await liquidatedRow.waitFor();
    await status.selectOption('open');
    await openRow.waitFor();
    await expect.poll(() => view.getByTestId(`position-row-${liquidated.id}`).count()).toBe(0);
    await status.selectOption('');
    const user = view.getByLabel('User ID', { exact: true });
    await user.fill('12x');
    await view.getByRole('button', { name: 'Filter' }).click();
    expect(await view.getByRole('alert').textContent()).toBe('A user ID is a whole number, such as 42.');
    await user.fill(bob.userId);
    await view.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => view.getByTestId(`position-row-${short.id}`).count()).toBe(0);
    await liquidatedRow.waitFor();
    expect(page.url()).toContain(`userId=${bob.userId}`);
    const market = view.getByLabel('Market', { exact: true });
    await market.fill('eth/usdt');
    await view.getByRole('button', { name: 'Filter' }).click();
    await view.getByTestId('positions-empty').waitFor();
    await market.fill('');
    await view.getByRole('button', { name: 'Filter' }).click();
    await liquidatedRow.waitFor();

    // The liquidated position at its own URL, every event with the recorded tick it used.
    await liquidatedRow.getByTestId('position-view').click();
    const detail = view.getByTestId('position-detail');
    await detail.waitFor();
    expect(page.url()).toContain(`/admin/leverage/positions/${liquidated.id}?`);
    expect(await detail.getByRole('heading', { level: 3 }).textContent()).toBe(`Position ${liquidated.positionNo} · ${bob.username} (#${bob.userId})`);
    expect(await text(detail, 'field-margin')).toBe('0.000000');
    expect(await text(detail, 'field-fees')).toBe('2.000000');
    expect(await text(detail, 'field-realized-pnl')).toBe('-400.799500');
    expect(await text(detail, 'open-tick-price')).toBe('50000.00000000');
    expect(await text(detail, 'open-tick-id')).toBe(opening.tickId.toString());
    expect(await text(detail, 'open-tick-time')).toBe(shownAt(opening.atMs));
    expect(await detail.getByTestId('position-mark').count()).toBe(0);
    const [openEvent, liquidation] = liquidated.events;
    expect(liquidated.events.map((event) => event.kind)).toEqual(['open', 'liquidation']);
    const openEventRow = detail.getByTestId(`event-row-${openEvent!.id}`);
    expect(await text(openEventRow, 'event-kind')).toBe('Opened');
    expect(await text(openEventRow, 'event-price')).toBe('50025.00000000');
    expect(await text(openEventRow, 'event-quantity')).toBe('0.03998000');
    expect(await text(openEventRow, 'event-tick-id')).toBe(opening.tickId.toString());
    expect(await text(openEventRow, 'event-fee')).toBe('2.000000');
    const liquidationRow = detail.getByTestId(`event-row-${liquidation!.id}`);
    expect(await text(liquidationRow, 'event-kind')).toBe('Liquidated');
    expect(await text(liquidationRow, 'event-price')).toBe('40000.00000000');
    expect(await text(liquidationRow, 'event-pnl')).toBe('-400.799500');
    expect(await text(liquidationRow, 'event-insurance')).toBe('-300.799500');
    expect(await text(liquidationRow, 'event-payout')).toBe('0.000000');
    expect(await text(liquidationRow, 'event-tick-id')).toBe(gap.at(-1)!.tickId.toString());
    expect(await text(liquidationRow, 'event-tick-price')).toBe('40000.00000000');
    expect(await text(liquidationRow, 'event-mark-ticks')).toBe(`Mark price over ticks ${liquidation!.markTickIds!.join(', ')}`);
    expect(liquidation!.markTickIds).toContain(gap.at(-1)!.tickId.toString());

    // Read only: the view's only buttons close the detail, filter, refresh and page.
    expect(await view.getByRole('button').allTextContents()).toEqual(['Filter', 'Refresh', 'Back to the list', 'Previous', 'Next']);
    expect(await view.locator('textarea, input:not([name="symbol"]):not([name="userId"])').count()).toBe(0);
    await detail.getByRole('button', { name: 'Back to the list' }).click();
    await expect.poll(() => view.getByTestId('position-detail').count()).toBe(0);
    expect(page.url()).toContain(`/admin/leverage/positions?userId=${bob.userId}`);
  });

  it('finance staff see the house’s exposure per market and side against the published limit', async () => {
    const finance = await createStaff(server, 'levfinance2', ['finance']);
    const page = await staffPage(finance);
    await page.getByRole('link', { name: 'House exposure', exact: true }).click();
    const view = page.getByTestId('leverage-exposure-page');
    await view.getByTestId('exposure-summary').waitFor();
    expect(await text(view, 'exposure-limit')).toBe('5000000.000000');
    expect(await text(view, 'exposure-total')).toBe('2000.000000');
    expect(await text(view, 'exposure-total-positions')).toBe('1');
    expect(await text(view, 'exposure-total-margin')).toBe('100.000000');
    const shorts = view.getByTestId(`exposure-${BTC}-short`);
    expect(await text(shorts, 'exposure-amount')).toBe('2000.000000');
    expect(await text(shorts, 'exposure-used')).toBe('0.04 %');
    expect(await text(shorts, 'exposure-remaining')).toBe('4998000.000000');
    expect(await text(shorts, 'exposure-positions')).toBe('1');
    expect(await text(shorts, 'exposure-notional')).toBe('2000.000000');
    expect(await text(shorts, 'exposure-margin')).toBe('100.000000');
    const longs = view.getByTestId(`exposure-${BTC}-long`);
    expect(await text(longs, 'exposure-amount')).toBe('0.000000');
    expect(await text(longs, 'exposure-positions')).toBe('0');
    expect(await view.getByTestId('exposure-mismatch').count()).toBe(0);
    expect(await view.getByRole('button').allTextContents()).toEqual(['Refresh']);
    expect(await view.locator('input, select, textarea').count()).toBe(0);
  });

  it('finance staff see the insurance fund, its balance and the liquidation’s entry, linked to the position', async () => {
    const finance = await createStaff(server, 'levfinance3', ['finance']);
    const page = await staffPage(finance);
    await page.getByRole('link', { name: 'Insurance fund', exact: true }).click();
    const view = page.getByTestId('insurance-fund-page');
    await view.getByTestId('fund-balances').waitFor();
    expect(await text(view, 'fund-balance')).toBe('-300.799500');
    expect(await view.getByTestId('fund-balance').getAttribute('class')).toContain('signed-negative');
    expect(await text(view, 'fund-from-events')).toBe('-300.799500');
    expect(await view.getByTestId('fund-mismatch').count()).toBe(0);
    expect(await text(view, 'fund-received')).toBe('0.000000');
    expect(await text(view, 'fund-paid')).toBe('300.799500');
    expect(await text(view, 'fund-liquidations')).toBe('1');
    // The house took Bob's whole loss (300.7995 of it from the fund); the fee account both opening fees.
    expect(await text(view, 'house-balance')).toBe('+400.799500');
    expect(await text(view, 'fees-balance')).toBe('4.000000');
    expect(await view.getByText('1 entry, newest first').count()).toBe(1);
    const entry = liquidated.events.at(-1)!;
    const row = view.getByTestId(`fund-entry-${entry.entryId}`);
    expect(await text(row, 'entry-reason')).toBe('leverage.liquidation');
    expect(await text(row, 'entry-amount')).toBe('-300.799500');
    expect(await text(row, 'entry-position')).toBe(liquidated.positionNo);
    expect(await view.getByRole('button').allTextContents()).toEqual(['Refresh', 'Previous', 'Next']);
    await row.getByRole('link', { name: liquidated.positionNo }).click();
    await page.getByTestId('position-detail').waitFor();
    expect(page.url()).toContain(`/admin/leverage/positions/${liquidated.id}`);
  });

  it('support staff see the positions but not the house’s money; other roles are offered none of it', async () => {
    const support = await createStaff(server, 'levsupport1', ['support']);
    const page = await staffPage(support);
    expect(await page.getByRole('link', { name: 'House exposure', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Insurance fund', exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Positions', exact: true }).click();
    const row = page.getByTestId(`position-row-${liquidated.id}`);
    await row.waitFor();
    expect(await text(row, 'position-status')).toBe('Liquidated');
    expect(await page.getByRole('alert').count()).toBe(0);
    // The server refuses the house's money to support staff anyway, and the URL names no view for them.
    const token = await page.evaluate(() => localStorage.getItem('staffToken'));
    expect((await callApi(server, 'GET', '/home/admin/leverage/exposure', token)).code).toBe(403);
    expect((await callApi(server, 'GET', '/home/admin/leverage/insurance-fund', token)).code).toBe(403);
    await page.goto('/admin/leverage/insurance-fund');
    await page.getByTestId('not-allowed').waitFor();

    await staffContext!.close();
    const compliance = await createStaff(server, 'levcompliance1', ['compliance']);
    const other = await staffPage(compliance);
    for (const name of ['Positions', 'House exposure', 'Insurance fund']) expect(await other.getByRole('link', { name, exact: true }).count()).toBe(0);
  });
});
