import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addLoanProduct, btc, coin, fundLender, lenderBalance, loanTerms, usdt } from '../../apps/server/test/integration/loans/loans-helpers.ts';
import { fund, setPaymentPassword, verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, pathOf, putSessionOnDevice } from './helpers/browser.ts';
import { createStaff, loginViaApi, photo, staffLogin } from './helpers/identity.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 18 in the browser: "apply for a loan with the photo, staff approve it in the back-office,
// repay". A verified user with 0.1 BTC (BTC/USDT recorded at 60,000) sees their credit (tier 1:
// 10,000 USDT available) and the lending treasury that lends; applies for 1,000 USDT on the 30-day
// product at 0.1 % a day with a holding-ID photo, the interest (30) and the total (1,030) shown live
// and stated again in the agreement; a compliance member opens the application in the back-office,
// sees the photo and approves it (1,000 USDT paid from the lending treasury); the user's list
// follows (passed, owed now 1,001 for the first day begun); the server's clock moves 9 days and an
// hour on (ten days begun) and the user repays in full: 10 USDT interest and 1,000 principal, the
// 0.1 BTC back in the coin account, each step a journal entry with its label. Every screen of the
// way passes axe (serious and critical) in the state it is in.

const PAYMENT_PASSWORD = '135790';
const BTC = 'BTC/USDT';
const DAY_MS = 86_400_000;
const clock = { offsetMs: 0 };
let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  clock.offsetMs = 0;
  // Recorded prices only: every figure derived from the BTC price is known.
  server = await startServer({ market: 'recorded', clock });
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  await server?.close();
});

/** Polls up to 15 s: ample for a push event's refetch. */
const eventually = { timeout: 15_000, interval: 100 };

/** Text as read, without the isolates (U+2066 … U+2069) that keep numbers left to right in RTL text. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const text = async (scope: Page | Locator, testId: string) => plain(await scope.getByTestId(testId).first().textContent());
const value = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).first().getAttribute('data-value');

/** A recorded BTC/USDT tick at 60,000, now (a price is fresh for MARKET_PRICE_MAX_AGE_MS: 30 s). */
async function btcTick(): Promise<string> {
  const [tick] = await recordKnownTicks(server, [{ symbol: BTC, price: '60000', source: 'test-feed' }]);
  return tick!.tickId.toString();
}

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

async function staffPage(username: string): Promise<Page> {
  const staff = await createStaff(server, username, ['compliance']);
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  const page = await context.newPage();
  await staffLogin(page, staff);
  return page;
}

