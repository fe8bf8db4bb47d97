import { randomUUID } from 'node:crypto';
import { liquidationPriceMinor, formatPriceMinor, openFillPriceMinor, parseAmount, parsePriceMinor, quoteOpen } from '@keel/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../apps/server/src/deps.ts';
import { startTriggerEngine } from '../../apps/server/src/use-cases/leverage/trigger-engine.ts';
import { verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, pathOf } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 16, leveraged and futures trading in the browser, on recorded prices only (every figure is
// known): a 20x futures long with take-profit and stop-loss whose liquidation price the form shows
// before confirming and the position shows after; margin added and the liquidation price moving;
// the take-profit filled by the trigger engine from a recorded tick and shown with that tick,
// without a reload; a leveraged short closed in part and then in full; a 50x long liquidated when
// a price path gaps through its liquidation price, shown with the mark price and the ids of the
// ticks the median was taken over. The engine runs on every recorded tick, as in production.

const BTC = 'BTC/USDT';
const ETH = 'ETH/USDT';

let server: E2eServer;
let browser: Browser;
let context: BrowserContext | undefined;
let stopEngine: (() => Promise<void>) | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The trigger engine as buildApp runs it with `leverageEngineIntervalMs` (main.ts does): a pass on
 * every run of ticks the node takes in, and a timed one. The browser tests' server is built
 * without it (tests/e2e/helpers/server.ts), so the test starts it on that server's database,
 * market and event bus, and a take-profit or liquidation reaches the page as the push event it is.
 */
function runTriggerEngine(on: E2eServer): () => Promise<void> {
  const deps = { db: on.db, now: on.now, events: on.events, logger: on.app.log } as unknown as Deps;
  const engine = startTriggerEngine(deps, 200);
  const stopWaking = on.market!.onTicks(() => engine.wake());
  return async () => {
    stopWaking();
    await engine.stop();
  };
}

// A server (and database) per test: every test's prices are its own.
beforeEach(async () => {
  server = await startServer({ market: 'recorded' });
  stopEngine = runTriggerEngine(server);
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  await stopEngine?.();
  await server?.close();
});

/** Polls up to 15 s: ample for a push event's refetch, short of the screen's 15 s fallback poll plus a load. */
const eventually = { timeout: 15_000, interval: 100 };

const text = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).first().textContent();
const value = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).first().getAttribute('data-value');

/** A verified user with `usdt` in the leveraged account. */
async function trader(prefix: string, usdt = '10000') {
  const user = await registerUser(server.baseUrl, uniqueUsername(prefix));
  await verifyUser(server.db, user.userId);
  await fundUser(server.db, { userId: user.userId, kind: 'leveraged', asset: 'USDT', amount: usdt });
  return user;
}

/** Records prices of one market, each a tick of its own, now. */
const record = (symbol: string, ...prices: string[]) => recordKnownTicks(server, prices.map((price) => ({ symbol, price, source: 'test-feed' })));

/** A call the app makes, with its Idempotency-Key. */
async function call<T>(token: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: T };
  if (answer.code !== 200) throw new Error(`${path}: ${answer.msg}`);
  return answer.data;
}

/** Opens a position through the API, as another device of the user would. */
async function openViaApi(token: string, body: Record<string, unknown>) {
  await call(token, '/home/leverage/disclosure', { version: 1 });
  return call<{ id: string; liquidationPrice: string | null; quantity: string }>(token, '/home/leverage/positions', body);
}

/** The liquidation price the domain gives a position of this margin, leverage and fill price (8 decimals). */
function expectedLiquidation(product: 'futures' | 'leveraged', side: 'long' | 'short', margin: string, leverage: number, lastPrice: string) {
  const marginMinor = parseAmount(margin, 6);
  const quote = quoteOpen({ product, side, marginMinor, leverage, fillPriceMinor: openFillPriceMinor(side, parsePriceMinor(lastPrice)) });
  if (!quote.ok) throw new Error(quote.problem);
  return { quote: quote.quote, liquidation: formatPriceMinor(quote.quote.liquidationPriceMinor!) };
}

