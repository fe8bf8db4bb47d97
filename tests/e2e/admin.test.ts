import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './helpers/browser.ts';
import { createStaff, type StaffCredentials } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// The back-office skeleton: staff login, the user list, an audited status change.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let opsadmin: StaffCredentials;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  // Already through the first-login steps (ADR 0020): own password and an authenticator.
  opsadmin = await createStaff(server, 'opsadmin', ['admin'], 'staffpass1');
  context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('back-office', () => {
  it('staff log in, find a user, suspend them with a reason, and see it in the audit log', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('target'));
    const page = await context.newPage();
    await page.goto('/admin');

    await page.getByLabel('Password').fill('wrongpass1');
    await page.getByLabel('Username').fill('opsadmin');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Account or password incorrect');

    await page.getByLabel('Password').fill('staffpass1');
    await page.getByLabel('Authenticator code').fill(await opsadmin.totpCode!());
    await page.getByRole('button', { name: 'Log in' }).click();
    const row = page.getByTestId(`user-row-${user.username}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Active');

    await row.getByRole('button', { name: 'Change status' }).click();
    await page.locator('select[name="status"]').selectOption('suspended');
    await page.locator('textarea[name="reason"]').fill('card fraud report #42');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('Suspended');
    const [stored] = await server.db.query<{ status: string }>('SELECT status FROM users WHERE username = $1', [user.username]);
    expect(stored!.status).toBe('suspended');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect.poll(() => page.locator('table').textContent()).toContain('card fraud report #42');
    expect(await page.locator('table').textContent()).toContain('user.status.set');

    // A reload keeps the staff session; logging out ends it.
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('staffToken'))).toBeNull();
  });
});
