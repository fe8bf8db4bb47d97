import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProduct, fundTreasury, specProduct } from '../../apps/server/test/integration/earn/earn-helpers.ts';
import { addLoanProduct, fundLender, holdingPhoto } from '../../apps/server/test/integration/loans/loans-helpers.ts';
import { verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext } from './helpers/browser.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// axe-core on every public page of the user app and on the five tabs logged in, in a phone
// viewport (issue 14): no serious or critical violation, one main landmark, and no report of the
// Content-Security-Policy (ADR 0025). The trade tab's leverage screens (issue 16) with their order forms; the earn pages (issue 17) with a product; the loan pages (issue 18) with a product and an agreement. One server, one browser, one context.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  context = await newPhoneContext(browser, server.baseUrl);
  page = await context.newPage();
  // Every CSP violation the browser reports on the page (a blocked script, style, worker, eval…).
  await page.addInitScript(
    "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));",
  );
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

/** What axe finds on the page as it is now, serious and critical only, one line per node. */
async function seriousViolations(): Promise<string[]> {
  // Violations only: what passed or needs review is not collected, which keeps each check short.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

const cspViolations = () => page.evaluate('window.cspViolations') as Promise<string[]>;

/** Opens `path` and waits until the screen shows what it is for (and the service button, where it shows). */
async function open(path: string, ready: (page: Page) => Locator) {
  await page.goto(path);
  await ready(page).first().waitFor();
  // The service button is a chunk of its own, fetched after the page; it must be checked too.
  if (!path.includes('/trade')) await page.getByTestId('service-fab').waitFor();
}

const byTestId = (id: string) => (current: Page) => current.getByTestId(id);
const heading = (current: Page) => current.getByRole('main').getByRole('heading', { level: 1 });

describe('accessibility (axe-core, phone viewport)', () => {
  it.each([
    ['/login', byTestId('login-submit')],
    ['/loginaccount', byTestId('login-submit')],
    ['/register', byTestId('register-submit')],
    ['/forget', byTestId('reset-submit')],
    ['/agreement', heading],
    ['/terms', heading],
    ['/error/error', byTestId('error-page')],
    ['/error/error2', byTestId('not-found-page')],
    ['/no/such/page', byTestId('not-found-page')],
  ] as const)('public page %s: one main landmark, no serious or critical axe violation, no CSP report', async (path, ready) => {
    await open(path, ready);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await seriousViolations()).toEqual([]);
    expect(await cspViolations()).toEqual([]);
  });

  it('the back-office reports no CSP violation either', async () => {
    await page.goto('/admin');
    await page.getByLabel('Username').waitFor();
    expect(await cspViolations()).toEqual([]);
  });

  describe('logged in', () => {
    let productId: string;
    let loanProductId: string;
    let holdingUploadId: string;
    beforeAll(async () => {
      productId = await addProduct(server.db, specProduct());
      await fundTreasury(server.db, '100000');
      loanProductId = await addLoanProduct(server.db);
      await fundLender(server.db, '100000');
      const session = await registerUser(server.baseUrl, uniqueUsername('axe'));
      holdingUploadId = await holdingPhoto(server.db, session.userId);
      // Verified: the trade screens show their order forms, not the verification notice.
      await verifyUser(server.db, session.userId);
      await page.goto('/login');
      await page.evaluate(({ token, userId }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('userId', userId);
      }, session);
    });

    it.each([
      ['/index', byTestId('greeting')],
      ['/trade', (current: Page) => current.getByTestId('options-chart').locator('canvas')],
      ['/trade/leveraged', byTestId('leverage-review')],
      ['/trade/futures', byTestId('leverage-review')],
      ['/news', byTestId('market-list')],
      ['/assets', heading],
      ['/my', byTestId('logout')],
    ] as const)('tab %s: one main landmark, no serious or critical axe violation, no CSP report', async (path, ready) => {
      await open(path, ready);
      expect(await page.getByRole('main').count()).toBe(1);
      expect(await seriousViolations()).toEqual([]);
      expect(await cspViolations()).toEqual([]);
    });

    it('the VIP page: one main landmark, no serious or critical axe violation, no CSP report', async () => {
      await open('/my/vip', byTestId('vip-table'));
      expect(await page.getByRole('main').count()).toBe(1);
      expect(await seriousViolations()).toEqual([]);
      expect(await cspViolations()).toEqual([]);
    });

    it('the earn pages (products, a purchase, the subscriptions): one main landmark, no serious or critical axe violation, no CSP report', async () => {
      for (const [path, ready] of [
        ['/Lockup', byTestId('earn-products')],
        [`/Lockup/Purchase/${productId}`, byTestId('earn-review')],
        ['/Lockup/subscribe', byTestId('earn-subs-empty')],
      ] as const) {
        await open(path, ready);
        expect(await page.getByRole('main').count(), path).toBe(1);
        expect(await seriousViolations(), path).toEqual([]);
        expect(await cspViolations(), path).toEqual([]);
      }
    });

    it('the loan pages (overview, application, agreement, list, repayment): one main landmark, no serious or critical axe violation, no CSP report', async () => {
      const choice = `productId=${loanProductId}&amount=1000&collateralAsset=USDT&collateralAmount=2000&holding=${holdingUploadId}`;
      for (const [path, ready] of [
        ['/person/Loan', byTestId('loan-credit')],
        [`/person/Apply?productId=${loanProductId}`, byTestId('loan-apply-continue')],
        [`/person/loanagreement?${choice}`, byTestId('loan-agreement-clauses')],
        ['/person/loanList', byTestId('loans-empty')],
        ['/person/loanBack', byTestId('loan-repay-none')],
      ] as const) {
        await open(path, ready);
        expect(await page.getByRole('main').count(), path).toBe(1);
        expect(await seriousViolations(), path).toEqual([]);
        expect(await cspViolations(), path).toEqual([]);
      }
    });
  });
});
