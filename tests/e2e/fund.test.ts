import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepFund } from '../../apps/server/src/use-cases/fund/fund-jobs.ts';
import { fund, setPaymentPassword, verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { testConfig } from '../../apps/server/test/helpers/test-app.ts';
import { coin, usdt } from '../../apps/server/test/integration/loans/loans-helpers.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { createStaff, staffLogin } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 18 in the browser: "publish a funding request, invest from a second user, see the release
// and repayment in both users' records". A borrower with advanced verification publishes on /fund
// a request of 1,000 USDT at 0.1 % a day for 2 days, released in 2 tranches a day apart, open for
// 24 hours, against 1,200 USDT of collateral — the interest (2), the total (1,002), the schedule
// and the credit limit (1,200 × 90 % = 1,080) shown live; compliance approves it in the
// back-office; an investor finds it in the pool and invests the whole 1,000, which fills it; the
// fund job (run by hand with the server's clock moved on) releases the first tranche at once, the
// second a day later, and at the term takes the 1,002 from the borrower and pays it to the
// investor, the collateral back. Both users' records show their entries with their labels, and
// every screen of the way passes axe (serious and critical).

const PAYMENT_PASSWORD = '135790';
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

/** A verified user (both levels for a borrower) with the payment password and `amount` USDT in the coin account. */
async function member(prefix: string, levels: ('identity' | 'advanced')[], amount: string) {
  const user = await registerUser(server.baseUrl, uniqueUsername(prefix));
  await verifyUser(server.db, user.userId, levels);
  await setPaymentPassword(server.app, { token: user.token, userId: user.userId, username: user.username }, PAYMENT_PASSWORD);
  await fund(server.db, user.userId, 'USDT', amount);
  return user;
}

async function phonePage(user: { token: string; userId: string }, path: string): Promise<Page> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return openLoggedIn(context, user, path);
}

/** One pass of the fund job, as each node runs it, telling the users' screens (the push event). */
function runFundJob() {
  return sweepFund({ db: server.db, now: server.now, market: server.market!, config: testConfig(), events: server.events, logger: server.app.log });
}

/** The user's records of `reason`, each entry's signed amounts as read. */
async function recordAmounts(page: Page, reason: string): Promise<string[][]> {
  const records = page.locator(`[data-testid="record"][data-reason="${reason}"]`);
  const out: string[][] = [];
  for (let index = 0; index < (await records.count()); index += 1) {
    out.push((await records.nth(index).getByTestId('record-amount').allTextContents()).map(plain));
  }
  return out;
}

async function recordLabel(page: Page, reason: string): Promise<string> {
  return plain(await page.locator(`[data-testid="record"][data-reason="${reason}"]`).first().locator('.record-reason').textContent());
}