describe('loans: apply with the photo, approved in the back-office, repaid', () => {
  it('applies for 1,000 USDT against 0.1 BTC, is approved by compliance and repays in full after ten days begun', async () => {
    const productId = await addLoanProduct(server.db, loanTerms());
    await fundLender(server.db, '100000');
    const user = await registerUser(server.baseUrl, uniqueUsername('loan'));
    await verifyUser(server.db, user.userId);
    await setPaymentPassword(server.app, { token: user.token, userId: user.userId, username: user.username }, PAYMENT_PASSWORD);
    await fund(server.db, user.userId, 'BTC', '0.1');
    // The loan pays the principal; the interest comes from USDT of the user's own.
    await fund(server.db, user.userId, 'USDT', '100');
    const tickId = await btcTick();

    const context = await newPhoneContext(browser, server.baseUrl);
    contexts.push(context);
    const page = await openLoggedIn(context, user, '/my');

    // From "my" to the overview: the credit of an identity-verified user, who lends, the price.
    await page.getByTestId('my-loans').click();
    await page.waitForURL((url) => url.pathname === '/person/Loan');
    await page.getByTestId('loan-credit').waitFor();
    expect(await value(page, 'loan-credit-tier')).toBe('1');
    expect(await value(page, 'loan-credit-tier-cap')).toBe('10000.000000');
    expect(await value(page, 'loan-credit-committed')).toBe('0.000000');
    expect(await value(page, 'loan-credit-available')).toBe('10000.000000');
    expect(await text(page, 'loan-credit-available')).toBe('10,000.00 USDT');
    const lender = page.getByTestId('loan-lender');
    expect(await lender.getAttribute('data-balance')).toBe('100000.000000');
    expect(await lender.getAttribute('data-account-id')).toMatch(/^\d+$/);
    expect(await text(page, 'loan-lender')).toBe(
      `Loans are paid out by Keel’s lending treasury, ledger account #${await lender.getAttribute('data-account-id')}, balance 100,000.00 USDT.`,
    );
    expect(await value(page, 'loan-price-BTC')).toBe('60000.00000000');
    const card = page.getByTestId(`loan-product-${productId}`);
    expect(await value(card, 'loan-product-rate')).toBe('0.1000');
    expect(await value(card, 'loan-product-cycle')).toBe('30');
    expect(await seriousViolations(page), '/person/Loan').toEqual([]);

    // The application: the photo, the amount and the pledge; the figures live, by the domain's rules.
    await card.getByTestId('loan-product-apply').click();
    await page.waitForURL((url) => url.pathname === '/person/Apply');
    expect(new URL(page.url()).searchParams.get('productId')).toBe(productId);
    await page.getByTestId('loan-apply-amount').waitFor();
    expect(await page.getByTestId('loan-apply-product').inputValue()).toBe(productId);
    await page.getByTestId('loan-apply-amount').fill('1000');
    await page.getByTestId('loan-apply-collateral-asset').selectOption('BTC');
    await page.getByTestId('loan-apply-collateral-amount').fill('0.1');
    // No photo yet: the form says so on the photo's field and stays.
    await page.getByTestId('loan-apply-continue').click();
    const photoInput = page.locator('[data-testid=photo-holding] input[type=file]');
    await expect.poll(() => photoInput.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('photo-holding').getByRole('alert').textContent()).toBe('This photo is required');
    expect(new URL(page.url()).pathname).toBe('/person/Apply');
    await photoInput.setInputFiles({ name: 'holding.png', mimeType: 'image/png', buffer: await photo(11) });
    await expect.poll(() => page.getByTestId('photo-holding').getAttribute('data-state'), eventually).toBe('done');
    expect(await photoInput.getAttribute('aria-invalid')).toBeNull();
    const holdingUploadId = await page.getByTestId('loan-apply-holding-hint').getAttribute('data-upload-id');
    expect(holdingUploadId).toMatch(/^\d+$/);
    // The upload is in the address too, so a reload or the way back from the agreement keeps it.
    await expect.poll(() => new URL(page.url()).searchParams.get('holding')).toBe(holdingUploadId);
    await expect.poll(() => value(page, 'loan-apply-interest')).toBe('30.000000');
    expect(await value(page, 'loan-apply-total')).toBe('1030.000000');
    expect(await text(page, 'loan-apply-interest')).toBe('1,000.00 USDT × 0.1 % × 30 days = 30.00 USDT');
    expect(await text(page, 'loan-apply-total')).toBe('1,030.00 USDT');
    // 0.1 BTC at 60,000 is worth 6,000; lent against at 65 %: 3,900, under the 10,000 available.
    expect(await value(page, 'loan-apply-collateral-value')).toBe('6000.000000');
    expect(await value(page, 'loan-apply-pledge-credit')).toBe('3900.000000');
    expect(await value(page, 'loan-apply-limit')).toBe('3900.000000');
    expect(await seriousViolations(page), '/person/Apply').toEqual([]);
    await page.getByTestId('loan-apply-continue').click();

    // The agreement for these numbers, clause by clause.
    await page.waitForURL((url) => url.pathname === '/person/loanagreement');
    const clauses = page.getByTestId('loan-agreement-clauses');
    await clauses.waitFor();
    const params = new URL(page.url()).searchParams;
    expect([params.get('productId'), params.get('amount'), params.get('collateralAsset'), params.get('collateralAmount')]).toEqual([productId, '1000', 'BTC', '0.1']);
    expect(await value(clauses, 'loan-clause-amount')).toBe('1000.000000');
    expect(await text(clauses, 'loan-clause-amount')).toContain('lends the borrower 1,000.00 USDT under the product Loan 30 days');
    expect(await text(clauses, 'loan-clause-term')).toBe('The loan runs for 30 days at a daily interest rate of 0.1 %.');
    const interestClause = clauses.getByTestId('loan-clause-interest');
    expect(await interestClause.getAttribute('data-interest')).toBe('30.000000');
    expect(await interestClause.getAttribute('data-total')).toBe('1030.000000');
    expect(plain(await interestClause.textContent())).toBe('Interest for the full term is 1,000.00 USDT × 0.1 % × 30 days = 30.00 USDT; the total due is 1,030.00 USDT.');
    expect(await value(clauses, 'loan-clause-collateral')).toBe('6000.000000');
    expect(await clauses.getByTestId('loan-clause-collateral').getAttribute('data-tick-id')).toBe(tickId);
    expect(await text(clauses, 'loan-clause-collateral')).toBe(
      `The borrower pledges 0.10 BTC, held in the frozen part of the coin account. At 60,000.00 USDT (tick #${tickId}) it is worth 6,000.00 USDT; lent against at 65 %, it can secure up to 3,900.00 USDT.`,
    );
    expect(await text(clauses, 'loan-clause-parties')).toContain(user.username);
    expect(await seriousViolations(page), '/person/loanagreement').toEqual([]);

    // Accepted, then the payment password (the price ticks on meanwhile, as a live market does).
    expect(await page.getByTestId('loan-agreement-submit').isDisabled()).toBe(true);
    await page.getByTestId('loan-agreement-accept').check();
    await btcTick();
    await page.getByTestId('loan-agreement-submit').click();
    const applySheet = page.getByTestId('loan-apply-sheet');
    await applySheet.waitFor();
    expect(await value(applySheet, 'loan-apply-sheet-amount')).toBe('1000.000000');
    expect(await value(applySheet, 'loan-apply-sheet-total')).toBe('1030.000000');
    expect(await seriousViolations(page), 'the apply sheet').toEqual([]);
    // A wrong payment password is refused in words, with the tries left; nothing is applied for.
    await page.getByTestId('loan-apply-sheet-password').fill('111111');
    await page.getByTestId('loan-apply-sheet-submit').click();
    await page.getByTestId('loan-apply-sheet-error').waitFor();
    expect(await text(page, 'loan-apply-sheet-error')).toBe('Wrong payment passwordWrong tries left before it locks: 4.');
    expect(await coin(server.db, user.userId, 'BTC')).toEqual({ available: btc('0.1'), frozen: 0n });
    await btcTick();
    await page.getByTestId('loan-apply-sheet-password').fill(PAYMENT_PASSWORD);
    await page.getByTestId('loan-apply-sheet-submit').click();

    // Pending review in the list; the pledge frozen in the coin account.
    await page.waitForURL((url) => url.pathname === '/person/loanList');
    const applied = await text(page, 'loan-applied');
    const loanNo = /^Application (\S+) sent: it is pending review\.$/.exec(applied)?.[1];
    expect(loanNo, applied).toBeDefined();
    const loanCard = page.locator(`article[data-loan-no="${loanNo}"]`);
    await loanCard.waitFor();
    const loanId = /^loan-(\d+)$/.exec((await loanCard.getAttribute('data-testid')) ?? '')![1]!;
    expect(await loanCard.getAttribute('data-status')).toBe('pending');
    expect(await text(loanCard, 'loan-status')).toBe('Pending review');
    expect(await value(loanCard, 'loan-amount')).toBe('1000.000000');
    expect(await value(loanCard, 'loan-collateral')).toBe('0.10000000');
    expect(await coin(server.db, user.userId, 'BTC')).toEqual({ available: 0n, frozen: btc('0.1') });
    expect(await seriousViolations(page), '/person/loanList (pending)').toEqual([]);

    // Compliance: the queue, the loan with its holding-ID photo, approved after the confirmation.
    const admin = await staffPage('loancompliance');
    await admin.getByRole('link', { name: 'Loans', exact: true }).click();
    await admin.getByRole('tab', { name: 'Pending review' }).click();
    const row = admin.getByTestId(`loan-row-${loanNo}`);
    await row.waitFor();
    expect(plain(await row.getByTestId('loan-amount').textContent())).toBe('1000.000000 USDT');
    expect(plain(await row.getByTestId('loan-collateral').textContent())).toBe('0.10000000 BTC');
    expect(await seriousViolations(admin), 'admin Loans').toEqual([]);
    await row.getByRole('link', { name: 'Open' }).click();
    await admin.waitForURL((url) => url.pathname === `/admin/loans/${loanId}`);
    const detail = admin.getByTestId('loan-detail');
    await detail.waitFor();
    const holding = detail.getByRole('img', { name: 'Holding-ID photo' });
    await holding.waitFor();
    expect(await holding.getAttribute('data-testid')).toBe('loan-holding-photo');
    await expect.poll(() => holding.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), eventually).toBe(96);
    expect(plain(await detail.getByTestId('loan-field-amount').textContent())).toBe('1000.000000 USDT');
    expect(await seriousViolations(admin), 'admin loan detail').toEqual([]);
    await detail.getByTestId('loan-decision').getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = admin.getByRole('alertdialog', { name: `Approve loan ${loanNo}?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Approve 1000.000000 USDT' }).click();
    await expect.poll(() => text(admin, 'loans-notice')).toBe(`Loan ${loanNo}: Approved.`);
    expect(await lenderBalance(server.db)).toBe(usdt('99000'));

    // The user's list follows the push event: passed, one day begun, due in 30 days.
    await expect.poll(() => loanCard.getAttribute('data-status'), eventually).toBe('passed');
    expect(await text(loanCard, 'loan-status')).toBe('Passed');
    expect(await value(loanCard, 'loan-owed-now')).toBe('1001.000000');
    expect(await text(loanCard, 'loan-owed-now')).toBe('1,001.00 USDT (1 day begun)');
    const [approved] = await server.db.query<{ decided_at_ms: string }>('SELECT decided_at_ms::text FROM loans WHERE id = $1', [loanId]);
    expect(Number(await value(loanCard, 'loan-due-at'))).toBe(Number(approved!.decided_at_ms) + 30 * DAY_MS);
    await loanCard.getByTestId('loan-repay-link').waitFor();
    expect(await coin(server.db, user.userId, 'USDT')).toEqual({ available: usdt('1100'), frozen: 0n });
    expect(await seriousViolations(page), '/person/loanList (passed)').toEqual([]);

    // Nine days and an hour later (ten days begun): the session of then has ended, the user logs in again.
    clock.offsetMs = 9 * DAY_MS + 3_600_000;
    const token = await loginViaApi(server, user.username, user.password);
    await putSessionOnDevice(page, { token, userId: user.userId });
    await page.goto('/person/loanList');
    await expect.poll(() => value(page.locator(`article[data-loan-no="${loanNo}"]`), 'loan-owed-now'), eventually).toBe('1010.000000');
    await page.locator(`article[data-loan-no="${loanNo}"]`).getByTestId('loan-repay-link').click();
    await page.waitForURL((url) => url.pathname === '/person/loanBack');
    expect(pathOf(page)).toBe(`/person/loanBack?loanId=${loanId}`);

    // Repaid in full: interest for the ten days begun first, then the principal.
    await page.getByTestId('loan-repay-owed-now').waitFor();
    expect(await page.getByTestId('loan-repay-choose').inputValue()).toBe(loanId);
    expect(await value(page, 'loan-repay-owed-now')).toBe('1010.000000');
    expect(await page.getByTestId('loan-repay-full').getAttribute('aria-pressed')).toBe('true');
    expect(await value(page, 'loan-repay-split-interest')).toBe('10.000000');
    expect(await value(page, 'loan-repay-split-principal')).toBe('1000.000000');
    expect(await value(page, 'loan-repay-split-remaining')).toBe('0.000000');
    expect(await seriousViolations(page), '/person/loanBack').toEqual([]);
    await page.getByTestId('loan-repay-review').click();
    const repaySheet = page.getByTestId('loan-repay-sheet');
    await repaySheet.waitFor();
    expect(await seriousViolations(page), 'the repay sheet').toEqual([]);
    expect(await text(repaySheet, 'loan-repay-sheet-summary')).toBe(
      `Repay 1,010.00 USDT on loan ${loanNo}, all that is owed now: 10.00 USDT interest and 1,000.00 USDT principal.`,
    );
    await page.getByTestId('loan-repay-sheet-password').fill(PAYMENT_PASSWORD);
    await page.getByTestId('loan-repay-sheet-submit').click();
    const notice = page.getByTestId('loan-repaid-notice');
    await notice.waitFor();
    expect(await notice.locator('[data-status]').getAttribute('data-status')).toBe('repaid');
    expect(plain(await notice.textContent())).toBe(`Loan ${loanNo} is repaid; the collateral is back in your coin account. My loans`);
    // The page follows (the form gone with the loan closed), and nothing contradicts the notice.
    await expect.poll(() => page.getByTestId('loan-repay-review').count(), eventually).toBe(0);
    expect(await page.getByTestId('loan-repay-choose').count()).toBe(0);
    expect(await page.getByTestId('loan-repay-not-outstanding').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    const [closed] = await server.db.query<{ status: string; interest_paid_minor: string; repaid_minor: string }>(
      'SELECT status, interest_paid_minor::text, repaid_minor::text FROM loans WHERE id = $1',
      [loanId],
    );
    expect(closed).toEqual({ status: 'repaid', interest_paid_minor: usdt('10').toString(), repaid_minor: usdt('1010').toString() });
    // The pledge back; 100 + 1,000 − 1,010 USDT left; the lending treasury has its 1,000 and the 10 of interest.
    expect(await coin(server.db, user.userId, 'BTC')).toEqual({ available: btc('0.1'), frozen: 0n });
    expect(await coin(server.db, user.userId, 'USDT')).toEqual({ available: usdt('90'), frozen: 0n });
    expect(await lenderBalance(server.db)).toBe(usdt('100010'));

    // Closed: repaid.
    await notice.getByRole('link', { name: 'My loans' }).click();
    await page.waitForURL((url) => pathOf(page) === '/person/loanList?scope=closed' && url.pathname === '/person/loanList');
    const repaid = page.getByTestId(`loan-${loanId}`);
    await repaid.waitFor();
    expect(await repaid.getAttribute('data-status')).toBe('repaid');
    expect(await text(repaid, 'loan-status')).toBe('Repaid');
    // What it cost, on the closed loan: 1,010 repaid in all, 10 of it interest.
    expect(await value(repaid, 'loan-repaid-total')).toBe('1010.000000');
    expect(await value(repaid, 'loan-interest-paid')).toBe('10.000000');
    expect(await page.getByTestId('loan-scope-closed').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('loan-scope-open').click();
    await page.getByTestId('loans-empty').waitFor();

    // The records: the pledge, the payout, the repayment (with the collateral's return), each with its label.
    await page.goto('/assets/records');
    const record = (reason: string) => page.locator(`[data-testid="record"][data-reason="${reason}"]`).first();
    await record('loan.repay').waitFor();
    expect(await record('loan.pledge').locator('.record-reason').textContent()).toBe('Loan collateral pledged');
    expect(await record('loan.disburse').locator('.record-reason').textContent()).toBe('Loan paid out');
    expect(plain(await record('loan.disburse').getByTestId('record-amount').first().textContent())).toBe('+1,000.00 USDT');
    expect(await record('loan.repay').locator('.record-reason').textContent()).toBe('Loan repayment');
    // 1,010 USDT paid from the coin account; the pledge from its frozen part back to the available part.
    expect((await record('loan.repay').getByTestId('record-amount').allTextContents()).map(plain)).toEqual(['-1,010.00 USDT', '-0.10 BTC', '+0.10 BTC']);
    expect(plain(await record('loan.repay').locator('.record-ref').textContent())).toContain(`loan #${loanId}`);
  });
});
