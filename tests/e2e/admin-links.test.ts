import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindAddress, call, fund, TEST_XPUB, walletUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, pathOf } from './helpers/browser.ts';
import { createStaff, type StaffCredentials, staffLogin } from './helpers/identity.ts';
import { type E2eServer, startServer, uniqueUsername } from './helpers/server.ts';

// The back-office's URLs (issue 14, ADR 0028): a link to one withdrawal and a link to a filtered
// queue, copied by one finance member, open the same view for another member after they log in
// at that link; back and forward move between views, filters and records; a view the roles do not
// open says so, and an unknown path is "not found".

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ market: false, env: { DEPOSIT_XPUB_TRON: TEST_XPUB, WITHDRAWAL_ADDRESS_HOLD_HOURS: '0' } }),
    launchBrowser(),
  ]);
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

/** A user's pending withdrawal of 100 USDT, made through the API as the app makes it. */
async function pendingWithdrawal(name: string) {
  const user = await walletUser(server.app, server.db, name, { ready: true });
  await fund(server.db, user.userId, 'USDT', '1000');
  const addressId = await bindAddress(server.app, server.db, user, 'tron', { usableNow: true });
  const answer = await call(server.app, 'POST', '/home/wallet/withdrawals', user.token, {
    channel: 'USDT-TRC20',
    addressId,
    amount: '100',
    paymentPassword: '135790',
  });
  if (answer.code !== 200) throw new Error(`withdrawal: ${answer.msg}`);
  return { user, withdrawalId: answer.data.id as string };
}

/** Logs in on the login form the page shows in place of the view it was opened at. */
async function logInHere(page: Page, staff: StaffCredentials) {
  await page.getByLabel('Username').fill(staff.username);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByLabel('Authenticator code').fill(await staff.totpCode!());
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

describe('links between staff', () => {
  it('a withdrawal’s link and a filtered queue’s link open the same view for another member, after login', async () => {
    const { user, withdrawalId } = await pendingWithdrawal(uniqueUsername('linked'));
    await pendingWithdrawal(uniqueUsername('other'));
    const first = await createStaff(server, 'linkfin1', ['finance']);
    const second = await createStaff(server, 'linkfin2', ['finance']);

    // The first member filters the queue by the user and opens the withdrawal: each step is a URL.
    const page = await newPage();
    await staffLogin(page, first);
    await expect.poll(() => pathOf(page)).toBe('/admin/users');
    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByLabel('User ID or name').fill(user.username);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => pathOf(page)).toBe(`/admin/withdrawals?user=${user.username}`);
    const filteredLink = page.url();
    await expect.poll(() => page.locator('[data-testid^="withdrawal-row-user-"]').count()).toBe(1);
    await page.getByTestId(`withdrawal-row-${withdrawalId}`).getByRole('link', { name: 'Open' }).click();
    await page.getByTestId('withdrawal-detail').waitFor();
    expect(pathOf(page)).toBe(`/admin/withdrawals/${withdrawalId}?user=${user.username}`);
    const withdrawalLink = page.url();

    // The second member opens the withdrawal's link without a session: the login form stands in
    // for it at the same URL, and after logging in the same withdrawal and queue are there.
    const other = await newPage();
    await other.goto(withdrawalLink);
    await logInHere(other, second);
    expect(other.url()).toBe(withdrawalLink);
    const detail = other.getByTestId('withdrawal-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('field-user').textContent()).toBe(`${user.username} (#${user.userId})`);
    expect(await detail.getByTestId('field-amount').textContent()).toMatch(/^100(\.0+)? USDT$/);
    expect(await other.getByLabel('User ID or name').inputValue()).toBe(user.username);
    await expect.poll(() => other.locator('[data-testid^="withdrawal-row-user-"]').count()).toBe(1);
    // Closing the record keeps the queue's filter.
    await detail.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => pathOf(other)).toBe(`/admin/withdrawals?user=${user.username}`);

    // The filtered queue's link, in a fresh browser: the same filter and rows.
    const third = await newPage();
    await third.goto(filteredLink);
    await logInHere(third, second);
    expect(third.url()).toBe(filteredLink);
    await third.getByTestId(`withdrawal-row-${withdrawalId}`).waitFor();
    expect(await third.locator('[data-testid^="withdrawal-row-user-"]').count()).toBe(1);
    expect(await third.getByTestId('withdrawal-detail').count()).toBe(0);
  });

  it('back and forward move between views, states and records', async () => {
    const { withdrawalId } = await pendingWithdrawal(uniqueUsername('travel'));
    const page = await newPage();
    await staffLogin(page, await createStaff(server, 'linkfin3', ['finance']));

    await page.getByRole('link', { name: 'Withdrawals' }).click();
    await page.getByTestId(`withdrawal-row-${withdrawalId}`).getByRole('link', { name: 'Open' }).click();
    await page.getByTestId('withdrawal-detail').waitFor();
    await page.getByRole('tab', { name: 'Rejected' }).click();
    await page.getByTestId('withdrawals-empty').waitFor();
    expect(pathOf(page)).toBe('/admin/withdrawals?status=rejected');
    await page.getByRole('link', { name: 'Deposits' }).click();
    await page.getByRole('heading', { name: 'Deposit review' }).waitFor();

    await page.goBack();
    await expect.poll(() => pathOf(page)).toBe('/admin/withdrawals?status=rejected');
    expect(await page.getByRole('tab', { name: 'Rejected' }).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('withdrawals-empty').waitFor();
    await page.goBack();
    await expect.poll(() => pathOf(page)).toBe(`/admin/withdrawals/${withdrawalId}`);
    await page.getByTestId('withdrawal-detail').waitFor();
    expect(await page.getByRole('tab', { name: 'Pending' }).getAttribute('aria-selected')).toBe('true');
    await page.goBack();
    await expect.poll(() => pathOf(page)).toBe('/admin/withdrawals');
    expect(await page.getByTestId('withdrawal-detail').count()).toBe(0);

    await page.goForward();
    await page.getByTestId('withdrawal-detail').waitFor();
    await page.goForward();
    await page.goForward();
    await expect.poll(() => pathOf(page)).toBe('/admin/deposits');
    await page.getByRole('heading', { name: 'Deposit review' }).waitFor();
  });

  it('a view the roles do not open says so, and a path no view has is "not found"', async () => {
    const page = await newPage();
    await staffLogin(page, await createStaff(server, 'linkfin4', ['finance']));
    await page.goto('/admin/staff');
    await page.getByTestId('not-allowed').waitFor();
    expect(await page.locator('header nav a').allTextContents()).not.toContain('Staff');
    await page.goto('/admin/withdrawals/12/nothing');
    await page.getByTestId('not-found').waitFor();
    // A record that does not exist: the server's refusal, with a way back to the queue.
    await page.goto('/admin/withdrawals/999999');
    await expect.poll(() => page.getByTestId('record-state').getByRole('alert').textContent()).toBe('Record does not exist');
    await page.getByTestId('record-state').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => pathOf(page)).toBe('/admin/withdrawals');
  });
});
