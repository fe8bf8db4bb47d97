import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { createStaff, staffLogin } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 22, production mode (ADR 0041): a deployment that declares itself a demo (KEEL_DEMO=true)
// says "Demo: not real money" on every page of the user app and the back-office — a status at the
// top, in the page's flow (it covers nothing), dark on amber, right-to-left in Arabic. Without the
// flag nothing shows: every other browser test runs without it.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false, env: { KEEL_DEMO: 'true' } }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

/** The banner is shown, says `text`, is a status, and ends above where the page's main content begins. */
async function expectBannerAboveContent(page: Page, text: string) {
  const banner = page.getByTestId('demo-banner');
  await expect.poll(() => banner.textContent()).toBe(text);
  expect(await banner.getAttribute('role')).toBe('status');
  expect(await banner.isVisible()).toBe(true);
  const bannerBox = await banner.boundingBox();
  const mainBox = await page.getByRole('main').first().boundingBox();
  expect(bannerBox && mainBox && bannerBox.y + bannerBox.height <= mainBox.y + 0.5, `${JSON.stringify(bannerBox)} over ${JSON.stringify(mainBox)}`).toBe(true);
  expect(await page.getByTestId('demo-banner').count()).toBe(1);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')}`));
}

describe('a demo deployment', () => {
  it('says so on the public pages and the tabs of the user app, readable (axe), in English and right-to-left in Arabic', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    await expectBannerAboveContent(page, 'Demo: not real money');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/no/such/page');
    await page.getByTestId('not-found-page').waitFor();
    await expectBannerAboveContent(page, 'Demo: not real money');

    await page.goto('/login');
    await page.getByTestId('language-select').selectOption('ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expectBannerAboveContent(page, 'نسخة تجريبية: ليست أموالًا حقيقية');
    expect(await page.getByTestId('demo-banner').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await page.getByTestId('language-select').selectOption('en');

    const user = await registerUser(server.baseUrl, uniqueUsername('demo'));
    const home = await openLoggedIn(context, user, '/index');
    await home.getByTestId('greeting').waitFor();
    await expectBannerAboveContent(home, 'Demo: not real money');
    expect(await seriousViolations(home)).toEqual([]);
    // The tab bar stays where it is, at the bottom, clear of the banner.
    const tabBar = await home.getByRole('navigation').last().boundingBox();
    const banner = await home.getByTestId('demo-banner').boundingBox();
    expect(tabBar!.y).toBeGreaterThan(banner!.y + banner!.height);
  });

  it('says so on the back-office, before and after logging in', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByLabel('Username').waitFor();
    await expectBannerAboveContent(page, 'Demo: not real money');
    expect(await seriousViolations(page)).toEqual([]);

    await staffLogin(page, await createStaff(server, uniqueUsername('demoadmin'), ['admin']));
    await expectBannerAboveContent(page, 'Demo: not real money');
    // Above the shell's header, not in it.
    const header = await page.locator('.shell header').boundingBox();
    const banner = await page.getByTestId('demo-banner').boundingBox();
    expect(banner!.y + banner!.height).toBeLessThanOrEqual(header!.y + 0.5);
  });
});
