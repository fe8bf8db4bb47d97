import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../apps/server/src/persistence/ledger-check.ts';
import { setPaymentPassword, verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 19 in the browser, a transfer to another user (ADR 0042): user A (identity verified, a
// payment password, 100 USDT) opens /assets/transfer, picks "To another user", is told they cannot
// send to themselves, finds B by username and sees B's public name and UID, enters 10 USDT and sees
// the 0.10 % fee (0.01) and the total (10.01) before anything is sent, confirms in a dialog that
// names B and the three figures, and gets the done view; A's coin account lost exactly 10.01 (the
// ledger and the page agree), A's records show the entry with its label, and B, in a browser of
// their own, finds +10 USDT in the records and the message. A user without identity verification is
// refused as a withdrawal would be, and nothing moves. Axe (serious and critical) on the form and
// the dialog; once in Arabic, right to left with the numbers left to right. USDT needs no price, so
// the server runs without a market.

const PAYMENT_PASSWORD = '135790';
let server: E2eServer;
let browser: Browser;
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

/** Text as read, without the isolates (U+2066 … U+2069) that keep numbers and names in place, spaces collapsed. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const text = async (scope: Page | Locator, testId: string) => plain(await scope.getByTestId(testId).first().textContent());
const direction = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).direction);

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

async function phoneContext(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

/** A registered user; `ready`: identity verified (tier 1) with a payment password; `usdt` in the coin account. */
async function transferUser(prefix: string, options: { usdt?: string; verified?: boolean; paymentPassword?: boolean } = {}) {
  const user = await registerUser(server.baseUrl, uniqueUsername(prefix));
  if (options.verified) await verifyUser(server.db, user.userId);
  if (options.paymentPassword) await setPaymentPassword(server.app, user, PAYMENT_PASSWORD);
  if (options.usdt) await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: options.usdt });
  return user;
}

/** The user's coin balance in USDT minor units (6 decimals), from the ledger. */
async function coinUsdt(userId: string): Promise<string> {
  const [row] = await server.db.query<{ available: string }>(
    "SELECT available_minor::text AS available FROM ledger_accounts WHERE user_id = $1 AND kind = 'coin' AND asset = 'USDT'",
    [userId],
  );
  return row?.available ?? '0';
}

/** The error text under a field, found through the input's aria-describedby (what a screen reader reads). */
async function fieldError(page: Page, input: Locator): Promise<string> {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const id = await input.getAttribute('aria-describedby');
  return plain(await page.locator(`[id="${id}"]`).textContent());
}

/** Counts the POSTs the page makes to send a transfer to another user. */
function countTransferPosts(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/home/assets/transfer-to-user') seen.count += 1;
  });
  return seen;
}

