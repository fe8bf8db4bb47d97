import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../apps/server/src/jobs/handlers.ts';
import { JobRunner } from '../../apps/server/src/jobs/runner.ts';
import type { EventBus } from '../../apps/server/src/realtime/event-bus.ts';
import { announceExpiry } from '../../apps/server/src/use-cases/p2p/order-steps.ts';
import { postAd, trader } from '../../apps/server/test/helpers/p2p.ts';
import { call, type WalletUser } from '../../apps/server/test/helpers/wallet.ts';
import { TestWsClient } from '../../apps/server/test/helpers/ws-client.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { createStaff, staffLogin } from './helpers/identity.ts';
import { type E2eServer, randomBusPrefix, redisEventBus, startSecondNode, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 6, fiat P2P in the browser: an ad posted through the sell form and bought from another
// browser, the chat both ways, paid and released with the payment password, balances and records;
// a cancelled order and an expired one (the expiry job run with a clock 6 minutes ahead) giving
// the quantity back to the ad; an appeal resolved by support staff in the back-office (the server's
// clock moved past the appeal's waiting time); and two server nodes on one database and one Redis,
// the seller on one and the buyer on the other, chatting.

const PAYMENT_PASSWORD = '135790';
const MINUTE = 60_000;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function phone(server: E2eServer): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

async function staffPage(server: E2eServer, staff: { username: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  const page = await context.newPage();
  await staffLogin(page, staff);
  return page;
}

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();
/** What a locator shows, or null while it is not on the page (for polling across re-renders). */
const shown = (page: Page, testId: string) => page.getByTestId(testId).first().textContent({ timeout: 500 }).catch(() => null);
/**
 * Polls for up to 12 s: ample for a refresh brought by a push event, and short of the pages' 30 s
 * fallback poll, so a page that stopped following events fails instead of passing slowly.
 */
const eventually = <T>(read: () => Promise<T>, timeout = 12_000) => expect.poll(read, { timeout, interval: 100 });

/** A verified trader (payment password 135790, a Telegram contact), their fiat account (P2P's) funded with `usdt`. */
function newTrader(server: E2eServer, prefix: string, usdt = '0'): Promise<WalletUser> {
  return trader(server.app, server.db, uniqueUsername(prefix), usdt);
}

async function placeOrder(server: E2eServer, buyer: WalletUser, adId: string, quantity: string): Promise<string> {
  const answer = await call(server.app, 'POST', '/home/p2p/orders', buyer.token, { adId, quantity });
  if (answer.code !== 200) throw new Error(`place order: ${answer.msg} ${JSON.stringify(answer.data)}`);
  return answer.data.id as string;
}

async function sendChat(server: E2eServer, user: WalletUser, orderId: string, body: string) {
  const answer = await call(server.app, 'POST', `/home/p2p/orders/${orderId}/chat`, user.token, { text: body }, null);
  if (answer.code !== 200) throw new Error(`chat: ${answer.msg}`);
  return answer.data.id as string;
}

/** The seller's "My ads" row of the ad, freshly loaded, shows `remaining` still offered. */
async function expectAdRemaining(page: Page, adId: string, remaining: string) {
  await page.goto('/trade/shopping?tab=mine');
  const row = page.getByTestId(`ad-row-${adId}`);
  await eventually(() => row.getByTestId('ad-remaining').textContent({ timeout: 500 }).catch(() => null)).toBe(remaining);
  expect(await row.getByTestId('ad-status').textContent()).toBe('Open');
}

/** The balances of the fiat account's USDT on /assets (P2P trades from and into the fiat account). */
async function usdtBalances(page: Page) {
  await page.goto('/assets');
  await page.getByTestId('balance-fiat-USDT-available').waitFor();
  return { available: await text(page, 'balance-fiat-USDT-available'), frozen: await text(page, 'balance-fiat-USDT-frozen') };
}

/**
 * Sends a chat message from the page's chat form; returns its id (from the server's answer) and
 * when that answer arrived.
 */
async function sendFromPage(page: Page, orderId: string, message: string): Promise<{ id: string; answeredAt: number }> {
  await page.getByTestId('chat-input').fill(message);
  const [response] = await Promise.all([
    page.waitForResponse((each) => each.request().method() === 'POST' && new URL(each.url()).pathname === `/home/p2p/orders/${orderId}/chat`),
    page.getByTestId('chat-send').click(),
  ]);
  const answeredAt = Date.now();
  const body = (await response.json()) as { code: number; data: { id: string } };
  expect(body.code).toBe(200);
  // The sender's own page shows it at once, as sent by them.
  const row = page.getByTestId(`chat-message-${body.data.id}`);
  await row.waitFor();
  expect(await row.getAttribute('data-from')).toBe('me');
  expect(await row.getByTestId('chat-text').textContent()).toBe(message);
  expect(await page.getByTestId('chat-input').inputValue()).toBe('');
  return { id: body.data.id, answeredAt };
}

/** The message as the other side's page shows it: from them, its text as plain text (no markup made of it). */
async function seesMessage(page: Page, messageId: string, expected: string) {
  const row = page.getByTestId(`chat-message-${messageId}`);
  await row.waitFor({ timeout: 12_000 });
  expect(await row.getAttribute('data-from')).toBe('them');
  expect(await row.getByTestId('chat-text').textContent()).toBe(expected);
  expect(await row.locator('b, script, img').count()).toBe(0);
}

describe('P2P on one server', () => {
  let server: E2eServer;
  const clock = { offsetMs: 0 };

  beforeAll(async () => {
    server = await startServer({ market: false, clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  afterEach(() => {
    clock.offsetMs = 0;
  });

  it('an ad posted in the sell form is bought from another browser: chat, paid, released with the payment password; balances, records and orders follow', async () => {
    const seller = await newTrader(server, 'seller', '300');
    const buyer = await newTrader(server, 'buyer');
    const sellerPage = await openLoggedIn(await phone(server), seller, '/trade/shopping/sell');

    // The sell form: the whole quantity goes into escrow; the contact comes from the contact methods.
    const form = sellerPage.getByTestId('sell-form');
    await form.waitFor();
    await eventually(() => sellerPage.getByTestId('sell-contact').inputValue()).toBe(`Telegram: @${seller.username}`);
    expect(await sellerPage.getByTestId('sell-fiat').inputValue()).toBe('INR');
    await sellerPage.getByTestId('sell-price').fill('85.50');
    await sellerPage.getByTestId('sell-min').fill('10');
    await sellerPage.getByTestId('sell-max').fill('200');
    // The quantity is held from the fiat account, whose available USDT the form shows.
    await eventually(() => shown(sellerPage, 'sell-available')).toBe('300.00 USDT');
    expect(await sellerPage.getByTestId('sell-transfer').getAttribute('href')).toBe('/assets/transfer');
    await sellerPage.getByTestId('sell-total').fill('300');
    await eventually(() => shown(sellerPage, 'sell-frozen')).toBe('300.00 USDT');
    expect(await text(sellerPage, 'sell-worth')).toContain('25,650.00 INR');
    await sellerPage.getByTestId('sell-remark').fill('IMPS only');
    await sellerPage.getByTestId('sell-submit').click();
    await sellerPage.waitForURL((url) => url.pathname === '/trade/shopping/trading/sell');
    const myRow = sellerPage.locator('[data-testid^="ad-row-"]');
    await eventually(() => myRow.count()).toBe(1);
    const adId = (await myRow.getAttribute('data-testid'))!.replace('ad-row-', '');
    expect(await myRow.getByTestId('ad-status').textContent()).toBe('Open');
    expect(await myRow.getByTestId('ad-total').textContent()).toBe('300.00 USDT');
    expect(await myRow.getByTestId('ad-remaining').textContent()).toBe('300.00 USDT');

    // The buyer finds it in the buy list and orders 100: 8,550.00 INR.
    const buyerPage = await openLoggedIn(await phone(server), buyer, '/trade/shopping');
    const adRow = buyerPage.getByTestId(`ad-row-${adId}`);
    await adRow.waitFor();
    expect(await adRow.getByTestId('ad-seller').textContent()).toBe(seller.username);
    expect(await adRow.getByTestId('ad-price').textContent()).toBe('85.50 INR per USDT');
    expect(await adRow.getByTestId('ad-available').textContent()).toBe('300.00 USDT');
    expect(await adRow.getByTestId('ad-limits').textContent()).toBe('10.00 USDT – 200.00 USDT');
    expect(await adRow.getByTestId('ad-remark').textContent()).toBe('IMPS only');
    await adRow.getByTestId('ad-buy').click();
    await adRow.getByTestId('buy-quantity').fill('100');
    await eventually(() => adRow.getByTestId('buy-total').textContent()).toBe('8,550.00 INR');
    await adRow.getByTestId('buy-submit').click();
    await buyerPage.waitForURL((url) => /^\/trade\/shopping\/trading\/buy_pay\/\d+$/.test(url.pathname));
    const orderId = new URL(buyerPage.url()).pathname.split('/').at(-1)!;

    // The pay page: the exact total, to whom, and a countdown that runs.
    await eventually(() => shown(buyerPage, 'pay-amount')).toBe('8,550.00 INR');
    expect(await text(buyerPage, 'pay-quantity')).toBe('100.00 USDT');
    expect(await text(buyerPage, 'pay-contact')).toBe(`Telegram: @${seller.username}`);
    expect(await text(buyerPage, 'order-status')).toBe('Awaiting payment');
    const countdown = buyerPage.getByTestId('order-countdown');
    expect(await countdown.textContent()).toMatch(/^1[45]:[0-5]\d$/);
    const firstRemaining = Number(await countdown.getAttribute('data-remaining-ms'));
    expect(firstRemaining).toBeGreaterThan(14 * MINUTE);
    expect(firstRemaining).toBeLessThanOrEqual(15 * MINUTE);
    await eventually(async () => Number(await countdown.getAttribute('data-remaining-ms')), 3_000).toBeLessThan(firstRemaining);

    // The chat: the buyer writes (markup stays text), the seller sees it on the order and answers.
    await buyerPage.getByTestId('pay-to-chat').click();
    await buyerPage.waitForURL((url) => url.pathname === `/trade/shopping/trading/contact/${orderId}`);
    const question = '<b>Sending 8,550 INR</b> by IMPS now';
    const { id: questionId } = await sendFromPage(buyerPage, orderId, question);

    await sellerPage.goto('/orderlist');
    const sellerOrderRow = sellerPage.getByTestId(`order-row-${orderId}`);
    await sellerOrderRow.waitFor();
    expect(await sellerOrderRow.getByTestId('order-row-role').textContent()).toBe('Seller');
    expect(await sellerOrderRow.getByTestId('order-row-status').textContent()).toBe('Awaiting payment');
    await sellerOrderRow.getByTestId('order-row-link').click();
    await sellerPage.waitForURL((url) => url.pathname === `/trade/shopping/trading/sell_detail/${orderId}`);
    await seesMessage(sellerPage, questionId, question);
    // Nothing to do for the seller before "paid".
    expect(await sellerPage.getByTestId('release-form').count()).toBe(0);
    const answer = 'Ok, <i>waiting</i> & watching';
    const { id: answerId } = await sendFromPage(sellerPage, orderId, answer);
    await seesMessage(buyerPage, answerId, answer);
    // A photo goes through the chat as an image: both sides fetch it with their session token and
    // show it from a blob URL.
    const slip = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    await buyerPage.getByTestId('chat-image-input').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: slip });
    for (const page of [buyerPage, sellerPage]) {
      const image = page.getByTestId('chat-image').last();
      await image.waitFor({ timeout: 12_000 });
      expect(await image.getAttribute('src')).toMatch(/^blob:/);
      await eventually(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(24);
    }

    // The buyer marks it paid on the pay page.
    await buyerPage.goBack();
    await buyerPage.waitForURL((url) => url.pathname === `/trade/shopping/trading/buy_pay/${orderId}`);
    await buyerPage.getByTestId('pay-mark-paid').click();
    expect(await buyerPage.getByTestId('pay-mark-paid-question').textContent()).toMatch(/Have you sent 8,?550\.00 INR to the seller\?/);
    await buyerPage.getByTestId('pay-mark-paid-confirm').click();
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Paid');
    expect(await text(buyerPage, 'order-status-message')).toBe('Buyer marked paid, waiting for the seller to confirm and release.');

    // The seller's open page follows on its own, then releases with the payment password.
    await eventually(() => shown(sellerPage, 'order-status')).toBe('Paid');
    await sellerPage.getByTestId('release-form').waitFor();
    await sellerPage.getByTestId('release-received').check();
    await sellerPage.getByTestId('release-password').fill(PAYMENT_PASSWORD);
    await sellerPage.getByTestId('release-submit').click();
    await eventually(() => shown(sellerPage, 'order-status')).toBe('Released');
    expect(await text(sellerPage, 'order-status-message')).toBe('Released to the buyer’s fiat account (less the 0.1 % fee).');
    expect(await text(sellerPage, 'order-receives')).toBe('99.90 USDT');
    expect(await text(sellerPage, 'order-fee')).toBe('0.10 USDT');
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Released');
    expect(await text(buyerPage, 'order-status-message')).toBe('Released to the buyer’s fiat account (less the 0.1 % fee).');

    // Balances: the buyer has 100 less the 0.1 % fee; the seller's 300 are 200 still in escrow.
    expect(await usdtBalances(buyerPage)).toEqual({ available: '99.90', frozen: '0.00' });
    expect(await usdtBalances(sellerPage)).toEqual({ available: '0.00', frozen: '200.00' });

    // Records: the release entry on both sides (the seller's from escrow), the escrow hold on the seller's.
    const [release] = await server.db.query<{ closing_entry_id: string }>('SELECT closing_entry_id::text FROM p2p_orders WHERE id = $1', [orderId]);
    const entryId = release!.closing_entry_id;
    expect(entryId).toMatch(/^\d+$/);
    await buyerPage.goto('/assets/records');
    const buyerRecord = buyerPage.locator(`[data-testid="record"][data-entry="${entryId}"]`);
    await buyerRecord.waitFor();
    expect(await buyerRecord.getAttribute('data-reason')).toBe('p2p.release');
    expect(await buyerRecord.getByTestId('record-posting').allTextContents()).toEqual(['Fiat account+99.90 USDT']);
    await sellerPage.goto('/assets/records');
    const sellerRecords = sellerPage.getByTestId('record');
    await eventually(() => sellerRecords.count()).toBe(3);
    expect(await sellerRecords.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-reason')))).toEqual(['p2p.release', 'hold.place', 'demo.fund']);
    expect(await sellerRecords.nth(0).getAttribute('data-entry')).toBe(entryId);
    expect(await sellerRecords.nth(0).getByTestId('record-posting').allTextContents()).toEqual(['Fiat accountfrozen-100.00 USDT']);
    expect(await sellerRecords.nth(1).getByTestId('record-posting').allTextContents()).toEqual(['Fiat account-300.00 USDT', 'Fiat accountfrozen+300.00 USDT']);

    // Both see it among the completed orders, each on their side.
    for (const [page, role] of [
      [buyerPage, 'Buyer'],
      [sellerPage, 'Seller'],
    ] as const) {
      await page.goto('/orderlist');
      await page.getByTestId('orders-tab-completed').click();
      const row = page.getByTestId(`order-row-${orderId}`);
      await row.waitFor();
      expect(await row.getByTestId('order-row-status').textContent()).toBe('Released');
      expect(await row.getByTestId('order-row-role').textContent()).toBe(role);
      expect(await row.getByTestId('order-row-quantity').textContent()).toBe('100.00 USDT');
      expect(await row.getByTestId('order-row-total').textContent()).toBe('8,550.00 INR');
      await page.getByTestId('orders-tab-in-progress').click();
      await page.getByTestId('orders-empty').waitFor();
    }
  });

  it('an order cancelled by the buyer before paying gives its quantity back to the ad', async () => {
    const seller = await newTrader(server, 'cseller', '300');
    const buyer = await newTrader(server, 'cbuyer');
    const ad = await postAd(server.app, seller, '300');
    const orderId = await placeOrder(server, buyer, ad.id, '50');

    const sellerPage = await openLoggedIn(await phone(server), seller, '/assets');
    await expectAdRemaining(sellerPage, ad.id, '250.00 USDT');

    const buyerPage = await openLoggedIn(await phone(server), buyer, `/trade/shopping/trading/buy_pay/${orderId}`);
    await eventually(() => shown(buyerPage, 'pay-amount')).toBe('4,275.00 INR');
    await buyerPage.getByTestId('pay-cancel').click();
    await buyerPage.getByTestId('pay-cancel-confirm').click();
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Cancelled');
    expect(await text(buyerPage, 'order-status-message')).toBe('Order cancelled.');
    expect(await buyerPage.getByTestId('pay-mark-paid').count()).toBe(0);
    expect(await buyerPage.getByTestId('order-countdown').count()).toBe(0);

    await expectAdRemaining(sellerPage, ad.id, '300.00 USDT');
    // And the buyer's list offers all of it again.
    await buyerPage.goto('/trade/shopping');
    await eventually(() => buyerPage.getByTestId(`ad-row-${ad.id}`).getByTestId('ad-available').textContent({ timeout: 500 }).catch(() => null)).toBe('300.00 USDT');
  });

  it('an order not paid within its 5-minute window expires (the job runner 6 minutes ahead): cancelled on the open page, the quantity back on the ad', async () => {
    const seller = await newTrader(server, 'xseller', '300');
    const buyer = await newTrader(server, 'xbuyer');
    const ad = await postAd(server.app, seller, '300', { paymentWindowMinutes: 5 });
    const orderId = await placeOrder(server, buyer, ad.id, '40');

    const sellerPage = await openLoggedIn(await phone(server), seller, '/assets');
    await expectAdRemaining(sellerPage, ad.id, '260.00 USDT');

    const buyerPage = await openLoggedIn(await phone(server), buyer, `/trade/shopping/trading/buy_detail/${orderId}`);
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Awaiting payment');
    expect(await text(buyerPage, 'order-countdown')).toMatch(/^[45]:[0-5]\d$/);

    // The payment window's end, as a runner whose clock is 6 minutes on would reach it.
    const runner = new JobRunner({
      db: server.db,
      handlers: jobHandlers,
      now: () => new Date(Date.now() + 6 * MINUTE),
      afterCommit: (job) => announceExpiry({ db: server.db, events: server.events, logger: server.app.log }, job),
    });
    const drainedAt = Date.now();
    expect(await runner.drain()).toBeGreaterThanOrEqual(1);
    const [job] = await server.db.query<{ status: string }>('SELECT status FROM jobs WHERE job_key = $1', [`p2p.order.expire:${orderId}`]);
    expect(job?.status).toBe('done');

    // The open page shows it without a reload.
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Cancelled');
    const expiredShownMs = Date.now() - drainedAt;
    expect(await text(buyerPage, 'order-status-message')).toBe('Order cancelled: the payment window ended before the order was marked paid.');
    expect(await buyerPage.getByTestId('order-countdown').count()).toBe(0);
    expect(await buyerPage.getByTestId('order-mark-paid').count()).toBe(0);
    console.info(`[p2p e2e] expiry shown on the open buyer page ${expiredShownMs} ms after the job ran`);

    await expectAdRemaining(sellerPage, ad.id, '300.00 USDT');
  });

  it('an appeal after the waiting time is resolved by support staff: released to the buyer, the note told to both', async () => {
    const seller = await newTrader(server, 'aseller', '300');
    const buyer = await newTrader(server, 'abuyer');
    const ad = await postAd(server.app, seller, '300');
    const orderId = await placeOrder(server, buyer, ad.id, '100');
    const claim = 'Paid 8,550 INR by IMPS, reference 4471';
    const denial = 'Nothing has arrived in my account';
    await sendChat(server, buyer, orderId, claim);
    await sendChat(server, seller, orderId, denial);
    expect((await call(server.app, 'POST', `/home/p2p/orders/${orderId}/paid`, buyer.token)).code).toBe(200);

    // The seller does not release; the appeal opens once the window (15 min) has passed again since "paid".
    const buyerPage = await openLoggedIn(await phone(server), buyer, `/trade/shopping/trading/buy_detail/${orderId}`);
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Paid');
    clock.offsetMs = 16 * MINUTE;
    await buyerPage.getByTestId('order-appeal').click();
    // Too short a reason is not sent.
    await buyerPage.getByTestId('appeal-reason').fill('no');
    await buyerPage.getByTestId('appeal-submit').click();
    await buyerPage.getByText('Say what happened, in at least 5 characters.').waitFor();
    const reason = 'I paid 16 minutes ago and the seller does not release';
    await buyerPage.getByTestId('appeal-reason').fill(reason);
    await buyerPage.getByTestId('appeal-submit').click();
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Under appeal');
    expect(await text(buyerPage, 'order-status-message')).toBe('Under appeal: the coins stay in escrow until support staff decide.');
    await buyerPage.getByTestId('appeal-open').waitFor();

    // Support staff: the queue, the order, the reason, the whole chat; release with a note.
    const support = await createStaff(server, 'support01', ['support']);
    const staff = await staffPage(server, support);
    await staff.getByRole('link', { name: 'Appeals', exact: true }).click();
    const row = staff.getByTestId(`appeal-row-${orderId}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(reason);
    await row.getByRole('link', { name: 'View' }).click();
    const detail = staff.getByTestId('appeal-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('field-reason').textContent()).toBe(reason);
    expect(await detail.getByTestId('field-buyer').textContent()).toBe(`${buyer.username} (#${buyer.userId})`);
    expect(await detail.getByTestId('field-seller').textContent()).toBe(`${seller.username} (#${seller.userId})`);
    expect(await detail.getByTestId('field-total').textContent()).toMatch(/^8550\.00 INR$/);
    expect(await detail.getByTestId('appeal-chat').locator('.chat-text').allTextContents()).toEqual([claim, denial]);
    const note = 'Bank statement 4471 shows the payment arrived';
    await detail.locator('textarea[name="note"]').fill(note);
    await detail.getByRole('button', { name: 'Release to the buyer' }).click();
    // The confirmation dialog names the effect with the order's own amounts and both users.
    const confirm = staff.getByRole('alertdialog');
    expect(await confirm.locator('#confirm-text').textContent()).toMatch(
      new RegExp(
        `^100(\\.0+)? USDT leave the escrow of ${seller.username} \\(#${seller.userId}\\): 99\\.90* USDT to ${buyer.username} \\(#${buyer.userId}\\), 0\\.10* USDT fee\\. `,
      ),
    );
    await confirm.getByRole('button', { name: 'Confirm release' }).click();
    await detail.getByTestId('appeal-resolution').waitFor();
    expect(await detail.getByTestId('field-note').textContent()).toBe(note);
    expect(await detail.getByTestId('field-resolvedBy').textContent()).toBe('support01');

    // The buyer's open page follows: released, and the balance is credited.
    await eventually(() => shown(buyerPage, 'order-status')).toBe('Released');
    expect(await text(buyerPage, 'order-status-message')).toBe('Released to the buyer’s fiat account (less the 0.1 % fee).');
    expect(await usdtBalances(buyerPage)).toEqual({ available: '99.90', frozen: '0.00' });

    // Both sides read staff's note (ADR 0016: "with a note both sides read") among their system
    // messages, next to the decision's own message.
    const sellerPage = await openLoggedIn(await phone(server), seller, '/message');
    await buyerPage.goto('/message');
    for (const [page, side] of [
      [sellerPage, 'seller'],
      [buyerPage, 'buyer'],
    ] as const) {
      const bodies = page.getByTestId('message-body');
      await eventually(async () => (await bodies.allTextContents()).some((body) => body.startsWith('Released:'))).toBe(true);
      expect.soft(await bodies.allTextContents(), `the ${side} reads staff's note in /message`).toContainEqual(expect.stringContaining(note));
    }
  });

  it('an appeal above 1,000 USDT: one support member only proposes (shown in the queue and the detail), a second one confirms it', async () => {
    const seller = await newTrader(server, 'bseller', '2000');
    const buyer = await newTrader(server, 'bbuyer');
    const ad = await postAd(server.app, seller, '2000', { max: '2000' });
    const orderId = await placeOrder(server, buyer, ad.id, '2000');
    expect((await call(server.app, 'POST', `/home/p2p/orders/${orderId}/paid`, buyer.token)).code).toBe(200);
    clock.offsetMs = 16 * MINUTE;
    expect((await call(server.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, buyer.token, { reason: 'Paid, and no release since' })).code).toBe(200);
    const buyerUsdt = async () => (await server.db.query<{ available_minor: string }>(`SELECT available_minor::text FROM ledger_accounts WHERE user_id = $1 AND kind = 'fiat'`, [buyer.userId]))[0]?.available_minor ?? '0';

    // The first member: the dialog names the amounts and both users, and says it may only be a proposal.
    const first = await staffPage(server, await createStaff(server, 'support02', ['support']));
    await first.getByRole('link', { name: 'Appeals', exact: true }).click();
    await first.getByTestId(`appeal-row-${orderId}`).getByRole('link', { name: 'View' }).click();
    const detail = first.getByTestId('appeal-detail');
    await detail.locator('textarea[name="note"]').fill('The bank statement shows the payment');
    await detail.getByRole('button', { name: 'Release to the buyer' }).click();
    const confirm = first.getByRole('alertdialog');
    expect(await confirm.locator('#confirm-text').textContent()).toMatch(
      new RegExp(`^2000(\\.0+)? USDT leave the escrow of ${seller.username} \\(#${seller.userId}\\): 1998\\.0+ USDT to ${buyer.username} \\(#${buyer.userId}\\), 2\\.0+ USDT fee\\. If the two-person rule applies`),
    );
    await confirm.getByRole('button', { name: 'Confirm release' }).click();
    await expect.poll(() => text(first, 'appeal-notice')).toMatch(/: your proposal “Released to the buyer” is recorded\. A different support member must confirm it; nothing has moved\.$/);
    expect(await text(first, 'two-person-reason')).toBe('Needs a second approver: worth 2000.000000 USDT, above the threshold of 1000.000000 USDT.');
    expect(await text(first, 'appeal-proposal-waiting')).toMatch(/^support02 proposed “Released to the buyer” at /);
    await expect.poll(() => first.getByTestId(`appeal-row-${orderId}`).getByTestId('needs-second-approver').textContent()).toBe(
      'Needs a second member: “Released to the buyer” proposed by support02',
    );
    expect(await buyerUsdt()).toBe('0');

    // A second member confirms the same outcome: now it is carried out.
    const second = await staffPage(server, await createStaff(server, 'support03', ['support']));
    await second.getByRole('link', { name: 'Appeals', exact: true }).click();
    await second.getByTestId(`appeal-row-${orderId}`).getByRole('link', { name: 'View' }).click();
    const secondDetail = second.getByTestId('appeal-detail');
    expect(await secondDetail.getByTestId('field-proposedBy').textContent()).toBe('support02');
    expect(await secondDetail.locator('textarea[name="note"]').inputValue()).toBe('The bank statement shows the payment');
    await secondDetail.getByRole('button', { name: 'Release to the buyer' }).click();
    const secondConfirm = second.getByRole('alertdialog');
    expect(await secondConfirm.locator('#confirm-text').textContent()).toContain('support02 proposed this outcome: your confirmation carries it out now.');
    await secondConfirm.getByRole('button', { name: 'Confirm release' }).click();
    await secondDetail.getByTestId('appeal-resolution').waitFor();
    expect(await secondDetail.getByTestId('field-resolvedBy').textContent()).toBe('support03');
    expect(await buyerUsdt()).toBe('1998000000');
  });
});

describe('P2P on two nodes sharing one database and one Redis', () => {
  let nodeA: E2eServer;
  let nodeB: E2eServer;
  const buses: EventBus[] = [];
  const clients: TestWsClient[] = [];

  beforeAll(async () => {
    const prefix = randomBusPrefix();
    buses.push(redisEventBus(prefix), redisEventBus(prefix));
    nodeA = await startServer({ market: false, events: buses[0] });
    nodeB = await startSecondNode(nodeA, { events: buses[1] });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await nodeB?.close();
    await nodeA?.close();
    for (const bus of buses) await bus.close();
  });

  /** A page of `node` logged in as `user`, with every /ws frame it sends and receives kept (with the time). */
  async function watchedPage(node: E2eServer, user: WalletUser, path: string) {
    const context = await phone(node);
    const page = await context.newPage();
    const sent: string[] = [];
    const received: { at: number; payload: string }[] = [];
    page.on('websocket', (socket) => {
      socket.on('framesent', (frame) => sent.push(String(frame.payload)));
      socket.on('framereceived', (frame) => received.push({ at: Date.now(), payload: String(frame.payload) }));
    });
    await page.goto('/login');
    await page.evaluate(({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', userId);
    }, user);
    await page.goto(path);
    return { page, sent, received };
  }

  /** A /ws connection to `node` authenticated as `user`, as any client of the protocol would open it. */
  async function listener(node: E2eServer, user: WalletUser) {
    const client = await TestWsClient.connect(node.baseUrl);
    clients.push(client);
    client.send({ op: 'auth', token: user.token });
    await client.until(() => client.ofType('authed').length > 0);
    return client;
  }

  it('a chat message sent on one node reaches the other side on the other node within seconds', async () => {
    const seller = await newTrader(nodeA, 'nseller', '300');
    const buyer = await newTrader(nodeA, 'nbuyer');
    const ad = await postAd(nodeA.app, seller, '300');
    // Placed on node B: the order is in the one database both nodes read.
    const orderId = await placeOrder(nodeB, buyer, ad.id, '20');

    const sellerOnA = await listener(nodeA, seller);
    const buyerOnB = await listener(nodeB, buyer);
    const sellerView = await watchedPage(nodeA, seller, `/trade/shopping/trading/sell_detail/${orderId}`);
    const buyerView = await watchedPage(nodeB, buyer, `/trade/shopping/trading/contact/${orderId}`);
    await eventually(() => shown(sellerView.page, 'order-status')).toBe('Awaiting payment');
    await sellerView.page.getByTestId('chat-empty').waitFor();
    await buyerView.page.getByTestId('chat-empty').waitFor();
    // Each page opens its push connection once its first screen has settled (ADR 0025): what is
    // asserted below is that an event reaches a connected page, so both are connected first (an
    // event before that is not replayed; the page refetches on `authed` instead).
    for (const view of [sellerView, buyerView]) {
      await expect.poll(() => view.received.some((frame) => frame.payload.includes('"type":"authed"')), { timeout: 10_000 }).toBe(true);
    }

    const timings: string[] = [];
    for (const [from, to, who, toListener, message] of [
      [buyerView, sellerView, 'buyer on B → seller on A', sellerOnA, 'Hello from node B, sending the payment'],
      [sellerView, buyerView, 'seller on A → buyer on B', buyerOnB, 'Seen on node A, thanks'],
    ] as const) {
      const { id: messageId, answeredAt } = await sendFromPage(from.page, orderId, message);
      // The bus carried the event across nodes: a plain /ws client on the other node hears it.
      await toListener.until(() => toListener.ofType('event').some((frame) => frame.event.kind === 'p2p.chat' && frame.event.messageId === messageId), 5_000);
      const listenerAt = Date.now();
      // The other side's page shows it within seconds (its fallback poll is far slower: the push brings it).
      await to.page.getByTestId(`chat-message-${messageId}`).waitFor({ timeout: 5_000 });
      const shownAt = Date.now();
      await seesMessage(to.page, messageId, message);
      const pageEvent = to.received.find((frame) => frame.payload.includes('"p2p.chat"') && frame.payload.includes(`"${messageId}"`));
      timings.push(
        `${who}: /ws listener ${listenerAt - answeredAt} ms, page's event ${pageEvent ? `${pageEvent.at - answeredAt} ms` : 'none'}, ` +
          `shown ${shownAt - answeredAt} ms after the send was answered`,
      );
      // The page follows the user's events on its own /ws (authenticated with the session) and
      // refetches the chat when this message's event arrives, not at a later poll.
      expect(to.sent.some((payload) => payload.includes('"op":"auth"')), 'the page authenticates its /ws connection').toBe(true);
      expect(pageEvent, "the chat event reaches the other side's page").toBeDefined();
      expect(shownAt - pageEvent!.at).toBeLessThan(1_500);
    }
    console.info(`[p2p e2e] two nodes:\n  ${timings.join('\n  ')}`);
  });
});