describe('leveraged and futures trade screens', () => {
  it('opens a 20x futures long with TP and SL, shows its liquidation price before and after, adds margin, and shows the take-profit filled from a recorded tick', async () => {
    const user = await trader('levtp');
    const window = await record(BTC, '60000', '60000', '60000', '60000', '60000');
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, `/trade/futures?symbol=${encodeURIComponent(BTC)}`);

    // The futures screen in the trade tab, its market from the address, the live and mark prices.
    await expect.poll(() => page.getByTestId('leverage-symbol-picker').inputValue()).toBe(BTC);
    expect(await page.getByTestId('tab-trade').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('product-futures').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('service-fab').count()).toBe(0);
    await expect.poll(() => text(page, 'leverage-last-price')).toBe('60,000.00');
    await expect.poll(() => text(page, 'leverage-mark-price')).toBe('60,000.00');
    await expect.poll(() => text(page, 'leverage-available')).toBe('10,000.00 USDT');

    // Which ticks the mark price is the median of, with the published rule.
    await page.getByTestId('leverage-rules-open').click();
    const rules = page.getByTestId('leverage-rules-sheet');
    await rules.waitFor();
    expect(await text(rules, 'leverage-mark-rule')).toContain('median of the last 5 recorded ticks');
    expect(await rules.getByTestId('leverage-rules-mark-ticks').getAttribute('data-tick-ids')).toBe(window.map((tick) => tick.tickId.toString()).join(','));
    expect(await rules.getByTestId('leverage-brackets').textContent()).toContain('50,000');
    await page.keyboard.press('Escape');
    await rules.waitFor({ state: 'detached' });

    // The order: long, 100 USDT at 20x, take-profit 61,000, stop-loss 59,500; every figure before confirming.
    const expected = expectedLiquidation('futures', 'long', '100', 20, '60000');
    expect(expected.liquidation).toBe('57315.07492454');
    await page.getByTestId('leverage-side-long').click();
    await page.getByTestId('leverage-margin').fill('100');
    await page.getByTestId('leverage-preset-20').click();
    expect(await page.getByTestId('leverage-leverage-value').getAttribute('data-value')).toBe('20');
    await page.getByTestId('leverage-tp').fill('61000');
    await page.getByTestId('leverage-sl').fill('59500');
    expect(await value(page, 'leverage-fill-price')).toBe('60030.00000000');
    expect(await value(page, 'leverage-notional')).toBe('2000.000000');
    expect(await value(page, 'leverage-quantity')).toBe('0.03331667');
    expect(await value(page, 'leverage-fee')).toBe('2.000000');
    expect(await value(page, 'leverage-cost')).toBe('102.000000');
    expect(await value(page, 'leverage-liquidation-price')).toBe(expected.liquidation);
    expect(await text(page, 'leverage-liquidation-price')).toBe('57,315.07492454');

    // First order: the risk disclosure, then the confirmation with the same liquidation price.
    await page.getByTestId('leverage-review').click();
    const disclosure = page.getByTestId('leverage-disclosure');
    await disclosure.waitFor();
    expect(await disclosure.textContent()).toContain('You can never lose more than the margin');
    expect(await page.getByTestId('leverage-disclosure-accept').isDisabled()).toBe(true);
    await page.getByTestId('leverage-disclosure-check').check();
    await page.getByTestId('leverage-disclosure-accept').click();
    const sheet = page.getByTestId('leverage-confirm-sheet');
    await sheet.waitFor();
    expect(await text(sheet, 'leverage-confirm-side')).toBe('Long');
    expect(await text(sheet, 'leverage-confirm-leverage')).toBe('20x');
    expect(await text(sheet, 'leverage-confirm-tp')).toBe('61,000.00');
    expect(await text(sheet, 'leverage-confirm-sl')).toBe('59,500.00');
    expect(await value(sheet, 'leverage-confirm-liquidation-price')).toBe(expected.liquidation);
    expect(await value(sheet, 'leverage-confirm-cost')).toBe('102.000000');
    expect(await server.db.query('SELECT 1 FROM leverage_positions')).toHaveLength(0);
    // An order opens on a price recorded within the last 5 s.
    await record(BTC, '60000');
    await page.getByTestId('leverage-confirm').click();

    // The position: the liquidation price the form showed, from the server; its standing at the mark.
    const row = page.getByTestId('leverage-position');
    await row.waitFor();
    expect(await sheet.count()).toBe(0);
    expect(await text(page, 'leverage-opened')).toMatch(/^Position F\d{16} opened\.$/);
    const [stored] = await server.db.query<{ liquidation_price: string; entry_price: string }>(
      'SELECT liquidation_price::text AS liquidation_price, entry_price::text AS entry_price FROM leverage_positions',
    );
    expect(stored).toEqual({ liquidation_price: expected.liquidation, entry_price: '60030.00000000' });
    expect(await text(row, 'leverage-position-liquidation')).toBe('57,315.07492454');
    expect(await text(row, 'leverage-position-entry')).toBe('60,030.00');
    expect(await text(row, 'leverage-position-quantity')).toBe('0.03331667 BTC');
    expect(await text(row, 'leverage-position-tp')).toBe('61,000.00');
    expect(await text(row, 'leverage-position-sl')).toBe('59,500.00');
    // At the mark price 60,000: 0.03331667 × (60,000 − 60,030), rounded down; maintenance 0.5 % of the value ÷ equity.
    await expect.poll(() => text(row, 'leverage-position-pnl')).toBe('-0.999501 USDT');
    expect(await value(row, 'leverage-position-ratio')).toBe('10.10');
    await expect.poll(() => text(page, 'leverage-available')).toBe('9,898.00 USDT');

    // Add 50 USDT of margin: the new liquidation price shows before confirming, then on the position.
    await row.getByTestId('leverage-position-adjust-margin').click();
    const marginSheet = page.getByTestId('leverage-margin-sheet');
    await marginSheet.waitFor();
    await page.getByTestId('leverage-margin-amount').fill('50');
    const moved = formatPriceMinor(
      liquidationPriceMinor({ product: 'futures', side: 'long', quantityMinor: expected.quote.quantityMinor, entryPriceMinor: expected.quote.fillPriceMinor, marginMinor: 150_000_000n })!,
    );
    expect(moved).toBe('55806.78324109');
    expect(await value(marginSheet, 'leverage-margin-new-liquidation')).toBe(moved);
    await record(BTC, '60000');
    await page.getByTestId('leverage-margin-confirm').click();
    await marginSheet.waitFor({ state: 'detached' });
    await expect.poll(() => text(row, 'leverage-position-liquidation')).toBe('55,806.78324109');
    expect(await text(row, 'leverage-position-margin')).toBe('150.00 USDT');
    await expect.poll(() => text(page, 'leverage-available')).toBe('9,848.00 USDT');

    // The take-profit: a recorded tick at 61,000 fills it at that tick's price, without a reload.
    const [takeProfitTick] = await record(BTC, '61000');
    const closed = page.locator('[data-testid="leverage-history-row"][data-reason="take_profit"]');
    await closed.waitFor(eventually);
    expect(await text(closed, 'leverage-history-reason')).toBe('Take-profit');
    // Opened by itself, with every event: the fill at the tick's price, the tick's id and time.
    const fill = closed.locator('[data-testid="leverage-event"][data-kind="take_profit"]');
    await fill.waitFor(eventually);
    expect(await text(fill, 'leverage-event-price')).toBe('61,000.00');
    expect(await fill.getByTestId('leverage-event-tick').getAttribute('data-tick-id')).toBe(takeProfitTick!.tickId.toString());
    expect(await text(fill, 'leverage-event-tick-id')).toBe(`tick ${takeProfitTick!.tickId}`);
    // 0.03331667 × (61,000 − 60,030) = 32.317169…; the fee 0.1 % of 2,032.31687; margin 150 back with both.
    expect(await text(fill, 'leverage-event-pnl')).toBe('+32.317169 USDT');
    expect(await text(fill, 'leverage-event-fee')).toBe('2.032317 USDT');
    expect(await text(fill, 'leverage-event-payout')).toBe('180.284852 USDT');
    expect(await closed.locator('[data-testid="leverage-event"][data-kind="margin_add"]').count()).toBe(1);
    await expect.poll(() => text(page, 'leverage-available')).toBe('10,028.284852 USDT');
    await page.getByTestId('leverage-tab-open').click();
    await page.getByTestId('leverage-open-empty').waitFor();
  });

  it('closes a leveraged short in part and then in full at the last recorded prices', async () => {
    const user = await trader('levclose', '1000');
    await record(ETH, '3000', '3000', '3000', '3000', '3000');
    const opened = await openViaApi(user.token, { product: 'leveraged', symbol: ETH, side: 'short', margin: '100', leverage: 5 });
    // 500 USDT at 3,000 × (1 − 0.05 %) = 2,998.5: 0.16675004 ETH.
    expect(opened.quantity).toBe('0.16675004');
    context = await newPhoneContext(browser, server.baseUrl);
    // The market by its id, as /trade_{id} names it.
    const page = await openLoggedIn(context, user, '/trade/leveraged?symbol=ethusdt');
    await expect.poll(() => page.getByTestId('leverage-symbol-picker').inputValue()).toBe(ETH);
    expect(await page.getByTestId('product-leveraged').getAttribute('aria-current')).toBe('page');
    const row = page.locator(`[data-testid="leverage-position"][data-position-id="${opened.id}"]`);
    await row.waitFor();
    expect(await text(row, 'leverage-position-quantity')).toBe('0.16675004 ETH');

    // Part: 0.05 ETH at 3,000 — PnL 0.05 × (2,998.5 − 3,000), the fee 0.1 % of 150.
    await row.getByTestId('leverage-position-close').click();
    const closeSheet = page.getByTestId('leverage-close-sheet');
    await closeSheet.waitFor();
    await page.getByTestId('leverage-close-part').click();
    await page.getByTestId('leverage-close-quantity').fill('0.05');
    expect(await text(closeSheet, 'leverage-close-pnl')).toBe('-0.075 USDT');
    expect(await text(closeSheet, 'leverage-close-fee')).toBe('0.15 USDT');
    const [partTick] = await record(ETH, '3000');
    await page.getByTestId('leverage-close-confirm').click();
    await closeSheet.waitFor({ state: 'detached' });
    await expect.poll(() => text(row, 'leverage-position-quantity')).toBe('0.11675004 ETH');

    // All of the rest at 2,900: a profit for the short.
    await row.getByTestId('leverage-position-close').click();
    await closeSheet.waitFor();
    const [allTick] = await record(ETH, '2900');
    await expect.poll(() => text(closeSheet, 'leverage-close-price')).toBe('2,900.00');
    // 0.11675004 × (2,998.5 − 2,900) = 11.4998789…, rounded down.
    expect(await text(closeSheet, 'leverage-close-pnl')).toBe('+11.499878 USDT');
    await page.getByTestId('leverage-close-confirm').click();
    await closeSheet.waitFor({ state: 'detached' });

    // Closed by the user, both closes in its history, each with the recorded tick it used.
    const history = page.locator(`[data-testid="leverage-history-row"][data-position-id="${opened.id}"]`);
    await history.waitFor(eventually);
    expect(await history.getAttribute('data-reason')).toBe('user');
    expect(await text(history, 'leverage-history-reason')).toBe('Closed');
    const closes = history.locator('[data-testid="leverage-event"][data-kind="close"]');
    await expect.poll(() => closes.count(), eventually).toBe(2);
    expect(await closes.nth(0).getByTestId('leverage-event-tick').getAttribute('data-tick-id')).toBe(partTick!.tickId.toString());
    expect(await text(closes.nth(0), 'leverage-event-quantity')).toBe('0.05');
    expect(await closes.nth(1).getByTestId('leverage-event-tick').getAttribute('data-tick-id')).toBe(allTick!.tickId.toString());
    expect(await text(closes.nth(1), 'leverage-event-price')).toBe('2,900.00');
    // Every event names its journal entry.
    for (const entry of await history.getByTestId('leverage-event-entry').all()) expect(await entry.textContent()).toMatch(/^\d+$/);
  });

  it('shows a liquidation with its mark price and the ticks of the median when the price gaps through the liquidation price', async () => {
    const user = await trader('levliq', '1000');
    const window = await record(BTC, '60000', '60000', '60000', '60000', '60000');
    const opened = await openViaApi(user.token, { product: 'futures', symbol: BTC, side: 'long', margin: '100', leverage: 50 });
    const { liquidation } = expectedLiquidation('futures', 'long', '100', 50, '60000');
    expect(opened.liquidationPrice).toBe(liquidation);
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/trade/futures?symbol=BTCUSDT');
    const row = page.locator(`[data-testid="leverage-position"][data-position-id="${opened.id}"]`);
    await row.waitFor();
    expect(await text(row, 'leverage-position-liquidation')).toBe('59,125.02501712');

    // The price gaps to 58,000, far below the liquidation price. The mark price is the median of the
    // last five ticks: 60,000 until the third tick at 58,000, which takes it to 58,000 at once.
    const gap = await record(BTC, '58000', '58000', '58000');
    const markTicks = [...window.slice(3), ...gap].map((tick) => tick.tickId.toString());
    await expect.poll(() => text(page, 'leverage-mark-price'), eventually).toBe('58,000.00');
    expect(await page.getByTestId('leverage-rules-open').getAttribute('data-tick-ids')).toBe(markTicks.join(','));

    // Liquidated at the mark price, shown with the ids of the ticks its median was taken over; the
    // loss beyond the margin was the insurance fund's.
    const liquidated = page.locator(`[data-testid="leverage-history-row"][data-position-id="${opened.id}"]`);
    await liquidated.waitFor(eventually);
    expect(await liquidated.getAttribute('data-reason')).toBe('liquidation');
    expect(await text(liquidated, 'leverage-history-reason')).toBe('Liquidated');
    const block = liquidated.getByTestId('leverage-liquidation');
    await block.waitFor();
    expect(await text(block, 'leverage-liquidation-mark-price')).toBe('58,000.00');
    expect(await block.getByTestId('leverage-liquidation-ticks').getAttribute('data-tick-ids')).toBe(markTicks.join(','));
    expect(await text(block, 'leverage-liquidation-ticks')).toBe(markTicks.map((id) => `#${id}`).join(', '));
    expect(await block.getByTestId('leverage-liquidation-insurance').count()).toBe(1);
    const event = liquidated.locator('[data-testid="leverage-event"][data-kind="liquidation"]');
    await event.waitFor(eventually);
    expect(await text(event, 'leverage-event-price')).toBe('58,000.00');
    expect(await event.getByTestId('leverage-event-tick').getAttribute('data-tick-id')).toBe(gap[2]!.tickId.toString());
    expect(await text(event, 'leverage-event-payout')).toBe('0.00 USDT');
    const [stored] = await server.db.query<{ mark_tick_ids: bigint[] }>("SELECT mark_tick_ids FROM leverage_position_events WHERE kind = 'liquidation'");
    expect(stored!.mark_tick_ids.map(String)).toEqual(markTicks);
    // Nothing beyond the margin was taken: 1,000 − 100 − the 5 USDT fee.
    await expect.poll(() => text(page, 'leverage-available')).toBe('895.00 USDT');
    expect(pathOf(page)).toBe('/trade/futures?symbol=BTCUSDT');
  });
});