describe('fund: publish a request, invest in it, released in tranches and repaid at term', () => {
  it('publishes 1,000 USDT against 1,200 USDT, approved by compliance, filled by an investor, released twice and repaid 1,002', async () => {
    const borrower = await member('fundb', ['identity', 'advanced'], '1500');
    const investor = await member('fundi', ['identity'], '2000');

    // The hub and the publish form: the figures live, by the domain's rules.
    const page = await phonePage(borrower, '/fund');
    const form = page.getByTestId('fund-publish-form');
    await form.waitFor();
    expect(await page.getByTestId('fund-my-requests-empty').count()).toBe(1);
    expect(await seriousViolations(page), '/fund').toEqual([]);
    await page.getByTestId('fund-publish-borrower-type').selectOption('individual');
    await page.getByTestId('fund-publish-title').fill('Stock for a flower stall');
    await page.getByTestId('fund-publish-purpose').fill('Spring stock bought ahead; repaid from the season’s sales.');
    await page.getByTestId('fund-publish-amount').fill('1000');
    await page.getByTestId('fund-publish-rate').fill('0.1');
    await page.getByTestId('fund-publish-term').fill('2');
    await page.getByTestId('fund-publish-tranches').fill('2');
    await page.getByTestId('fund-publish-period').fill('1');
    await page.getByTestId('fund-publish-window').fill('24');
    await page.getByTestId('fund-publish-collateral-asset').selectOption('USDT');
    await page.getByTestId('fund-publish-collateral-amount').fill('1200');
    await expect.poll(() => value(page, 'fund-publish-interest')).toBe('2.000000');
    expect(await text(page, 'fund-publish-interest')).toBe('1,000.00 USDT × 0.1 % × 2 days = 2.00 USDT');
    expect(await value(page, 'fund-publish-total')).toBe('1002.000000');
    expect(await text(page, 'fund-publish-total')).toBe('1,002.00 USDT');
    expect(await value(page, 'fund-publish-collateral-value')).toBe('1200.000000');
    expect(await value(page, 'fund-publish-credit-limit')).toBe('1080.000000');
    expect(await text(page, 'fund-publish-credit-limit')).toBe('1,200.00 USDT × 90 % = 1,080.00 USDT');
    const schedule = [1, 2].map((n) => page.getByTestId(`fund-publish-tranche-${n}`));
    expect(await schedule[0]!.getAttribute('data-amount')).toBe('500.000000');
    expect(await schedule[0]!.getAttribute('data-after-days')).toBe('0');
    expect(await schedule[1]!.getAttribute('data-amount')).toBe('500.000000');
    expect(await schedule[1]!.getAttribute('data-after-days')).toBe('1');
    expect(await page.getByTestId('fund-publish-tranche-3').count()).toBe(0);
    expect(await seriousViolations(page), '/fund (form filled)').toEqual([]);

    // Confirmed with the payment password: published, in review, the collateral frozen.
    await page.getByTestId('fund-publish-submit').click();
    const publishSheet = page.getByTestId('fund-publish-sheet');
    await publishSheet.waitFor();
    expect(await value(publishSheet, 'fund-publish-sheet-amount')).toBe('1000');
    expect(await value(publishSheet, 'fund-publish-sheet-total')).toBe('1002.000000');
    expect(await seriousViolations(page), '/fund (confirmation)').toEqual([]);
    await page.getByTestId('fund-publish-sheet-password').fill(PAYMENT_PASSWORD);
    await page.getByTestId('fund-publish-sheet-submit').click();
    await page.getByTestId('fund-published').waitFor();
    const published = await text(page, 'fund-published');
    const requestNo = /^Request (\S+) is published and waits for compliance review\.$/.exec(published)?.[1];
    expect(requestNo, published).toBeDefined();
    const myRequest = page.locator(`article[data-request-no="${requestNo}"]`);
    await myRequest.waitFor();
    const requestId = /^fund-my-request-(\d+)$/.exec((await myRequest.getAttribute('data-testid')) ?? '')![1]!;
    expect(await myRequest.getAttribute('data-status')).toBe('review');
    expect(await text(myRequest, 'fund-my-request-status')).toBe('In review');
    expect(await coin(server.db, borrower.userId, 'USDT')).toEqual({ available: usdt('300'), frozen: usdt('1200') });
    expect(await seriousViolations(page), '/fund (in review)').toEqual([]);

    // The introduction and a topic.
    await page.goto('/fund/introduction');
    await page.getByTestId('fund-page-introduction').waitFor();
    expect(await seriousViolations(page), '/fund/introduction').toEqual([]);
    await page.goto('/fund/introduction/detail/how-it-works');
    await page.getByTestId('fund-page-topic').waitFor();
    expect(await page.getByTestId('not-found-page').count()).toBe(0);
    expect(await seriousViolations(page), '/fund/introduction/detail/how-it-works').toEqual([]);
    await page.goto('/fund');
    await page.getByTestId(`fund-my-request-${requestId}`).waitFor();

    // Compliance approves it in the back-office: it enters the pool for its 24 hours.
    const admin = await staffPage('fundcompliance');
    await admin.goto('/admin/fund/requests');
    await admin.getByTestId('fund-requests-page').waitFor();
    const row = admin.getByTestId(`fund-request-row-${requestNo}`);
    await row.waitFor();
    expect(plain(await row.getByTestId('fund-request-amount').textContent())).toBe('1000.000000 USDT');
    expect(await seriousViolations(admin), 'admin fund requests').toEqual([]);
    await row.getByRole('link', { name: 'Open' }).click();
    const detail = admin.getByTestId('fund-request-detail');
    await detail.waitFor();
    expect(await seriousViolations(admin), 'admin fund request detail').toEqual([]);
    await detail.getByTestId('fund-decision').getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = admin.getByRole('alertdialog', { name: `Approve request ${requestNo}?` });
    await dialog.waitFor();
    expect(await seriousViolations(admin), 'admin approve dialog').toEqual([]);
    await dialog.getByRole('button', { name: `Approve ${requestNo}` }).click();
    await expect.poll(() => text(admin, 'fund-requests-notice')).toBe(`Request ${requestNo}: In the pool.`);

    // The borrower's hub follows the push event: open.
    await expect.poll(() => page.getByTestId(`fund-my-request-${requestId}`).getAttribute('data-status'), eventually).toBe('open');

    // The investor: the pool, the request, the whole 1,000 (it fills) with the payment password.
    const investorPage = await phonePage(investor, '/fund/pool');
    const poolItem = investorPage.getByTestId(`fund-pool-item-${requestId}`);
    await poolItem.waitFor();
    expect(await poolItem.getAttribute('data-status')).toBe('open');
    expect(await seriousViolations(investorPage), '/fund/pool').toEqual([]);
    await poolItem.getByTestId('fund-pool-item-link').click();
    await investorPage.waitForURL((url) => url.pathname === `/fund/pool/detail/${requestId}`);
    const request = investorPage.getByTestId('fund-request');
    await request.waitFor();
    expect(await request.getAttribute('data-status')).toBe('open');
    await investorPage.getByTestId('fund-invest-form').waitFor();
    expect(await seriousViolations(investorPage), '/fund/pool/detail (open)').toEqual([]);
    await investorPage.getByTestId('fund-invest-amount').fill('1000');
    await expect.poll(() => value(investorPage, 'fund-invest-expected')).toBe('1002.000000');
    await investorPage.getByTestId('fund-invest-submit').click();
    await investorPage.getByTestId('fund-invest-sheet').waitFor();
    expect(await seriousViolations(investorPage), '/fund/pool/detail (confirmation)').toEqual([]);
    await investorPage.getByTestId('fund-invest-sheet-password').fill(PAYMENT_PASSWORD);
    await investorPage.getByTestId('fund-invest-sheet-submit').click();
    await investorPage.waitForURL((url) => /^\/fund\/investment\/detail\/\d+$/.test(url.pathname));
    const investmentId = /(\d+)$/.exec(new URL(investorPage.url()).pathname)![1]!;
    await investorPage.getByTestId('fund-invested').waitFor();
    const investment = investorPage.getByTestId('fund-investment');
    await investment.waitFor();
    expect(await investment.getAttribute('data-status')).toBe('invested');
    expect(await seriousViolations(investorPage), '/fund/investment/detail').toEqual([]);
    expect(await coin(server.db, investor.userId, 'USDT')).toEqual({ available: usdt('1000'), frozen: 0n });
    const [filled] = await server.db.query<{ status: string; filled_at_ms: string }>('SELECT status, filled_at_ms::text FROM fund_requests WHERE id = $1', [requestId]);
    expect(filled!.status).toBe('funded');
    const filledAtMs = Number(filled!.filled_at_ms);

    // The job: the first tranche is due at the fill.
    expect((await runFundJob()).map((each) => each.kind)).toEqual(['released']);
    expect(await coin(server.db, borrower.userId, 'USDT')).toEqual({ available: usdt('800'), frozen: usdt('1200') });
    const mine = page.getByTestId(`fund-my-request-${requestId}`);
    await expect.poll(() => mine.getAttribute('data-status'), eventually).toBe('funded');
    await expect.poll(() => value(mine, 'fund-request-released'), eventually).toBe('500.000000');

    // A day on: the second.
    clock.offsetMs = filledAtMs + DAY_MS + 60_000 - Date.now();
    expect((await runFundJob()).map((each) => each.kind)).toEqual(['released']);
    expect(await coin(server.db, borrower.userId, 'USDT')).toEqual({ available: usdt('1300'), frozen: usdt('1200') });
    await expect.poll(() => value(mine, 'fund-request-released'), eventually).toBe('1000.000000');

    // The term (two days after the fill): repaid, 1,002 to the investor, the collateral back.
    clock.offsetMs = filledAtMs + 2 * DAY_MS + 60_000 - Date.now();
    expect((await runFundJob()).map((each) => each.kind)).toEqual(['repaid']);
    expect(await coin(server.db, borrower.userId, 'USDT')).toEqual({ available: usdt('1498'), frozen: 0n });
    expect(await coin(server.db, investor.userId, 'USDT')).toEqual({ available: usdt('2002'), frozen: 0n });

    // The investor's investments: repaid, 1,002 paid.
    await investorPage.goto('/fund/investment');
    const item = investorPage.getByTestId(`fund-investment-${investmentId}`);
    await item.waitFor();
    expect(await item.getAttribute('data-status')).toBe('invested');
    expect(await item.getAttribute('data-request-status')).toBe('repaid');
    expect(await item.getAttribute('data-paid')).toBe('1002.000000');
    expect(await value(item, 'fund-investment-paid')).toBe('1002.000000');
    expect(await seriousViolations(investorPage), '/fund/investment').toEqual([]);
    await item.getByTestId('fund-investment-link').click();
    await investorPage.waitForURL((url) => url.pathname === `/fund/investment/detail/${investmentId}`);
    await investorPage.getByTestId('fund-request-settlement').waitFor();
    expect(await investorPage.getByTestId('fund-investment').getAttribute('data-paid')).toBe('1002.000000');
    expect(await investorPage.getByTestId('fund-request-settlement').getAttribute('data-kind')).toBe('repaid');
    expect(await seriousViolations(investorPage), '/fund/investment/detail (repaid)').toEqual([]);
    await investorPage.goto(`/fund/pool/detail/${requestId}`);
    await expect.poll(() => investorPage.getByTestId('fund-request').getAttribute('data-status')).toBe('repaid');
    expect(await investorPage.getByTestId('fund-invest-form').count()).toBe(0);
    expect(await seriousViolations(investorPage), '/fund/pool/detail (repaid)').toEqual([]);

    // The borrower's request: repaid.
    await page.goto('/fund');
    await expect.poll(() => page.getByTestId(`fund-my-request-${requestId}`).getAttribute('data-status'), eventually).toBe('repaid');
    expect(await text(page.getByTestId(`fund-my-request-${requestId}`), 'fund-my-request-status')).toBe('Repaid');

    // The records, each entry on the user's own accounts with its label.
    await page.goto('/assets/records');
    await page.locator('[data-testid="record"][data-reason="fund.repay"]').first().waitFor();
    expect(await recordLabel(page, 'fund.pledge')).toBe('Fund request collateral pledged');
    expect(await recordLabel(page, 'fund.release')).toBe('Fund tranche released');
    expect(await recordLabel(page, 'fund.repay')).toBe('Fund request repaid');
    expect(await recordAmounts(page, 'fund.pledge')).toEqual([['-1,200.00 USDT', '+1,200.00 USDT']]);
    expect(await recordAmounts(page, 'fund.release')).toEqual([['+500.00 USDT'], ['+500.00 USDT']]);
    expect(await recordAmounts(page, 'fund.repay')).toEqual([['-1,002.00 USDT', '-1,200.00 USDT', '+1,200.00 USDT']]);
    expect(await page.locator('[data-testid="record"][data-reason="fund.fill"]').count()).toBe(0);
    expect(await page.locator('[data-testid="record"][data-reason="fund.invest"]').count()).toBe(0);

    await investorPage.goto('/assets/records');
    await investorPage.locator('[data-testid="record"][data-reason="fund.repay"]').first().waitFor();
    expect(await recordLabel(investorPage, 'fund.invest')).toBe('Fund investment held');
    expect(await recordLabel(investorPage, 'fund.fill')).toBe('Fund request filled (to escrow)');
    expect(await recordLabel(investorPage, 'fund.repay')).toBe('Fund request repaid');
    expect(await recordAmounts(investorPage, 'fund.invest')).toEqual([['-1,000.00 USDT', '+1,000.00 USDT']]);
    expect(await recordAmounts(investorPage, 'fund.fill')).toEqual([['-1,000.00 USDT']]);
    expect(await recordAmounts(investorPage, 'fund.repay')).toEqual([['+1,002.00 USDT']]);
    expect(await investorPage.locator('[data-testid="record"][data-reason="fund.release"]').count()).toBe(0);
    expect(await investorPage.locator('[data-testid="record"][data-reason="fund.pledge"]').count()).toBe(0);
  });
});
