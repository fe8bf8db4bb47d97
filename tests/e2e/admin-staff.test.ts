import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, otpauthUri, totpStepAt } from '../../apps/server/src/security/totp.ts';
import { launchBrowser } from './helpers/browser.ts';
import { createStaff, staffLogin } from './helpers/identity.ts';
import { type E2eServer, startServer } from './helpers/server.ts';
import { qrModulesOf, qrModulesShown } from './helpers/qr.ts';

// Staff accounts in the back-office (issue 13, ADR 0020): an admin creates a finance member and
// sees the one-time password once; the member logs in with it, sets their own password, enrols an
// authenticator from the QR code (the test computes the code from the key the page shows, as an
// authenticator app would) and sees only the finance pages; the admin revokes the member's session
// and the member's open page falls back to the login form.

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1360, height: 900 }, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  return context.newPage();
}

const navButtons = async (page: Page) => (await page.locator('header nav a').allTextContents()).map((label) => label.trim());

describe('staff accounts in the back-office', () => {
  it('an admin creates a finance member who sets a password, enrols an authenticator, sees only finance pages, and is logged out by a revoke', async () => {
    const admin = await createStaff(server, 'chiefops', ['admin']);
    const adminPage = await newPage();
    await staffLogin(adminPage, admin);
    await adminPage.getByRole('link', { name: 'Staff', exact: true }).click();
    await adminPage.getByTestId('staff-row-chiefops').waitFor();

    // Create with a role: the one-time password is shown once, with a copy button.
    await adminPage.getByRole('button', { name: 'New staff account' }).click();
    const dialog = adminPage.getByRole('form', { name: 'New staff account' });
    await dialog.getByLabel('Username').fill('fin.member');
    await dialog.getByLabel('Finance').check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    const card = adminPage.getByTestId('one-time-password-card');
    await card.waitFor();
    const oneTimePassword = (await card.getByTestId('one-time-password').textContent())!.trim();
    expect(oneTimePassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await card.textContent()).toContain('It is shown only now');
    await adminPage.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await card.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('Copied.');
    expect(await adminPage.evaluate(() => navigator.clipboard.readText())).toBe(oneTimePassword);
    const row = adminPage.getByTestId('staff-row-fin.member');
    expect(await row.getByTestId('staff-roles').textContent()).toBe('Finance');
    expect(await row.getByTestId('staff-state').textContent()).toContain('Has not set a password yet');
    await card.getByRole('button', { name: 'I have passed it on' }).click();
    expect(await adminPage.getByTestId('one-time-password').count()).toBe(0);
    // Only its hash is stored.
    const [stored] = await server.db.query<{ password_hash: string }>(`SELECT password_hash FROM staff WHERE username = 'fin.member'`);
    expect(stored!.password_hash).toMatch(/^\$argon2id\$/);

    // The member's first login: the one-time password, no authenticator code yet.
    const memberPage = await newPage();
    await memberPage.goto('/admin');
    await memberPage.getByLabel('Username').fill('fin.member');
    await memberPage.getByLabel('Password').fill(oneTimePassword);
    await memberPage.getByRole('button', { name: 'Log in' }).click();
    const setup = memberPage.getByTestId('first-login');
    await setup.waitFor();
    expect(await memberPage.locator('header nav').count()).toBe(0);

    const passwordForm = memberPage.getByTestId('set-password');
    await passwordForm.getByLabel('One-time password').fill(oneTimePassword);
    await passwordForm.getByLabel('New password', { exact: true }).fill('finance pass 2026');
    await passwordForm.getByLabel('Repeat the new password').fill('finance pass 2026');
    await passwordForm.getByRole('button', { name: 'Set password' }).click();

    // Enrol the authenticator: the QR code holds the otpauth link with the key shown under it.
    await setup.getByRole('button', { name: 'Show the QR code' }).click();
    const enrolment = memberPage.getByTestId('totp-enrolment');
    await enrolment.waitFor();
    const secret = (await enrolment.getByTestId('totp-secret').textContent())!.replaceAll(' ', '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await qrModulesShown(memberPage)).toEqual(qrModulesOf(otpauthUri(secret, 'fin.member', 'Keel staff')));
    const code = hotp(base32Decode(secret), totpStepAt(server.now().getTime()));
    await enrolment.getByLabel('Authenticator code').fill(code);
    await enrolment.getByRole('button', { name: 'Confirm' }).click();

    // Set up: the finance pages, and nothing an admin, compliance or support sees.
    await memberPage.getByRole('button', { name: 'Log out' }).waitFor();
    const nav = await navButtons(memberPage);
    expect(nav).toEqual(expect.arrayContaining(['Deposits', 'Withdrawals', 'My sessions']));
    for (const other of ['Staff', 'Audit log', 'Verifications', 'Outbox', 'Appeals']) expect(nav).not.toContain(other);
    await memberPage.getByRole('link', { name: 'My sessions' }).click();
    await expect.poll(() => memberPage.getByTestId('sessions-table').locator('tbody tr').count()).toBe(1);
    expect(await memberPage.getByTestId('sessions-table').textContent()).toContain('This session');

    // The admin sees the member set up, with one open session, and revokes it after confirming.
    await adminPage.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => row.getByTestId('staff-state').textContent()).toBe('Active');
    await row.getByRole('link', { name: 'Sessions' }).click();
    const sessions = adminPage.getByTestId('staff-sessions');
    await sessions.locator('tbody tr').first().waitFor();
    expect(await sessions.locator('tbody tr').count()).toBe(1);
    await sessions.getByRole('button', { name: 'End session' }).click();
    const confirm = adminPage.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('logged out at once');
    await confirm.getByRole('button', { name: 'End session' }).click();
    await adminPage.getByTestId('sessions-empty').waitFor();

    // The member's next action finds the session gone: back to the login form.
    await memberPage.getByRole('link', { name: 'Withdrawals' }).click();
    await memberPage.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await memberPage.evaluate(() => localStorage.getItem('staffToken'))).toBeNull();

    // Every step is in the audit log with the member as its target.
    const [member] = await server.db.query<{ id: bigint }>(`SELECT id FROM staff WHERE username = 'fin.member'`);
    const actions = await server.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'staff' AND target_id = $1 ORDER BY id`, [
      member!.id.toString(),
    ]);
    expect(actions.map((entry) => entry.action)).toEqual(['staff.created', 'staff.password.set', 'staff.totp.enrolled', 'staff.session.revoked']);
  });
});
