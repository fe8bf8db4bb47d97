import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fundTreasury } from '../../apps/server/test/integration/earn/earn-helpers.ts';
import { launchBrowser } from './helpers/browser.ts';
import { callApi, createStaff, type StaffCredentials, staffLogin } from './helpers/identity.ts';
import { type E2eServer, startServer } from './helpers/server.ts';

// Issue 17 in the back-office (ADR 0035): earn products are written only by a proposal of one admin
// approved by another. Admin A proposes a product (a rate above 1 % a day is refused on its field),
// sees it pending and cannot decide it; admin B approves it with a note; the product is then in the
// table with its terms, next to the earn treasury that pays the yield. Finance staff are not offered
// the view, and the server refuses it to them anyway. A change proposed by B, rejected by A, changes nothing.

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
  await fundTreasury(server.db, '5000');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function staffPage(staff: StaffCredentials): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  const page = await context.newPage();
  await staffLogin(page, staff);
  return page;
}

const text = (scope: Page | ReturnType<Page['getByTestId']>, testId: string) => scope.getByTestId(testId).first().textContent();

describe('earn products in the back-office', () => {
  it('one admin proposes a product, another approves it, and it is in the table', async () => {
    const first = await createStaff(server, 'earnadmina', ['admin']);
    const second = await createStaff(server, 'earnadminb', ['admin']);

    // Admin A: no product yet; the treasury is listed once a product is in its asset.
    const page = await staffPage(first);
    await page.getByRole('link', { name: 'Earn products', exact: true }).click();
    const view = page.getByTestId('earn-page');
    await view.getByTestId('earn-products-empty').waitFor();
    await view.getByTestId('earn-changes-empty').waitFor();
    expect(await text(view, 'earn-treasuries')).toContain('A new subscription is sold only while the treasury’s ledger balance covers everything still owed');

    await view.getByRole('button', { name: 'Propose a product' }).click();
    const form = view.getByTestId('earn-proposal-form');
    expect(await text(form, 'earn-proposal-note')).toBe('Nothing is created until another admin approves this proposal.');
    await form.getByLabel('Name', { exact: true }).fill('Mining 7 days');
    await form.getByLabel('Cycle (days)').fill('7');
    await form.getByLabel('Daily rate (%)').fill('1.5');
    await form.getByLabel('Payout time (UTC, HH:MM)').fill('08:30');
    await form.getByLabel('Early redemption allowed').check();
    await form.getByLabel('Penalty per remaining day (%)').fill('0.4');
    await form.getByLabel('Smallest subscription').fill('100');
    await form.getByLabel('Largest subscription').fill('10000');
    await form.getByLabel('Quota per user').fill('20000');
    await form.getByLabel('Total quota').fill('100000');
    // The contract's rule is checked before sending: a payout time must be HH:MM.
    await form.getByLabel('Payout time (UTC, HH:MM)').fill('8.30');
    await form.getByRole('button', { name: 'Propose', exact: true }).click();
    await expect.poll(() => form.locator('#earn-payoutTimeUtc-error').textContent()).toBe('A time of day in UTC as HH:MM, from 00:00 to 23:59.');
    await form.getByLabel('Payout time (UTC, HH:MM)').fill('08:30');
    // The server refuses more than 1 % a day, on the rate's field, in words.
    await form.getByRole('button', { name: 'Propose', exact: true }).click();
    await expect.poll(() => form.locator('#earn-dailyRatePercent-error').textContent()).toBe('More than 0 and at most 1 % a day.');
    expect(await view.getByTestId('earn-changes-empty').count()).toBe(1);
    await form.getByLabel('Daily rate (%)').fill('0.3');
    await form.getByRole('button', { name: 'Propose', exact: true }).click();
    await view.getByTestId('earn-proposed').waitFor();
    expect(await view.getByTestId('earn-proposal-form').count()).toBe(0);
    const changeId = /#(\d+)/.exec((await text(view, 'earn-proposed')) ?? '')![1]!;

    // Pending, with its terms and who proposed it; the proposer cannot decide it.
    const row = view.getByTestId(`earn-change-${changeId}`);
    await row.waitFor();
    expect(await text(row, 'change-status')).toBe('Pending');
    expect(await text(row, 'change-subject')).toBe('New product');
    expect(await text(row, 'change-proposed')).toMatch(/^by earnadmina, \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await text(row, 'terms-rate')).toBe('0.3 % a day');
    expect(await text(row, 'terms-cycle')).toBe('7 days');
    expect(await text(row, 'terms-penalty')).toBe('0.4 % per remaining day');
    expect(await text(row, 'terms-payout')).toBe('08:30 UTC');
    expect(await text(row, 'terms-range')).toBe('100 to 10000 USDT');
    expect(await text(row, 'terms-quotas')).toBe('20000 USDT per user, 100000 USDT in all');
    expect(await text(row, 'own-proposal')).toBe('You proposed this: another admin must approve or reject it.');
    expect(await row.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    expect(await view.getByTestId('earn-products-empty').count()).toBe(1);
    // The server says the same to the proposer who asks it directly.
    const firstToken = await page.evaluate(() => localStorage.getItem('staffToken'));
    expect((await callApi(server, 'POST', `/home/admin/earn/changes/${changeId}/decision`, firstToken, { approve: true })).msg).toBe(
      'a second staff member must approve',
    );

    // Admin B approves it with a note.
    const other = await staffPage(second);
    await other.getByRole('link', { name: 'Earn products', exact: true }).click();
    const otherView = other.getByTestId('earn-page');
    const pending = otherView.getByTestId(`earn-change-${changeId}`);
    await pending.waitFor();
    expect(await pending.getByTestId('own-proposal').count()).toBe(0);
    await pending.getByRole('button', { name: 'Approve' }).click();
    const dialog = other.locator('form.dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe(`Approve proposal #${changeId}`);
    expect(await text(other, 'decision-effect')).toBe('New product — the product “Mining 7 days” is created with these terms.');
    await dialog.getByLabel('Note (optional, kept with the decision)').fill('terms checked against the treasury');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => text(pending, 'change-status')).toBe('Approved');
    expect(await text(pending, 'change-decided')).toMatch(/^Decided by earnadminb, /);
    expect(await text(pending, 'change-note')).toBe('Note: terms checked against the treasury');
    expect(await text(pending, 'change-subject')).toMatch(/^Product “Mining 7 days” \(#\d+\)$/);

    // The product is in the table with its terms, and the USDT earn treasury beside it.
    const products = otherView.getByTestId('earn-products');
    await products.waitFor();
    const product = products.locator('tbody tr');
    expect(await product.count()).toBe(1);
    expect(await text(product.first(), 'product-kind')).toBe('Lock-up mining');
    expect(await text(product.first(), 'product-name')).toMatch(/^Mining 7 days #\d+$/);
    expect(await text(product.first(), 'product-asset')).toBe('USDT');
    expect(await text(product.first(), 'product-rate')).toBe('0.3 % a day');
    expect(await text(product.first(), 'product-cycle')).toBe('7 days');
    expect(await text(product.first(), 'product-penalty')).toBe('0.4 % per remaining day');
    expect(await text(product.first(), 'product-payout')).toBe('08:30 UTC');
    expect(await text(product.first(), 'product-remaining')).toMatch(/^100000(\.0+)? USDT$/);
    expect(await text(product.first(), 'product-active')).toMatch(/^0(\.0+)? USDT in 0 subscriptions$/);
    expect(await text(product.first(), 'product-state')).toBe('Open');
    expect(await text(product.first(), 'product-terms-version')).toBe('Version 1');
    const treasury = otherView.getByTestId('earn-treasury-USDT');
    expect(await text(treasury, 'treasury-balance')).toMatch(/^5000(\.0+)?$/);
    expect(await text(treasury, 'treasury-owed')).toMatch(/^0(\.0+)?$/);

    // "Propose a change" starts from the product's terms; kind and asset are not asked.
    await product.first().getByRole('button', { name: 'Propose a change' }).click();
    const change = otherView.getByTestId('earn-proposal-form');
    expect(await text(change, 'earn-proposal-note')).toContain('Existing subscriptions keep the terms they were sold under');
    expect(await change.getByLabel('Daily rate (%)').inputValue()).toBe('0.3000');
    expect(await change.getByLabel('Name', { exact: true }).inputValue()).toBe('Mining 7 days');
    expect(await text(change, 'earn-form-asset')).toBe('USDT');
    // The view with its form open: no serious or critical axe violation (labels, names, roles, contrast).
    const axe = await new AxeBuilder({ page: other }).options({ resultTypes: ['violations'] }).analyze();
    const serious = axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`))).toEqual([]);

    // Admin B proposes a lower rate; admin A rejects it, and the product keeps its terms.
    await change.getByLabel('Daily rate (%)').fill('0.25');
    await change.getByRole('button', { name: 'Propose', exact: true }).click();
    await otherView.getByTestId('earn-proposed').waitFor();
    const changeOfId = /#(\d+)/.exec((await text(otherView, 'earn-proposed')) ?? '')![1]!;
    await page.getByRole('button', { name: 'Refresh' }).click();
    const proposedChange = view.getByTestId(`earn-change-${changeOfId}`);
    await proposedChange.waitFor();
    // Pending first.
    expect(await view.locator('[data-testid^="earn-change-"]').first().getAttribute('data-testid')).toBe(`earn-change-${changeOfId}`);
    expect(await text(proposedChange, 'change-subject')).toMatch(/^Change to “Mining 7 days” \(#\d+\)$/);
    expect(await text(proposedChange, 'terms-rate')).toBe('0.25 % a day');
    await proposedChange.getByRole('button', { name: 'Reject' }).click();
    const rejecting = page.locator('form.dialog');
    expect(await text(page, 'decision-effect')).toContain('nothing changes; the proposal stays in the list as rejected.');
    await rejecting.getByLabel('Note (optional, kept with the decision)').fill('rate stays');
    await rejecting.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => text(proposedChange, 'change-status')).toBe('Rejected');
    expect(await text(proposedChange, 'change-note')).toBe('Note: rate stays');
    expect(await text(view.getByTestId('earn-products'), 'product-rate')).toBe('0.3 % a day');
  });

  it('is not offered to finance staff, and the server refuses it to them', async () => {
    const finance = await createStaff(server, 'earnfinance', ['finance']);
    const page = await staffPage(finance);
    expect(await page.locator('header nav a').allTextContents()).not.toContain('Earn products');
    const token = await page.evaluate(() => localStorage.getItem('staffToken'));
    expect((await callApi(server, 'GET', '/home/admin/earn/products', token)).code).toBe(403);
    await page.goto('/admin/earn');
    await page.getByTestId('not-allowed').waitFor();
  });
});
