import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../apps/server/src/persistence/ledger-check.ts';
import { startC2cSweeps } from '../../apps/server/src/use-cases/c2c/c2c-matching.ts';
import { setPaymentPassword, verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { createStaff, photo, type StaffCredentials, staffLogin } from './helpers/identity.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 19 in the browser, the user side of C2C through merchants (ADR 0043). A merchant (staff
// with the merchant role) is online with terms for Germany (EUR, 10 to 1,000 USDT) and a float of
// 1,000 USDT funded by a house correction that one finance member proposes and another approves
// (both set up through the API); the merchant works in the back-office console
// (/admin/c2c/merchant) in a second browser context. The C2C job runs every half second, as the
// server runs it every two.
// (a) A user buys USDT: /assets/recharge's C2C channel, Germany (its currency, best price, limits;
// a country without merchants disabled with the reason), the amount in fiat or USDT with the other
// computed live, the merchants' minimum, the published windows; the merchant changes their price
// before the user confirms, so the confirmation shows the new price to confirm again; the order
// page says "matching a merchant" / "waiting to be assigned"; a second order is refused as the
// spec says, with the way to the first; the merchant accepts; the user sees the merchant's payment
// details and the fiat at the merchant's price, uploads the screenshot and marks paid ("to be
// reviewed"); the merchant sees the screenshot and confirms; "success", the closing entry, the
// USDT in the fiat account, the C2C deposit history.
// (b) A user with 100 USDT in the fiat account sells 50: /assets/withdraw's C2C option, the bank
// details checked in the browser by the country's formats (required, IBAN, SWIFT) before anything
// is sent, the payment password; the USDT held; the merchant accepts, sees the bank details and
// marks paid with the bank's reference; the user reads the reference and the confirm deadline
// ("never released automatically"), confirms with the payment password; the USDT reaches the
// merchant's float; the withdrawal history; the bank details come back prefilled next time.
// Axe (serious and critical) on the forms and the order pages; once in Arabic, right to left with
// amounts left to right.

const PAYMENT_PASSWORD = '135790';
const GERMAN_IBAN = 'DE89 3704 0044 0532 0130 00';
let server: E2eServer;
let browser: Browser;
let sweeps: { stop: () => Promise<void> } | undefined;
let merchant: { credentials: StaffCredentials; token: string; id: string; name: string };
const contexts: BrowserContext[] = [];

/** Text as read, without the isolates (U+2066 … U+2069) that keep numbers in place, spaces collapsed. */
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

/** A call to the API with a token and, for the money-moving calls, an idempotency key. */
async function api<T = unknown>(method: string, path: string, token: string, body?: unknown): Promise<{ code: number; msg: string; data: T }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'idempotency-key': randomUUID(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as { code: number; msg: string; data: T };
}

async function staffToken(staff: StaffCredentials): Promise<string> {
  const answer = await api<{ token: string }>('POST', '/home/admin/auth/login', '', {
    username: staff.username,
    password: staff.password,
    totpCode: await staff.totpCode!(),
  });
  if (answer.code !== 200) throw new Error(`staff login ${staff.username}: ${answer.msg}`);
  return answer.data.token;
}

const profile = (price: string) => ({
  displayName: 'Rhein Exchange',
  paymentDetails: 'Rhein Exchange GmbH, IBAN DE02 1203 0000 0000 2020 51, reference: your order number',
  online: true,
  terms: [{ country: 'DE', price, minUsdt: '10', maxUsdt: '1000' }],
});

async function setMerchantPrice(price: string) {
  const saved = await api('PUT', '/home/admin/c2c/merchant', merchant.token, profile(price));
  expect(saved.code, saved.msg).toBe(200);
}

/** The merchant's float as their console reads it. */
async function merchantFloat(): Promise<{ available: string; held: string }> {
  const answer = await api<{ float: { available: string; held: string } }>('GET', '/home/admin/c2c/merchant', merchant.token);
  return { available: answer.data.float.available, held: answer.data.float.held };
}

/** The merchant's console in the back-office, in a desktop browser context of its own. */
async function merchantConsole(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  const page = await context.newPage();
  await staffLogin(page, merchant.credentials);
  await page.goto('/admin/c2c/merchant');
  await page.getByTestId('c2c-merchant-page').waitFor();
  return page;
}

/** The merchant accepts the offer of `requestId` in the merchantPage (the job offered it to them). */
async function merchantAccepts(merchantPage: Page, requestId: string) {
  const offer = merchantPage.getByTestId(`c2c-offer-${requestId}`);
  await offer.waitFor({ timeout: 15_000 });
  await offer.getByTestId('c2c-offer-accept').click();
  await merchantPage.getByTestId(`c2c-order-${requestId}`).waitFor();
}

/** Waits until the C2C job has offered the request to the merchant (it is in their offers). */
async function offeredToMerchant(requestId: string) {
  await expect
    .poll(async () => (await api<{ items: { id: string }[] }>('GET', '/home/admin/c2c/merchant/requests?state=offers', merchant.token)).data.items.map((each) => each.id), {
      timeout: 15_000,
    })
    .toContain(requestId);
}

/** The user's USDT in an account kind, in minor units, from the ledger. */
async function usdtMinor(userId: string, kind: 'coin' | 'fiat'): Promise<{ available: string; frozen: string }> {
  const [row] = await server.db.query<{ available: string; frozen: string }>(
    "SELECT available_minor::text AS available, frozen_minor::text AS frozen FROM ledger_accounts WHERE user_id = $1 AND kind = $2 AND asset = 'USDT'",
    [userId, kind],
  );
  return { available: row?.available ?? '0', frozen: row?.frozen ?? '0' };
}

async function phoneContext(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

/** The order id in the page's address (/assets/C2CDeposit/{id}, /assets/C2CWithdrawalInfo/{id}). */
const orderIdOf = (page: Page) => /\/(\d+)$/.exec(new URL(page.url()).pathname)![1]!;

/** The error text under a field, through the input's aria-describedby (what a screen reader reads). */
async function fieldError(page: Page, input: Locator): Promise<string> {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const id = await input.getAttribute('aria-describedby');
  return plain(await page.locator(`[id="${id}"]`).textContent());
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
  // The C2C job, as the server runs it (every 2 s there): offers, lapses and deadlines.
  sweeps = startC2cSweeps({ db: server.db, now: server.now, events: server.events, logger: server.app.log }, 500);
  const credentials = await createStaff(server, 'c2cmerchant1', ['merchant']);
  const [finance1, finance2] = await Promise.all([createStaff(server, 'c2cfinance1', ['finance']), createStaff(server, 'c2cfinance2', ['finance'])]);
  merchant = { credentials, token: await staffToken(credentials), id: '', name: 'Rhein Exchange' };
  const [row] = await server.db.query<{ id: bigint }>('SELECT id FROM staff WHERE username = $1', [credentials.username]);
  merchant.id = row!.id.toString();
  await setMerchantPrice('0.92');
  // The float: a house correction proposed by one finance member and approved by another.
  const proposed = await api<{ id: string }>('POST', '/home/admin/corrections', await staffToken(finance1), {
    target: 'house',
    houseAccount: 'merchant_float',
    merchantId: merchant.id,
    asset: 'USDT',
    amount: '1000',
    reason: 'Float deposited by the merchant Rhein Exchange',
  });
  expect(proposed.code, proposed.msg).toBe(200);
  const approved = await api('POST', `/home/admin/corrections/${proposed.data.id}/decision`, await staffToken(finance2), { approve: true });
  expect(approved.code, approved.msg).toBe(200);
  expect(await merchantFloat()).toEqual({ available: '1000.000000', held: '0.000000' });
});

afterAll(async () => {
  await sweeps?.stop();
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

describe('C2C through a merchant', () => {
  it('(a) buys USDT: country, amount, a changed price confirmed again, payment details, screenshot, paid, confirmed by the merchant', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('c2cbuy'));
    await verifyUser(server.db, user.userId);
    const merchantPage = await merchantConsole();
    const page = await openLoggedIn(await phoneContext(), user, '/assets/recharge');

    // The crypto deposit is the default; the C2C channel is beside it.
    await page.getByTestId('deposit-channels').or(page.getByTestId('deposit-no-channels')).first().waitFor();
    expect(await page.getByTestId('deposit-via-crypto').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('deposit-via-c2c').click();
    await page.waitForURL((url) => url.pathname === '/assets/recharge' && url.searchParams.get('via') === 'c2c');
    const form = page.getByTestId('c2c-deposit-form');
    const country = form.getByLabel('Country');
    await expect.poll(() => country.locator('option[value="DE"]').count()).toBe(1);
    // Germany is served; a country without a merchant online is shown disabled with the reason.
    expect(plain(await country.locator('option[value="DE"]').textContent())).toBe('Germany (EUR)');
    expect(await country.locator('option[value="DE"]').isDisabled()).toBe(false);
    expect(plain(await country.locator('option[value="US"]').textContent())).toBe('United States (USD) — no merchant online');
    expect(await country.locator('option[value="US"]').isDisabled()).toBe(true);
    // The published windows.
    expect(await text(page, 'c2c-window-match')).toBe('5 minutes');
    expect(await text(page, 'c2c-window-pay')).toBe('5 minutes');

    await country.selectOption('DE');
    await page.waitForURL((url) => url.searchParams.get('country') === 'DE');
    expect(await text(form, 'c2c-country-currency')).toBe('EUR');
    expect(await text(form, 'c2c-country-price')).toBe('0.92 EUR/USDT');
    expect(await text(form, 'c2c-country-limits')).toBe('10.00 USDT to 1,000.00 USDT');

    // The amount in fiat (the default) with the USDT computed live, rounded down for the user.
    const amount = form.getByTestId('c2c-amount');
    await amount.fill('100');
    await expect.poll(() => text(form, 'c2c-preview-usdt')).toBe('108.695652 USDT');
    expect(await text(form, 'c2c-preview-fiat')).toBe('100.00 EUR');
    // In USDT: the same order's USDT becomes what is typed; then 100 USDT costs 92.00 EUR.
    await form.getByTestId('c2c-amount-in-usdt').click();
    await expect.poll(() => amount.inputValue()).toBe('108.695652');
    await amount.fill('5');
    await form.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, amount)).toBe('The smallest order merchants take now is 10.00 USDT');
    await amount.fill('100');
    await expect.poll(() => text(form, 'c2c-preview-fiat')).toBe('92.00 EUR');
    expect(await text(form, 'c2c-preview-usdt')).toBe('100.00 USDT');
    expect(await amount.getAttribute('aria-invalid')).toBeNull();
    expect(await seriousViolations(page), 'the C2C deposit form').toEqual([]);

    // The merchant raises their price before the user confirms: the confirmation shows the new one.
    await form.getByRole('button', { name: 'Continue' }).click();
    const sheet = page.getByRole('dialog', { name: 'Confirm the order' });
    await sheet.waitFor();
    expect(await text(sheet, 'c2c-confirm-fiat')).toBe('92.00 EUR');
    await setMerchantPrice('0.93');
    await sheet.getByTestId('c2c-confirm-send').click();
    await sheet.getByTestId('c2c-price-changed').waitFor();
    expect(await text(sheet, 'c2c-price-changed')).toContain('The best price is now 0.93 EUR/USDT (it was 0.92 EUR/USDT)');
    expect(await text(sheet, 'c2c-confirm-price')).toBe('0.93 EUR/USDT');
    expect(await text(sheet, 'c2c-confirm-fiat')).toBe('93.00 EUR');
    expect(await text(sheet, 'c2c-confirm-usdt')).toBe('100.00 USDT');
    await sheet.getByRole('button', { name: 'Confirm at the new price' }).click();

    // The order: matching, then offered to the merchant ("waiting to be assigned"), with the match countdown.
    await page.waitForURL((url) => /^\/assets\/C2CDeposit\/\d+$/.test(url.pathname));
    const orderId = orderIdOf(page);
    const order = page.getByTestId('c2c-order');
    await order.waitFor();
    expect(['Matching a merchant', 'Waiting to be assigned']).toContain(await text(page, 'c2c-order-status'));
    expect(await page.getByTestId('c2c-countdown').getAttribute('data-deadline')).toBe('match');
    expect(await text(page, 'c2c-order-no')).toMatch(/^C\d{16}$/);
    await offeredToMerchant(orderId);
    await expect.poll(() => text(page, 'c2c-order-status'), { timeout: 10_000 }).toBe('Waiting to be assigned');

    // A second order while this one is unfinished: the spec's message, with the way to this one.
    const other = await openLoggedIn(await phoneContext(), user, '/assets/recharge?via=c2c&country=DE');
    const unfinished = other.getByTestId('c2c-unfinished');
    await unfinished.waitFor();
    expect(plain(await unfinished.textContent())).toContain('You have an unfinished payment order. Please complete it first');
    expect(await other.getByTestId('c2c-unfinished-link').getAttribute('href')).toBe(`/assets/C2CDeposit/${orderId}`);
    await other.getByTestId('c2c-amount').fill('20');
    await other.getByRole('button', { name: 'Continue' }).click();
    await other.getByTestId('c2c-confirm-send').click();
    const refusal = other.getByTestId('c2c-refusal');
    await refusal.waitFor();
    expect(await other.locator('.refusal').first().getAttribute('data-error')).toBe('C2C_ORDER_UNFINISHED');
    await other.close();

    // The merchant accepts: the user sees whom to pay, how much at the merchant's price, and where.
    await merchantAccepts(merchantPage, orderId);
    await expect.poll(() => text(page, 'c2c-order-status'), { timeout: 10_000 }).toBe('To be paid');
    expect(await text(page, 'c2c-pay-merchant')).toBe(merchant.name);
    expect(await text(page, 'c2c-pay-fiat')).toBe('93.00 EUR');
    expect(await page.getByTestId('c2c-payment-details').textContent()).toBe(profile('0.93').paymentDetails);
    expect(await page.getByTestId('c2c-countdown').getAttribute('data-deadline')).toBe('payment');
    expect(await text(page, 'c2c-order-price')).toBe('0.93 EUR/USDT');
    expect(await merchantFloat()).toEqual({ available: '900.000000', held: '100.000000' });
    expect(await seriousViolations(page), 'the deposit order to be paid').toEqual([]);

    // "I have paid" waits for the screenshot; uploaded, it marks the order paid.
    expect(await page.getByTestId('c2c-mark-paid').isDisabled()).toBe(true);
    await page.getByTestId('photo-c2c-proof').locator('input[type=file]').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: await photo(7) });
    await expect.poll(() => page.getByTestId('photo-c2c-proof').getAttribute('data-state')).toBe('done');
    await page.getByTestId('c2c-mark-paid').click();
    expect(await text(page, 'c2c-mark-paid-question')).toContain('Did you pay 93.00 EUR to the merchant’s details?');
    await page.getByTestId('c2c-mark-paid-confirm').click();
    await expect.poll(() => text(page, 'c2c-order-status')).toBe('To be reviewed');
    expect(await text(page, 'c2c-order-proof')).toBe('Sent to the merchant');
    expect(await page.getByTestId('c2c-cancel').count()).toBe(0);

    // The merchant confirms the fiat arrived: success, the entry, the USDT in the fiat account.
    const paidOrder = merchantPage.getByTestId(`c2c-order-${orderId}`);
    await expect.poll(() => paidOrder.getAttribute('data-step'), { timeout: 10_000 }).toBe('confirm_or_appeal');
    // The merchant sees the user's screenshot before confirming.
    await expect.poll(() => paidOrder.getByTestId('c2c-order-proof').evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await paidOrder.getByTestId('c2c-order-confirm').click();
    await merchantPage.getByTestId('c2c-confirm-dialog-confirm').click();
    await merchantPage.getByTestId('c2c-order-confirmed').waitFor();
    await expect.poll(() => text(page, 'c2c-order-status'), { timeout: 10_000 }).toBe('Success');
    expect(await text(page, 'c2c-status-message')).toBe('Done: the USDT is in your fiat account.');
    expect(await page.getByTestId('c2c-order-entry').getAttribute('href')).toBe('/assets/records?account=fiat');
    expect(await page.getByTestId('c2c-countdown').count()).toBe(0);
    expect(await usdtMinor(user.userId, 'fiat')).toEqual({ available: '100000000', frozen: '0' });
    expect(await merchantFloat()).toEqual({ available: '900.000000', held: '0.000000' });
    expect((await checkLedger(server.db)).problems).toEqual([]);

    // The history on the deposit records page, C2C tab: the spec's fields.
    await page.goto('/assets/rechargeLog');
    await page.getByTestId('recharge-log-c2c').click();
    await page.waitForURL((url) => url.searchParams.get('via') === 'c2c');
    const row = page.getByTestId(`c2c-row-${orderId}`);
    await row.waitFor();
    expect(await text(row, 'c2c-row-country')).toBe('Germany (EUR)');
    expect(await text(row, 'c2c-row-usdt')).toBe('100.00 USDT');
    expect(await text(row, 'c2c-row-fiat')).toBe('93.00 EUR');
    expect(await text(row, 'c2c-row-status')).toBe('Success');
    expect(await text(row, 'c2c-row-order-no')).toMatch(/^C\d{16}$/);
    // And on the assets page, in the fiat account.
    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-fiat-USDT-available')).toBe('100.00');
  });

  it('(b) sells USDT: bank details checked by the country’s formats, the merchant pays with a reference, the user confirms receipt', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('c2csell'));
    await verifyUser(server.db, user.userId);
    await setPaymentPassword(server.app, user, PAYMENT_PASSWORD);
    await fundUser(server.db, { userId: user.userId, kind: 'fiat', asset: 'USDT', amount: '100' });
    const merchantPage = await merchantConsole();
    const page = await openLoggedIn(await phoneContext(), user, '/assets/withdraw');
    await page.getByTestId('withdraw-form').waitFor();
    await page.getByTestId('withdrawal-via-c2c').click();
    await page.waitForURL((url) => url.pathname === '/assets/C2CWithdrawal/select');
    const sell = page.getByTestId('c2c-withdrawal-form');
    await sell.getByLabel('Country').selectOption('DE');
    await page.waitForURL((url) => url.pathname === '/assets/C2CWithdrawal/DE');
    expect(await text(sell, 'c2c-country-price')).toBe('0.93 EUR/USDT');
    await expect.poll(() => text(sell, 'c2c-fiat-available-amount')).toBe('100.00 USDT');
    const sellAmount = sell.getByTestId('c2c-amount');
    await sellAmount.fill('50');
    await expect.poll(() => text(sell, 'c2c-preview-fiat')).toBe('46.50 EUR');
    expect(await text(sell, 'c2c-preview-usdt')).toBe('50.00 USDT');
    // Bank details checked in the browser by Germany's formats before anything is sent.
    const iban = sell.getByLabel('Account number (IBAN)');
    await iban.fill('DE89 3704 0044 0532 0130 01');
    await sell.getByLabel('SWIFT code (optional)').fill('COBAFRPP');
    await sell.getByTestId('c2c-paypassword').fill(PAYMENT_PASSWORD);
    await sell.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, sell.getByLabel('Payee name'))).toBe('This field is required');
    expect(await fieldError(page, iban)).toBe('Not a valid IBAN of this country');
    expect(await fieldError(page, sell.getByLabel('SWIFT code (optional)'))).toBe('Not a valid SWIFT (BIC) code of this country');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await seriousViolations(page), 'the C2C withdrawal form with problems').toEqual([]);
    await sell.getByLabel('Payee name').fill('Ana Lee');
    await sell.getByLabel('Bank name').fill('Commerzbank');
    await iban.fill(GERMAN_IBAN);
    await sell.getByLabel('SWIFT code (optional)').fill('COBADEFF');
    await sell.getByRole('button', { name: 'Continue' }).click();
    const sellSheet = page.getByRole('dialog', { name: 'Confirm the sale' });
    await sellSheet.waitFor();
    expect(await text(sellSheet, 'c2c-confirm-usdt')).toBe('50.00 USDT');
    expect(await text(sellSheet, 'c2c-confirm-fiat')).toBe('46.50 EUR');
    expect(await text(sellSheet, 'c2c-confirm-payee')).toBe('Ana Lee');
    await sellSheet.getByTestId('c2c-confirm-send').click();

    await page.waitForURL((url) => /^\/assets\/C2CWithdrawalInfo\/\d+$/.test(url.pathname));
    const sellId = orderIdOf(page);
    await page.getByTestId('c2c-order').waitFor();
    expect(await usdtMinor(user.userId, 'fiat')).toEqual({ available: '50000000', frozen: '50000000' });
    expect(await text(page, 'c2c-order-bank-accountNumber')).toBe('DE89370400440532013000');
    expect(await page.getByTestId('c2c-cancel').count()).toBe(1);
    await merchantAccepts(merchantPage, sellId);
    await expect.poll(() => text(page, 'c2c-order-status'), { timeout: 10_000 }).toBe('To be paid');
    expect(await page.getByTestId('c2c-cancel').count()).toBe(0);
    expect(await text(page, 'c2c-order-fiat')).toBe('46.50 EUR');
    // The merchant sends the euros to the bank details shown and gives the bank's reference.
    const sendFiat = merchantPage.getByTestId(`c2c-order-${sellId}`);
    await expect.poll(() => sendFiat.getAttribute('data-step')).toBe('send_fiat');
    expect(plain(await sendFiat.getByTestId('bank-accountNumber').textContent())).toContain('DE89370400440532013000');
    await sendFiat.getByTestId('c2c-order-reference').fill('SEPA-2026-000417');
    await sendFiat.getByTestId('c2c-order-paid').click();
    await merchantPage.getByTestId('c2c-order-fiat-sent').waitFor();
    await expect.poll(() => text(page, 'c2c-order-status'), { timeout: 10_000 }).toBe('To be reviewed');
    expect(await text(page, 'c2c-order-reference')).toBe('SEPA-2026-000417');
    expect(await text(page, 'c2c-confirm-reference')).toBe('SEPA-2026-000417');
    expect(await text(page, 'c2c-confirm-fiat-due')).toBe('46.50 EUR');
    // The deadline the server published (paid + 30 minutes), as the device's local HH:MM.
    const deadline = page.getByTestId('c2c-confirm-deadline').locator('p[data-deadline]');
    const localClock = await deadline.evaluate((element) => {
      const at = new Date(element.getAttribute('data-deadline')!);
      return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    });
    const [paidRow] = await server.db.query<{ paid: string }>('SELECT paid_at_ms::text AS paid FROM c2c_requests WHERE id = $1', [sellId]);
    expect(Date.parse((await deadline.getAttribute('data-deadline'))!)).toBe(Number(paidRow!.paid) + 30 * 60_000);
    expect(plain(await deadline.textContent())).toBe(`If you do not answer by ${localClock}, the order goes to support. It is never released automatically.`);
    expect(await page.getByTestId('c2c-countdown').getAttribute('data-deadline')).toBe('confirm');
    expect(await seriousViolations(page), 'the paid withdrawal with the confirm form').toEqual([]);

    // Confirming needs the tick and the payment password.
    await page.getByTestId('c2c-confirm-submit').click();
    await page.getByTestId('c2c-confirm-received-required').waitFor();
    await page.getByTestId('c2c-confirm-received').check();
    await page.getByTestId('c2c-confirm-password').fill(PAYMENT_PASSWORD);
    await page.getByTestId('c2c-confirm-submit').click();
    await expect.poll(() => text(page, 'c2c-order-status')).toBe('Success');
    expect(await usdtMinor(user.userId, 'fiat')).toEqual({ available: '50000000', frozen: '0' });
    expect(await merchantFloat()).toEqual({ available: '950.000000', held: '0.000000' });
    expect((await checkLedger(server.db)).problems).toEqual([]);

    // The withdrawal history, and the bank details prefilled for the next withdrawal to Germany.
    await page.goto('/assets/C2CWithdrawalList');
    const sold = page.getByTestId(`c2c-row-${sellId}`);
    await sold.waitFor();
    expect(await text(sold, 'c2c-row-status')).toBe('Success');
    expect(await text(sold, 'c2c-row-fiat')).toBe('46.50 EUR');
    await page.goto('/assets/C2CWithdrawal/DE');
    await expect.poll(() => page.getByLabel('Payee name').inputValue()).toBe('Ana Lee');
    expect(await page.getByLabel('Account number (IBAN)').inputValue()).toBe('DE89370400440532013000');
  });

  it('in Arabic the C2C deposit reads right to left, its amounts left to right', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('c2car'));
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/healthz');
    await page.evaluate(
      ({ token, userId }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('userId', userId);
        localStorage.setItem('lang', 'ar');
      },
      { token: user.token, userId: user.userId },
    );
    await page.goto('/assets/recharge?via=c2c&country=DE');
    const form = page.getByTestId('c2c-deposit-form');
    await form.getByTestId('c2c-country-price').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await direction(form)).toBe('rtl');
    await form.getByTestId('c2c-amount').fill('93');
    await expect.poll(() => text(form, 'c2c-preview-usdt')).toBe('100.00 USDT');
    expect(await direction(form.getByTestId('c2c-preview-usdt').locator('bdi'))).toBe('ltr');
    expect(await direction(form.getByTestId('c2c-country-price').locator('bdi'))).toBe('ltr');
    expect(await text(page, 'deposit-via-c2c')).toBe('C2C (عملات ورقية)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await seriousViolations(page), '/assets/recharge?via=c2c (ar)').toEqual([]);
  });
});