describe('a transfer to another user', () => {
  it('A finds B, sees the fee and the total, confirms; the money moves exactly and both see it', async () => {
    const sender = await transferUser('utxa', { usdt: '100', verified: true, paymentPassword: true });
    const recipient = await transferUser('utxb');
    const page = await openLoggedIn(await phoneContext(), sender, '/assets/transfer');
    const posts = countTransferPosts(page);

    // Between one's own accounts is the default; "To another user" is the other mode, kept in the address.
    const own = page.getByRole('button', { name: 'Between my accounts' });
    const toUser = page.getByRole('button', { name: 'To another user' });
    await expect.poll(() => own.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('transfer-fee').textContent()).toBe('Free');
    await toUser.click();
    await page.waitForURL((url) => url.pathname === '/assets/transfer' && url.searchParams.get('to') === 'user');
    await expect.poll(() => toUser.getAttribute('aria-pressed')).toBe('true');
    expect(await own.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('transfer-from').count()).toBe(0);
    const form = page.getByTestId('user-transfer-form');
    await expect.poll(() => text(form, 'user-transfer-available')).toBe('100.00 USDT');
    expect(await text(page, 'user-transfer-note')).toBe(
      'A transfer to another user is final and cannot be reversed. It is judged by the withdrawal rules below and counts in the same daily withdrawal count and limit.',
    );
    // The rules panel below the form: the fee and that transfers count with withdrawals.
    expect(await text(page, 'rules-user-transfer')).toBe(
      'Transfers to other users: the sender pays a fee of 0.10 % on top of the amount, and each transfer counts in the same daily count and limit as withdrawals.',
    );
    expect(await text(page, 'rules-count')).toMatch(/^0 of \d+ used today$/);
    expect(await page.getByTestId('user-transfer-no-paypassword').count()).toBe(0);

    const to = form.getByLabel('Recipient (username or UID)');
    // Nothing typed: the form says what it needs.
    await form.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, to)).toBe('Enter the recipient’s username or UID');

    // Oneself: refused by the lookup, said on the field.
    await to.fill(sender.username);
    await form.getByRole('button', { name: 'Find' }).click();
    expect(await fieldError(page, to)).toBe('You cannot transfer to yourself; move money between your own accounts with the free transfer');
    expect(await form.getByTestId('user-transfer-recipient').count()).toBe(0);
    // Nobody by that name.
    await to.fill(`${recipient.username}zz`);
    await expect.poll(() => to.getAttribute('aria-invalid')).toBeNull();
    await to.press('Enter');
    expect(await fieldError(page, to)).toBe('No user has this username or UID');
    // A name typed but not looked up cannot be sent to.
    await to.fill(recipient.username);
    await form.getByTestId('user-transfer-amount').fill('10');
    await form.getByTestId('user-transfer-paypassword').fill(PAYMENT_PASSWORD);
    await form.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, to)).toBe('Press Find first to see who will receive the transfer');
    expect(await page.getByRole('dialog').count()).toBe(0);

    // B: their public name (the username; no nickname) and user number.
    await form.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => text(form, 'user-transfer-recipient')).toBe(`Recipient: ${recipient.username} (UID ${recipient.userId})`);
    expect(await to.getAttribute('aria-invalid')).toBeNull();

    // The live figures: 10 USDT arrive, the fee is 0.10 % (0.01), 10.01 leaves the coin account.
    await expect.poll(() => text(form, 'user-transfer-receives')).toBe('10.00 USDT');
    expect(await text(form, 'user-transfer-fee')).toBe('0.01 USDT');
    expect(await text(form, 'user-transfer-total')).toBe('10.01 USDT');
    expect(plain(await form.getByTestId('user-transfer-fee').locator('xpath=preceding-sibling::dt').textContent())).toBe('Fee (0.10 %)');
    // "All" leaves room for the fee: 99.900099 + 0.099901 = 100.
    await form.getByTestId('user-transfer-all').click();
    await expect.poll(() => form.getByTestId('user-transfer-amount').inputValue()).toBe('99.900099');
    await expect.poll(() => text(form, 'user-transfer-fee')).toBe('0.099901 USDT');
    expect(await text(form, 'user-transfer-total')).toBe('100.00 USDT');
    // One minor unit more no longer fits, and the form says so before anything is sent.
    await form.getByTestId('user-transfer-amount').fill('99.9001');
    expect(await fieldError(page, form.getByTestId('user-transfer-amount'))).toBe('The amount plus the 0.099901 USDT fee is more than your available balance');
    await form.getByTestId('user-transfer-amount').fill('10');
    await expect.poll(() => text(form, 'user-transfer-total')).toBe('10.01 USDT');
    expect(await form.getByTestId('user-transfer-amount').getAttribute('aria-invalid')).toBeNull();
    expect(await seriousViolations(page), 'the transfer form with a recipient found').toEqual([]);

    // Continue: a confirmation names B and the three figures; nothing is sent yet.
    await form.getByRole('button', { name: 'Continue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the transfer' });
    await dialog.waitFor();
    expect(await text(dialog, 'user-transfer-confirm-recipient')).toBe(`${recipient.username} (UID ${recipient.userId})`);
    expect(await text(dialog, 'user-transfer-confirm-amount')).toBe('10.00 USDT');
    expect(await text(dialog, 'user-transfer-confirm-fee')).toBe('0.01 USDT');
    expect(await text(dialog, 'user-transfer-confirm-total')).toBe('10.01 USDT');
    expect(posts.count).toBe(0);
    expect(await coinUsdt(sender.userId)).toBe('100000000');
    expect(await seriousViolations(page), 'the confirmation dialog').toEqual([]);
    // Back keeps everything as it was; confirming again sends it once.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(posts.count).toBe(0);
    await form.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();

    // Done: whom it went to, the figures, the coin balance now.
    const done = page.getByTestId('user-transfer-done');
    await done.waitFor();
    expect(plain(await done.textContent())).toBe(`Sent to ${recipient.username} (UID ${recipient.userId}).`);
    await expect.poll(() => page.getByRole('heading', { name: 'Transfer sent' }).evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await text(page, 'user-transfer-done-amount')).toBe('10.00 USDT');
    expect(await text(page, 'user-transfer-done-fee')).toBe('0.01 USDT');
    expect(await text(page, 'user-transfer-done-total')).toBe('10.01 USDT');
    expect(await text(page, 'user-transfer-done-balance')).toBe('89.99 USDT');
    expect(posts.count).toBe(1);
    // The ledger: exactly 10.01 left A, exactly 10 reached B, and every entry checks out.
    expect(await coinUsdt(sender.userId)).toBe('89990000');
    expect(await coinUsdt(recipient.userId)).toBe('10000000');
    expect((await checkLedger(server.db)).problems).toEqual([]);
    // The rules panel counts it with the day's withdrawals.
    await expect.poll(() => text(page, 'rules-count')).toMatch(/^1 of \d+ used today$/);

    // A's records: the entry with its label and A's own posting only.
    await page.getByRole('link', { name: 'See it in your records' }).click();
    await page.waitForURL((url) => url.pathname === '/assets/records');
    const sent = page.getByTestId('record').first();
    await expect.poll(() => sent.getAttribute('data-reason')).toBe('transfer.user');
    expect(plain(await sent.locator('.record-reason').textContent())).toBe('Transfer with another user');
    expect((await sent.getByTestId('record-posting').allTextContents()).map(plain)).toEqual(['Coin account-10.01 USDT']);
    // And the coin balance on the assets page.
    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-coin-USDT-available')).toBe('89.99');

    // B, on a device of their own: +10 USDT in the records, and the message naming A.
    const other = await openLoggedIn(await phoneContext(), recipient, '/assets/records');
    const received = other.getByTestId('record').first();
    await expect.poll(() => received.getAttribute('data-reason')).toBe('transfer.user');
    expect(plain(await received.locator('.record-reason').textContent())).toBe('Transfer with another user');
    expect((await received.getByTestId('record-posting').allTextContents()).map(plain)).toEqual(['Coin account+10.00 USDT']);
    await other.goto('/message');
    await expect.poll(async () => (await other.getByTestId('message-title').allTextContents()).map(plain)).toContain('You received 10.000000 USDT');
    expect((await other.getByTestId('message-body').allTextContents()).map(plain).some((body) => body.startsWith(`${sender.username} (UID ${sender.userId}) sent you 10.000000 USDT.`))).toBe(
      true,
    );
  });

  it('a user without identity verification is refused as a withdrawal would be, and nothing moves', async () => {
    const sender = await transferUser('utxc', { usdt: '50', paymentPassword: true });
    const recipient = await transferUser('utxd');
    const page = await openLoggedIn(await phoneContext(), sender, '/assets/transfer?to=user');
    const form = page.getByTestId('user-transfer-form');
    await expect.poll(() => text(form, 'user-transfer-available')).toBe('50.00 USDT');
    // The rules panel says it first.
    await page.getByTestId('rules-verify').waitFor();
    await form.getByLabel('Recipient (username or UID)').fill(recipient.userId);
    await form.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => text(form, 'user-transfer-recipient')).toBe(`Recipient: ${recipient.username} (UID ${recipient.userId})`);
    await form.getByTestId('user-transfer-amount').fill('5');
    await form.getByTestId('user-transfer-paypassword').fill(PAYMENT_PASSWORD);
    await form.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm and send' }).click();
    const refusal = page.getByTestId('user-transfer-refusal');
    await refusal.waitFor();
    expect(await page.locator('.refusal').getAttribute('data-error')).toBe('IDENTITY_VERIFICATION_REQUIRED');
    expect(await refusal.getByTestId('refusal-verify').getAttribute('href')).toBe('/person/authentication');
    expect(await page.getByTestId('user-transfer-done').count()).toBe(0);
    expect(await coinUsdt(sender.userId)).toBe('50000000');
    expect(await coinUsdt(recipient.userId)).toBe('0');
    expect(await seriousViolations(page), 'the refused transfer').toEqual([]);
  });

  it('in Arabic the form reads right to left, its amounts and the UID left to right', async () => {
    const sender = await transferUser('utxe', { usdt: '20', verified: true, paymentPassword: true });
    const recipient = await transferUser('utxf');
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/healthz');
    await page.evaluate(
      ({ token, userId }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('userId', userId);
        localStorage.setItem('lang', 'ar');
      },
      { token: sender.token, userId: sender.userId },
    );
    await page.goto('/assets/transfer?to=user');
    const form = page.getByTestId('user-transfer-form');
    await expect.poll(() => text(form, 'user-transfer-available')).toBe('20.00 USDT');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.getByRole('button', { name: 'إلى مستخدم آخر' }).getAttribute('aria-pressed')).toBe('true');
    expect(await direction(page.getByTestId('user-transfer-intro'))).toBe('rtl');
    expect(await direction(form.getByTestId('user-transfer-available'))).toBe('ltr');
    await form.getByLabel('المستلم (اسم المستخدم أو UID)').fill(recipient.username);
    await form.getByRole('button', { name: 'بحث' }).click();
    const found = form.getByTestId('user-transfer-recipient');
    await expect.poll(() => text(form, 'user-transfer-recipient')).toBe(`المستلم: ${recipient.username} (UID ${recipient.userId})`);
    // The name and "UID n" are isolated, so "UID" and its digits keep their order inside the Arabic line.
    expect(await found.textContent()).toContain(`\u2068${recipient.username}\u2069 (\u2066UID ${recipient.userId}\u2069)`);
    // As drawn: "UID" stands left of its number, as in a left-to-right line.
    const drawn = await found.evaluate((element, uid) => {
      const strong = element.querySelector('strong')!;
      const node = strong.firstChild as Text;
      const at = (search: string) => {
        const range = document.createRange();
        const start = node.data.indexOf(search);
        range.setStart(node, start);
        range.setEnd(node, start + search.length);
        return range.getBoundingClientRect().left;
      };
      return { label: at('UID'), digits: at(` ${uid}`) + 1 };
    }, recipient.userId);
    expect(drawn.label).toBeLessThan(drawn.digits);
    await form.getByTestId('user-transfer-amount').fill('10');
    await expect.poll(() => text(form, 'user-transfer-fee')).toBe('0.01 USDT');
    expect(await text(form, 'user-transfer-total')).toBe('10.01 USDT');
    expect(await direction(form.getByTestId('user-transfer-total').locator('bdi'))).toBe('ltr');
    expect(plain(await form.getByTestId('user-transfer-fee').locator('xpath=preceding-sibling::dt').textContent())).toBe('الرسوم (0.10%)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await seriousViolations(page), '/assets/transfer?to=user (ar)').toEqual([]);
  });
});
