import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountBalance, addProduct, fundTreasury, specProduct, usdt } from '../../apps/server/test/integration/earn/earn-helpers.ts';
import { setPaymentPassword } from '../../apps/server/test/helpers/wallet.ts';
import { announceSettled, payDueInterest } from '../../apps/server/src/use-cases/earn/pay-interest.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, pathOf } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 17, the earn pages in the browser: the spec's lock-up product (0.3 % a day for 5 days,
// paid at 00:00 UTC, 0.4 % per remaining day) with the earn treasury that pays it; a purchase of
// 1,000 USDT whose estimated income (15 USDT) shows before confirming, after the one-time
// acknowledgement and with the payment password; the subscription in /Lockup/subscribe; the
// server's clock moved past the first payout and the payout job run: 3 USDT paid, with its journal
// entry; then an early redemption whose penalty is the formula's (0.4 % × 4 remaining days × 1,000
// = 16 USDT) and which returns 984 USDT to the coin account.

const PAYMENT_PASSWORD = '135790';
const clock = { offsetMs: 0 };
let server: E2eServer;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  clock.offsetMs = 0;
  server = await startServer({ market: false, clock });
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  await server?.close();
});

/** Text as read, without the isolates (U+2066 … U+2069) that keep numbers left to right in RTL text. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').trim();
const text = async (scope: Page | Locator, testId: string) => plain(await scope.getByTestId(testId).first().textContent());
const value = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).first().getAttribute('data-value');

/** A user with a payment password and `amount` USDT in the coin account. */
async function saver(prefix: string, amount = '10000') {
  const user = await registerUser(server.baseUrl, uniqueUsername(prefix));
  await setPaymentPassword(server.app, { token: user.token, userId: user.userId, username: user.username }, PAYMENT_PASSWORD);
  if (amount !== '0') await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount });
  return user;
}

