import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 20 in the browser, "invite a second user by link and see them listed" (ADR 0045): user A
// opens /trade/sgrinvite and finds the invite code, the link (the app's origin, /register?invite=
// code), its QR code and the published rule with its numbers (20 %, 365 days, the fee kinds); A
// copies the link with the button. A second browser of its own opens that link: the register form
// has the code filled in; B registers. A's page then lists B, masked, not verified, and the totals
// count one. Axe (serious and critical) on A's page, before and after.

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

async function phoneContext(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();

describe('invitations', () => {
  it('A copies the invitation link, B registers with it (code filled in), A sees B listed masked', { timeout: 90_000 }, async () => {
    const alice = await registerUser(server.baseUrl, uniqueUsername('inviter'));
    const [me] = await server.db.query<{ invite_code: string }>('SELECT invite_code FROM users WHERE id = $1', [alice.userId]);
    const code = me!.invite_code;

    const aliceContext = await phoneContext();
    await aliceContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const page = await openLoggedIn(aliceContext, alice, '/trade/sgrinvite');
    await page.getByTestId('invite-code').waitFor();
    expect(plain(await page.getByTestId('invite-code').textContent())).toBe(code);
    const link = `${server.baseUrl}/register?invite=${code}`;
    expect(plain(await page.getByTestId('invite-link').textContent())).toBe(link);
    // The QR code is drawn by React as SVG (no injected markup), with its accessible name.
    const qr = page.getByTestId('invite-qr').getByRole('img', { name: 'QR code of your invitation link' });
    expect(await qr.locator('path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    // The published rule, with its numbers.
    const rule = page.getByTestId('invite-rule');
    expect(await rule.getAttribute('data-share')).toBe('20');
    expect(await rule.getAttribute('data-days')).toBe('365');
    expect(plain(await page.getByTestId('invite-rule-text').textContent())).toContain('20% of the trading fees');
    expect(plain(await page.getByTestId('invite-rule-text').textContent())).toContain('365 days');
    expect(await page.getByTestId('invite-fee-kinds').locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')))).toEqual([
      'swap',
      'p2p.release',
      'leverage.open',
      'leverage.fill',
      'leverage.close',
      'leverage.take_profit',
      'leverage.stop_loss',
    ]);
    await page.getByTestId('invite-invitees-empty').waitFor();
    expect(await page.locator('main').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // Copy the link.
    await page.getByTestId('invite-copy-link').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // B, on a device of their own, opens the link: the code is filled in.
    const bobContext = await phoneContext();
    const bobPage = await bobContext.newPage();
    await bobPage.goto(link.replace(server.baseUrl, ''));
    const inviteField = bobPage.getByLabel('Invite code (optional)');
    await expect.poll(() => inviteField.inputValue()).toBe(code);
    await bobPage.getByTestId('register-tab-username').click();
    const bobName = uniqueUsername('invitee');
    await bobPage.getByRole('textbox', { name: 'Username' }).fill(bobName);
    await bobPage.getByLabel('Password', { exact: true }).fill('secret12');
    await bobPage.getByLabel('Confirm password').fill('secret12');
    expect(await inviteField.inputValue()).toBe(code);
    await bobPage.getByTestId('agreement').check();
    await bobPage.getByTestId('register-submit').click();
    await bobPage.waitForURL((url) => url.pathname === '/index');
    const [bob] = await server.db.query<{ invited_by: bigint }>('SELECT invited_by FROM users WHERE username = $1', [bobName]);
    expect(String(bob!.invited_by)).toBe(alice.userId);

    // A sees B, masked.
    await page.reload();
    await page.getByTestId('invite-invitee').first().waitFor();
    const masked = `${bobName[0]}***${bobName.at(-1)}`;
    expect(await page.getByTestId('invite-invitee-name').allTextContents()).toEqual([masked]);
    expect(plain(await page.getByTestId('invite-invitee').textContent())).not.toContain(bobName);
    expect(await page.getByTestId('invite-invitee-verified').getAttribute('data-verified')).toBe('false');
    expect(plain(await page.getByTestId('invite-total-invitees').textContent())).toBe('1');
    // Nothing for the sign-up itself.
    await page.getByTestId('invite-rewards-empty').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
