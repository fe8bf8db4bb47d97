import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../apps/server/src/persistence/ledger-check.ts';
import { fiatBalance, trader } from '../../apps/server/test/helpers/p2p.ts';
import { call, coinBalance, fund, type WalletUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, putSessionOnDevice } from './helpers/browser.ts';
import { type E2eServer, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 19, P2P buy ads in the browser: a buyer posts a buy ad through the ad form (the buy side:
// nothing is held); a seller opens the market, switches to "Sell USDT", finds it and sells into it
// with their payment details — their quantity is held on their fiat account at once — and lands on
// the order as the seller ("the buyer pays you at"); the buyer, in another browser, sees the order
// with the seller's payment details and marks it paid; the seller releases with the payment
// password and the buyer's fiat account ends with the quantity less the 0.1 % fee. The buyer
// cannot sell into their own ad. The market's Sell tab and the sell-into form pass axe (serious and
// critical), and the market reads right to left in Arabic with its numbers left to right.

const PAYMENT_PASSWORD = '135790';
const USDT = 1_000_000n;

let browser: Browser;
let server: E2eServer;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function phone(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

/** Text as read, without the isolates (U+2066 … U+2069), spaces collapsed. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const text = async (scope: Page | Locator, testId: string) => plain(await scope.getByTestId(testId).first().textContent());
/** What a locator shows, or null while it is not on the page (for polling across re-renders). */
const shown = (scope: Page | Locator, testId: string) =>
  scope
    .getByTestId(testId)
    .first()
    .textContent({ timeout: 500 })
    .then(plain)
    .catch(() => null);
/** Polls for up to 12 s: ample for a refresh brought by a push event, short of the 30 s fallback poll. */
const eventually = <T>(read: () => Promise<T>, timeout = 12_000) => expect.poll(read, { timeout, interval: 100 });

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

/** A verified trader (payment password 135790, a Telegram contact `@<username>`), their fiat account (P2P's) funded with `usdt`. */
function newTrader(prefix: string, usdt = '0'): Promise<WalletUser> {
  return trader(server.app, server.db, uniqueUsername(prefix), usdt);
}

/** The balances of the fiat account's USDT on /assets (P2P trades from and into the fiat account). */
async function usdtBalances(page: Page) {
  await page.goto('/assets');
  await page.getByTestId('balance-fiat-USDT-available').waitFor();
  return { available: await text(page, 'balance-fiat-USDT-available'), frozen: await text(page, 'balance-fiat-USDT-frozen') };
}

const direction = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).direction);

describe('P2P buy ads', () => {
  let adId: string;

  it('a buy ad posted through the form is sold into from another browser: held, paid, released; the buyer ends with the quantity less 0.1 %', async () => {
    const buyer = await newTrader('bbuyer');
    const seller = await newTrader('bseller', '50');
    // USDT in the seller's coin account does not count: selling holds on the fiat account.
    await fund(server.db, seller.userId, 'USDT', '100');

    // The buyer posts a buy ad: the post page's side choice, the same fields, nothing held.
    const buyerPage = await openLoggedIn(await phone(), buyer, '/trade/shopping');
    await buyerPage.getByTestId('shop-post-ad').click();
    await buyerPage.waitForURL((url) => url.pathname === '/trade/shopping/sell');
    expect(await buyerPage.getByTestId('sell-form').getAttribute('data-side')).toBe('sell');
    await buyerPage.getByTestId('post-side-buy').click();
    await buyerPage.waitForURL((url) => url.pathname === '/trade/shopping/sell' && url.search === '?side=buy');
    expect(await buyerPage.getByTestId('post-side-buy').getAttribute('aria-pressed')).toBe('true');
    expect(await buyerPage.getByTestId('sell-form').getAttribute('data-side')).toBe('buy');
    expect(plain(await buyerPage.locator('h1').first().textContent())).toBe('Post a buy ad');
    await eventually(() => buyerPage.getByTestId('sell-contact').inputValue()).toBe(`Telegram: @${buyer.username}`);
    // A buy ad needs no balance: the buyer has none, and there is no "available / all" to fill from.
    expect(await buyerPage.getByTestId('sell-available').count()).toBe(0);
    await buyerPage.getByTestId('sell-price').fill('86');
    await buyerPage.getByTestId('sell-min').fill('10');
    await buyerPage.getByTestId('sell-max').fill('100');
    await buyerPage.getByTestId('sell-total').fill('100');
    await eventually(() => shown(buyerPage, 'buy-ad-wanted')).toBe('100.00 USDT');
    expect(await text(buyerPage, 'buy-ad-hold-note')).toContain('Nothing is held from your account.');
    expect(await text(buyerPage, 'sell-worth')).toBe('At this price the whole quantity costs you 8,600.00 INR.');
    expect(await buyerPage.getByTestId('sell-escrow-note').count()).toBe(0);
    await buyerPage.getByTestId('sell-remark').fill('UPI or IMPS');
    await buyerPage.getByTestId('sell-submit').click();
    await buyerPage.waitForURL((url) => url.pathname === '/trade/shopping/trading/sell');
    const myRow = buyerPage.locator('[data-testid^="ad-row-"]');
    await eventually(() => myRow.count()).toBe(1);
    adId = (await myRow.getAttribute('data-testid'))!.replace('ad-row-', '');
    expect(await myRow.getByTestId('ad-side').getAttribute('data-side')).toBe('buy');
    expect(await text(myRow, 'ad-side')).toBe('Buy ad');
    expect(await text(myRow, 'ad-status')).toBe('Open');
    expect(await text(myRow, 'ad-total')).toBe('100.00 USDT');
    expect(await text(myRow, 'ad-remaining')).toBe('100.00 USDT');
    expect(await myRow.getByText('Still wanted', { exact: true }).count()).toBe(1);
    // Posting held nothing on the buyer's account.
    expect(await fiatBalance(server.db, buyer.userId)).toEqual({ availableMinor: 0n, frozenMinor: 0n });

    // The buyer's own ad offers them no "Sell", and the server refuses it with the catalogue message.
    await buyerPage.goto('/trade/shopping?side=buy');
    const ownRow = buyerPage.getByTestId(`ad-row-${adId}`);
    await ownRow.waitFor();
    expect(await text(ownRow, 'ad-mine')).toBe('Your ad');
    expect(await ownRow.getByTestId('ad-sell').count()).toBe(0);
    expect(await call(server.app, 'POST', '/home/p2p/orders', buyer.token, { adId, quantity: '10', contact: 'UPI me@bank' })).toMatchObject({
      code: 400,
      msg: "cannot sell one's own sell order",
    });

    // The seller opens the market ("Buy USDT" first, which lists sell ads only) and switches to "Sell USDT".
    const sellerPage = await openLoggedIn(await phone(), seller, '/trade/shopping');
    const buyTab = sellerPage.getByRole('tab', { name: 'Buy USDT' });
    const sellTab = sellerPage.getByRole('tab', { name: 'Sell USDT' });
    await buyTab.waitFor();
    expect(await buyTab.getAttribute('aria-selected')).toBe('true');
    await sellerPage.getByTestId('buy-list-empty').waitFor();
    expect(await sellerPage.getByTestId(`ad-row-${adId}`).count()).toBe(0);
    await sellTab.click();
    await sellerPage.waitForURL((url) => url.pathname === '/trade/shopping' && url.search === '?side=buy');
    expect(await sellTab.getAttribute('aria-selected')).toBe('true');
    expect(await buyTab.getAttribute('aria-selected')).toBe('false');
    expect(await sellerPage.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('shop-tab-sell');
    const adRow = sellerPage.getByTestId(`ad-row-${adId}`);
    await adRow.waitFor();
    expect(await adRow.getAttribute('data-side')).toBe('buy');
    expect(await text(adRow, 'ad-buyer')).toBe(buyer.username);
    expect(await text(adRow, 'ad-price')).toBe('86.00 INR per USDT');
    expect(await text(adRow, 'ad-available')).toBe('100.00 USDT');
    expect(await adRow.getByText('Wanted', { exact: true }).count()).toBe(1);
    expect(await text(adRow, 'ad-limits')).toBe('10.00 USDT – 100.00 USDT');
    expect(await text(adRow, 'ad-remark')).toBe('UPI or IMPS');
    expect(await adRow.getByTestId('ad-buy').count()).toBe(0);
    expect(await seriousViolations(sellerPage), '/trade/shopping?side=buy').toEqual([]);

    // Selling into it: the form checks the quantity and asks for the payment details first.
    await adRow.getByTestId('ad-sell').click();
    const form = adRow.getByTestId('sell-into-form');
    await form.waitFor();
    await eventually(() => shown(form, 'sell-into-available')).toBe('50.00 USDT');
    expect(await form.getByTestId('sell-into-transfer').getAttribute('href')).toBe('/assets/transfer');
    await form.getByTestId('sell-into-quantity').fill('60');
    await form.getByTestId('sell-into-submit').click();
    await form.getByText('This is more than the available balance').waitFor();
    await form.getByText('Enter where the buyer pays you').waitFor();
    await form.getByTestId('sell-into-quantity').fill('20');
    await eventually(() => shown(form, 'sell-into-total')).toBe('1,720.00 INR');
    expect(await text(form, 'sell-into-held')).toBe('20.00 USDT');
    expect(await text(form, 'sell-into-hold-note')).toContain('20.00 USDT will be held from your fiat account until the order ends.');
    expect(await seriousViolations(sellerPage), 'the sell-into form, with its problems shown').toEqual([]);
    // Nothing was sent while the form had problems.
    expect(await server.db.query('SELECT 1 FROM p2p_orders WHERE ad_id = $1', [adId])).toEqual([]);
    const paymentDetails = 'SEPA DE89 3704 0044 0532 0130 00';
    await form.getByTestId('sell-into-contact').fill(paymentDetails);
    await form.getByTestId('sell-into-submit').click();
    await sellerPage.waitForURL((url) => /^\/trade\/shopping\/trading\/sell_detail\/\d+$/.test(url.pathname));
    const orderId = new URL(sellerPage.url()).pathname.split('/').at(-1)!;

    // The order as the seller: awaiting payment, where the buyer pays them, the buyer's contact, nothing to release yet.
    await eventually(() => shown(sellerPage, 'order-status')).toBe('Awaiting payment');
    expect(await text(sellerPage, 'order-role')).toBe('Seller');
    expect(await text(sellerPage, 'order-status-message')).toBe('Order placed. Waiting for the buyer to pay; the coins stay in escrow.');
    expect(await text(sellerPage, 'order-quantity')).toBe('20.00 USDT');
    expect(await text(sellerPage, 'order-total')).toBe('1,720.00 INR');
    expect(await text(sellerPage, 'order-buyer')).toBe(buyer.username);
    const payHere = sellerPage.locator('.address-block', { has: sellerPage.getByTestId('order-seller-contact') });
    expect(await text(payHere, 'order-seller-contact')).toBe(paymentDetails);
    expect(plain(await payHere.locator('.muted').textContent())).toBe('The buyer pays you at');
    const buyerContact = sellerPage.locator('.address-block', { has: sellerPage.getByTestId('order-buyer-contact') });
    expect(await text(buyerContact, 'order-buyer-contact')).toBe(`Telegram: @${buyer.username}`);
    expect(plain(await buyerContact.locator('.muted').textContent())).toBe('Buyer’s contact');
    expect(await sellerPage.getByTestId('release-form').count()).toBe(0);
    expect(await sellerPage.getByTestId('order-mark-paid').count()).toBe(0);
    // The 20 USDT are held on the seller's fiat account from now on; their coin account is untouched.
    expect(await usdtBalances(sellerPage)).toEqual({ available: '30.00', frozen: '20.00' });
    expect(await fiatBalance(server.db, seller.userId)).toEqual({ availableMinor: 30n * USDT, frozenMinor: 20n * USDT });
    expect(await coinBalance(server.db, seller.userId, 'USDT')).toEqual({ availableMinor: 100n * USDT, frozenMinor: 0n });

    // The buyer, in their own browser, finds the order as the buyer and pays to the seller's details.
    await buyerPage.goto('/orderlist');
    const orderRow = buyerPage.getByTestId(`order-row-${orderId}`);
    await orderRow.waitFor();
    expect(await text(orderRow, 'order-row-role')).toBe('Buyer');
    expect(await text(orderRow, 'order-row-status')).toBe('Awaiting payment');
    expect(await text(orderRow, 'order-row-counterparty')).toBe(seller.username);
    await orderRow.getByTestId('order-row-link').click();
    await buyerPage.waitForURL((url) => url.pathname === `/trade/shopping/trading/buy_detail/${orderId}`);
    const payTo = buyerPage.locator('.address-block', { has: buyerPage.getByTestId('order-seller-contact') });
    await eventually(() => shown(payTo, 'order-seller-contact')).toBe(paymentDetails);
    expect(plain(await payTo.locator('.muted').textContent())).toBe('Pay the seller at');
    expect(await text(buyerPage, 'order-buyer-contact')).toBe(`Telegram: @${buyer.username}`);
    await buyerPage.getByTestId('order-to-pay').click();
    await buyerPage.waitForURL((url) => url.pathname === `/trade/shopping/trading/buy_pay/${orderId}`);
    await eventually(() => shown(buyerPage, 'pay-amount')).toBe('1,720.00 INR');
    expect(await text(buyerPage, 'pay-contact')).toBe(paymentDetails);
    await buyerPage.getByTestId('pay-mark-paid').click();
    await buyerPage.getByTestId('pay-mark-paid-confirm').click();
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Paid');

    // The seller releases with the payment password.
    await sellerPage.goto(`/trade/shopping/trading/sell_detail/${orderId}`);
    await eventually(() => shown(sellerPage, 'order-status')).toBe('Paid');
    await sellerPage.getByTestId('release-form').waitFor();
    await sellerPage.getByTestId('release-received').check();
    await sellerPage.getByTestId('release-password').fill(PAYMENT_PASSWORD);
    await sellerPage.getByTestId('release-submit').click();
    await eventually(() => shown(sellerPage, 'order-status')).toBe('Released');
    expect(await text(sellerPage, 'order-receives')).toBe('19.98 USDT');
    expect(await text(sellerPage, 'order-fee')).toBe('0.02 USDT');
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Released');

    // The buyer's fiat account ends with 20 less the 0.1 % fee; the seller's 20 have left their account.
    expect(await usdtBalances(buyerPage)).toEqual({ available: '19.98', frozen: '0.00' });
    expect(await fiatBalance(server.db, buyer.userId)).toEqual({ availableMinor: 19_980_000n, frozenMinor: 0n });
    expect(await usdtBalances(sellerPage)).toEqual({ available: '30.00', frozen: '0.00' });
    // The buy ad still wants the rest.
    await buyerPage.goto('/trade/shopping?tab=mine');
    await eventually(() => shown(buyerPage.getByTestId(`ad-row-${adId}`), 'ad-remaining')).toBe('80.00 USDT');
    expect((await checkLedger(server.db)).problems).toEqual([]);
  });

  it('the market reads right to left in Arabic, its numbers left to right', async () => {
    expect(adId, 'the first test posted the ad').toBeDefined();
    const viewer = await newTrader('bviewer');
    const page = await (await phone()).newPage();
    await putSessionOnDevice(page, viewer);
    await page.evaluate(() => localStorage.setItem('lang', 'ar'));
    await page.goto('/trade/shopping?side=buy');
    const row = page.getByTestId(`ad-row-${adId}`);
    await row.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    const sellTab = page.getByTestId('shop-tab-sell');
    expect(plain(await sellTab.textContent())).toBe('بيع USDT');
    expect(await sellTab.getAttribute('aria-selected')).toBe('true');
    expect(await text(row, 'ad-sell')).toBe('بيع');
    expect(await direction(row)).toBe('rtl');
    expect(await text(row, 'ad-available')).toBe('80.00 USDT');
    expect(await direction(row.getByTestId('ad-available'))).toBe('ltr');
    expect(await direction(row.getByTestId('ad-limits').locator('bdi').first())).toBe('ltr');
    expect(await seriousViolations(page), '/trade/shopping?side=buy (ar)').toEqual([]);
  });
});