describe('earn: lock-up mining in the browser', () => {
  it('shows the product and the treasury, subscribes 1,000 USDT, shows a day’s interest paid and redeems early with the formula’s penalty', async () => {
    const productId = await addProduct(server.db, specProduct());
    await fundTreasury(server.db, '100000');
    const user = await saver('earn');
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/Lockup');

    // The product with its terms, and who pays: the earn treasury with its balance and what it owes.
    const card = page.getByTestId(`earn-product-${productId}`);
    await card.waitFor();
    expect(await page.locator('h1').first().textContent()).toBe('Lock-up mining');
    expect(await text(card, 'earn-product-name')).toBe('Mining 5 days');
    expect(await text(card, 'earn-product-rate')).toBe('0.3 %');
    expect(await text(card, 'earn-product-cycle')).toBe('5 days');
    expect(await text(card, 'earn-product-range')).toBe('100.00 USDT – 100,000.00 USDT');
    expect(await text(card, 'earn-product-quota')).toBe('1,000,000.00 USDT');
    expect(await text(card, 'earn-product-payout')).toBe('Every day at 00:00 UTC');
    expect(await text(card, 'earn-product-early')).toBe('Allowed, penalty 0.4 % of the principal per remaining day');
    expect(await text(page, 'earn-treasury-text')).toBe(
      'Interest is paid by the platform’s earn treasury: balance 100,000.00 USDT, owed 0.00 USDT to subscriptions in progress.',
    );
    expect(await page.getByTestId('not-found-page').count()).toBe(0);

    // Financial products: a page of its own, none offered.
    await page.getByTestId('earn-switch-financial').click();
    await page.waitForURL((url) => url.pathname === '/Lockup/Financial');
    await page.getByTestId('earn-no-products').waitFor();
    await page.getByTestId('earn-switch-lockup').click();

    // The purchase page: the terms in words, the penalty formula worked through with the product's own rate.
    await page.getByTestId(`earn-product-${productId}`).getByTestId('earn-product-purchase').click();
    await page.waitForURL((url) => url.pathname === `/Lockup/Purchase/${productId}`);
    await page.getByTestId('earn-terms-words').waitFor();
    expect(await text(page, 'earn-terms-words')).toContain('You lock USDT for 5 days. Every day at 00:00 UTC you are paid 0.3 % of the amount in interest');
    expect(await text(page, 'earn-penalty-example')).toBe('For example: 0.4 % × 3 days × 1,000.00 USDT = 12.00 USDT');
    expect(await text(page, 'earn-available')).toBe('10,000.00 USDT');

    // An amount outside the range is refused before anything is sent.
    await page.getByTestId('earn-amount').fill('50');
    await page.getByTestId('earn-review').click();
    await expect.poll(async () => plain(await page.getByRole('alert').first().textContent())).toBe('The amount must be between 100.00 USDT and 100,000.00 USDT.');

    // 1,000 USDT: 3 USDT a day, 15 USDT in all, computed live before confirming.
    await page.getByTestId('earn-amount').fill('1000');
    await expect.poll(() => value(page, 'earn-estimate-income')).toBe('15.000000');
    expect(await value(page, 'earn-estimate-daily')).toBe('3.000000');
    expect(await text(page, 'earn-estimate-income')).toBe('15.00 USDT');
    expect(await value(page, 'earn-estimate-max-penalty')).toBe('20.000000');
    const firstPayout = Number(await value(page, 'earn-estimate-first-payout'));
    expect(firstPayout % 86_400_000).toBe(0);
    expect(Number(await value(page, 'earn-estimate-maturity'))).toBe(firstPayout + 4 * 86_400_000);

    // The one-time acknowledgement, then the confirmation with the payment password.
    await page.getByTestId('earn-review').click();
    const ack = page.getByTestId('earn-ack');
    await ack.waitFor();
    expect(await ack.textContent()).toContain('Nothing ever has to be paid to get your principal back.');
    expect(await page.getByTestId('earn-ack-accept').isDisabled()).toBe(true);
    await page.getByTestId('earn-ack-check').check();
    await page.getByTestId('earn-ack-accept').click();
    const confirm = page.getByTestId('earn-confirm-sheet');
    await confirm.waitFor();
    expect(await value(confirm, 'earn-confirm-amount')).toBe('1000');
    expect(await text(confirm, 'earn-confirm-income')).toBe('15.00 USDT');
    await page.getByTestId('earn-confirm-password').fill(PAYMENT_PASSWORD);
    await page.getByTestId('earn-confirm').click();

    // In progress: principal, 5 days left, nothing paid yet, today's penalty 0.4 % × 5 × 1,000 = 20.
    await page.waitForURL((url) => url.pathname === '/Lockup/subscribe');
    await page.getByTestId('earn-subscribed').waitFor();
    const sub = page.getByTestId('earn-subs-active').locator('article').first();
    await sub.waitFor();
    expect(await value(sub, 'earn-sub-principal')).toBe('1000.000000');
    expect(await value(sub, 'earn-sub-remaining')).toBe('5');
    expect(await value(sub, 'earn-sub-interest')).toBe('0.000000');
    expect(await value(sub, 'earn-sub-income')).toBe('15.000000');
    expect(await value(sub, 'earn-sub-penalty-now')).toBe('20.000000');
    expect(Number(await value(sub, 'earn-sub-next'))).toBe(firstPayout);
    expect(await accountBalance(server.db, user.userId, 'coin')).toEqual({ available: usdt('9000'), frozen: 0n });

    // The server's clock past the first payout; the payout job pays day 1: 3 USDT, and tells the
    // user's screens (the push event) — the page shows it without a reload.
    clock.offsetMs = firstPayout + 60_000 - Date.now();
    const paid = await payDueInterest({ db: server.db, now: server.now });
    expect(paid.length).toBe(1);
    await announceSettled({ events: server.events, logger: server.app.log }, paid);
    const after = page.getByTestId('earn-subs-active').locator('article').first();
    await expect.poll(() => value(after, 'earn-sub-interest')).toBe('3.000000');
    expect(await value(after, 'earn-sub-remaining')).toBe('4');
    expect(await value(after, 'earn-sub-penalty-now')).toBe('16.000000');
    expect(Number(await value(after, 'earn-sub-next'))).toBe(firstPayout + 86_400_000);
    await after.getByTestId('earn-sub-details').locator('summary').click();
    const payout = after.getByTestId('earn-payout-1');
    await payout.waitFor();
    expect(await payout.getAttribute('data-entry-id')).toMatch(/^\d+$/);
    expect(plain(await payout.textContent())).toContain('Day 1 3.00 USDT');

    // Early redemption: the penalty by the formula with today's remaining days, what returns.
    await after.getByTestId('earn-sub-redeem').click();
    const sheet = page.getByTestId('earn-redeem-sheet');
    await sheet.waitFor();
    expect(await text(sheet, 'earn-redeem-formula')).toBe('Penalty = rate × remaining days × amount: 0.4 % × 4 days × 1,000.00 USDT = 16.00 USDT');
    expect(await value(sheet, 'earn-redeem-penalty')).toBe('16.000000');
    expect(await value(sheet, 'earn-redeem-returns')).toBe('984.000000');
    expect(await value(sheet, 'earn-redeem-interest')).toBe('3.000000');
    await page.getByTestId('earn-redeem-password').fill('111111');
    await page.getByTestId('earn-redeem-confirm').click();
    await page.getByTestId('earn-redeem-error').waitFor();
    // A wrong payment password is refused in words, with the tries left; nothing is redeemed.
    expect(await text(page, 'earn-redeem-error')).toBe('Wrong payment passwordWrong tries left before it locks: 4.');
    await page.getByTestId('earn-redeem-password').fill(PAYMENT_PASSWORD);
    await page.getByTestId('earn-redeem-confirm').click();
    const done = page.getByTestId('earn-redeemed');
    await done.waitFor();
    expect(await done.locator('[data-penalty]').getAttribute('data-penalty')).toBe('16.000000');
    expect(await done.locator('[data-penalty]').getAttribute('data-returned')).toBe('984.000000');
    await page.getByTestId('earn-subs-empty').waitFor();

    // Ended: redeemed, with the penalty and what returned; the coin account has 9,000 + 3 + 984.
    await page.getByTestId('earn-scope-ended').click();
    const ended = page.getByTestId('earn-subs-ended').locator('article').first();
    await ended.waitFor();
    expect(pathOf(page)).toBe('/Lockup/subscribe?scope=ended');
    expect(await ended.getAttribute('data-status')).toBe('redeemed');
    expect(await value(ended, 'earn-sub-penalty')).toBe('16.000000');
    expect(await value(ended, 'earn-sub-returned')).toBe('984.000000');
    expect(await value(ended, 'earn-sub-interest')).toBe('3.000000');
    expect(await accountBalance(server.db, user.userId, 'coin')).toEqual({ available: usdt('9987'), frozen: 0n });

    // The records: the subscription, the day's interest and the redemption, each a journal entry with its label.
    await page.goto('/assets/records');
    const record = (reason: string) => page.locator(`[data-testid="record"][data-reason="${reason}"]`).first();
    await record('earn.interest').waitFor();
    expect(await record('earn.interest').locator('.record-reason').textContent()).toBe('Earn interest');
    expect(plain(await record('earn.interest').getByTestId('record-amount').first().textContent())).toBe('+3.00 USDT');
    expect(await record('earn.redeem').locator('.record-reason').textContent()).toBe('Earn early redemption');
    expect(await record('earn.subscribe').locator('.record-reason').textContent()).toBe('Earn subscription (principal locked)');
  });

  it('a product id that is no number is "not found"; a missing product says so', async () => {
    const user = await saver('earnnf', '0');
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/Lockup/Purchase/abc');
    await page.getByTestId('not-found-page').waitFor();
    await page.goto('/Lockup/Purchase/999999');
    await page.getByTestId('earn-product-missing').waitFor();
  });
});
