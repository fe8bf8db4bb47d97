import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../apps/server/src/persistence/ledger-check.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { createStaff, type StaffCredentials, staffLogin } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 22 in the browser (ADR 0039): a staff correction is proposed by one member and posted only
// when a different member approves it. A finance member proposes +25 USDT to a user's coin account
// through the form (the contract's rules checked first: no zero amount, a reason the user can
// read); the proposer sees they cannot decide it; a second finance member approves it with a note;
// the approved tab names the checker, the note and the journal entry; the user finds the entry in
// /assets/records labelled as a staff correction with the reason, and the message in /message.
// Above the published amount (1,000 USDT) a finance checker may only reject, and the page says so;
// an admin approves. Taking back more than the account holds is refused by the ledger, said in the
// dialog, and the correction stays pending. The page passes axe (serious and critical).

const ADMIN_ABOVE = '1000';
let server: E2eServer;
let browser: Browser;
let maker: StaffCredentials;
let checker: StaffCredentials;
let admin: StaffCredentials;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false, env: { CORRECTION_ADMIN_CHECKER_ABOVE_USDT: ADMIN_ABOVE } }), launchBrowser()]);
  maker = await createStaff(server, 'corrfinmaker', ['finance']);
  checker = await createStaff(server, 'corrfinchecker', ['finance']);
  admin = await createStaff(server, 'corradmin', ['admin']);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** Text as read, without the isolates (U+2066 … U+2069) that keep numbers left to right, spaces collapsed. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const text = async (scope: Page | Locator, testId: string) => plain(await scope.getByTestId(testId).first().textContent());

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

/** A member logged in to the back-office in a browser context of their own, on the Corrections view. */
async function correctionsPage(staff: StaffCredentials): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  const page = await context.newPage();
  await staffLogin(page, staff);
  await page.getByRole('link', { name: 'Corrections', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/admin/corrections');
  await page.getByTestId('corrections-page').waitFor();
  return page;
}

/** Proposes a correction to a user's coin account in USDT through the form; its id from the notice. */
async function proposeToUser(page: Page, userId: string, amount: string, reason: string, reference?: string): Promise<string> {
  await page.getByRole('button', { name: 'Propose a correction' }).click();
  const form = page.getByTestId('correction-form');
  await form.getByLabel('A user’s account').check();
  await form.getByLabel('User ID (UID)').fill(userId);
  await form.getByLabel('Account', { exact: true }).selectOption('coin');
  await form.getByLabel('Asset').selectOption('USDT');
  await form.getByLabel('Amount (signed)').fill(amount);
  await form.getByLabel('Reason', { exact: true }).fill(reason);
  if (reference) await form.getByLabel('Reference (optional)').fill(reference);
  await form.getByRole('button', { name: 'Propose', exact: true }).click();
  const notice = page.getByTestId('corrections-proposed');
  await notice.waitFor();
  expect(await page.getByTestId('correction-form').count()).toBe(0);
  return /#(\d+)/.exec(await text(page, 'corrections-proposed'))![1]!;
}

/** The user's coin balance in USDT, from the ledger. */
async function coinUsdt(userId: string): Promise<string> {
  const [row] = await server.db.query<{ available: string }>(
    "SELECT available_minor::text AS available FROM ledger_accounts WHERE user_id = $1 AND kind = 'coin' AND asset = 'USDT'",
    [userId],
  );
  return row?.available ?? '0';
}

describe('staff corrections in the back-office', () => {
  it('a finance member proposes +25 USDT, cannot approve it; a second one approves it and the user reads the reason', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('corr'));
    const reason = 'Deposit 4711 was credited short by the chain check';

    // The maker: the published rule, the form checked by the contract before anything is sent.
    const page = await correctionsPage(maker);
    expect(await text(page, 'correction-rule')).toBe(
      'Every correction needs a second member: whoever proposed it can decide it neither way. Above 1000.000000 USDT, or when the asset has no recorded price, only an admin approves.',
    );
    await page.getByTestId('corrections-empty').waitFor();
    await page.getByRole('button', { name: 'Propose a correction' }).click();
    const form = page.getByTestId('correction-form');
    expect(await text(form, 'correction-form-rule')).toContain('Above 1000.000000 USDT');
    expect(plain(await form.locator('#correction-amount-hint').textContent())).toBe('Positive adds to the account; negative takes money back, e.g. -5.');
    expect(plain(await form.locator('#correction-reason-hint').textContent())).toContain('The user will read this in their records and in a message');
    expect(await seriousViolations(page), 'the corrections page with the form open').toEqual([]);
    await form.getByLabel('User ID (UID)').fill(user.userId);
    await form.getByLabel('Amount (signed)').fill('0');
    await form.getByLabel('Reason', { exact: true }).fill('oops');
    await form.getByRole('button', { name: 'Propose', exact: true }).click();
    await expect.poll(() => form.locator('#correction-amount-error').textContent()).toBe('A decimal amount other than zero, such as 25 or -5.');
    expect(await form.locator('#correction-reason-error').textContent()).toBe('Write 10 to 500 characters the user can understand.');
    expect(await form.getByLabel('Amount (signed)').getAttribute('aria-invalid')).toBe('true');
    // A house account is chosen instead of the user's fields, which leave the form.
    await form.getByLabel('A house account').check();
    expect(await form.getByLabel('User ID (UID)').count()).toBe(0);
    expect(plain(await form.locator('#correction-houseAccount-hint').textContent())).toContain('The lending treasury and the insurance fund hold USDT only.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('corrections-empty').count()).toBe(1);

    const id = await proposeToUser(page, user.userId, '25', reason, 'ticket 4711');
    expect(await text(page, 'corrections-proposed')).toBe(`Correction #${id} proposed: nothing moves until a colleague approves it.`);
    const row = page.getByTestId(`correction-row-${id}`);
    await row.waitFor();
    expect(await text(row, 'correction-target')).toBe(`${user.username} (#${user.userId}) · Coin account`);
    expect(await text(row, 'correction-asset')).toBe('USDT');
    expect(await text(row, 'correction-amount')).toBe('+25.000000 USDT');
    expect(await text(row, 'correction-value')).toBe('25.000000 USDT');
    expect(await text(row, 'correction-reason')).toBe(reason);
    expect(await text(row, 'correction-reference')).toBe('ticket 4711');
    expect(await text(row, 'correction-proposed')).toMatch(/^corrfinmaker · \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await text(row, 'correction-status')).toBe('Pending');
    // The maker can decide it neither way, and is told why.
    expect(await text(row, 'correction-why-not')).toBe('You proposed this; a colleague must check it.');
    expect(await row.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    expect(await coinUsdt(user.userId)).toBe('0');
    expect(await seriousViolations(page), 'the corrections page with a pending correction').toEqual([]);

    // A second finance member approves it with a note.
    const other = await correctionsPage(checker);
    const pending = other.getByTestId(`correction-row-${id}`);
    await pending.waitFor();
    expect(await pending.getByTestId('correction-why-not').count()).toBe(0);
    await pending.getByRole('button', { name: 'Approve' }).click();
    const dialog = other.locator('form.dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe(`Approve correction #${id}`);
    expect(await text(dialog, 'correction-decision-subject')).toBe(`${user.username} (#${user.userId}) · Coin account: +25.000000 USDT`);
    expect(await text(dialog, 'correction-decision-effect')).toContain('the user sees it in their records with the reason and gets a message');
    await dialog.getByLabel('Note (optional, kept with the decision)').fill('matches the chain');
    expect(await seriousViolations(other), 'the decision dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await text(other, 'corrections-decided')).toBe(`Correction #${id}: Approved.`);
    await expect.poll(() => pending.count()).toBe(0);
    expect(await coinUsdt(user.userId)).toBe('25000000');

    // The approved tab: the checker, the note and the journal entry.
    await other.getByRole('tab', { name: 'Approved' }).click();
    await other.waitForURL((url) => url.searchParams.get('status') === 'approved');
    const approved = other.getByTestId(`correction-row-${id}`);
    await approved.waitFor();
    expect(await text(approved, 'correction-status')).toBe('Approved');
    expect(await text(approved, 'correction-decided-by')).toMatch(/^Checked by corrfinchecker · \d{4}\/\d{2}\/\d{2} /);
    expect(await text(approved, 'correction-note')).toBe('Note: matches the chain');
    const entryId = /^Journal entry #(\d+)$/.exec(await text(approved, 'correction-entry'))?.[1];
    expect(entryId).toBeDefined();
    expect(await approved.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await seriousViolations(other), 'the approved tab').toEqual([]);

    // The user: the entry in the records, labelled as a staff correction with the reason; the message.
    const phone = await newPhoneContext(browser, server.baseUrl);
    contexts.push(phone);
    const userPage = await openLoggedIn(phone, user, '/assets/records');
    const record = userPage.locator('[data-testid="record"][data-reason="staff.correction"]');
    await record.waitFor();
    expect(await record.getAttribute('data-entry')).toBe(entryId);
    expect(plain(await record.getByTestId('record-posting').textContent())).toBe('Coin account+25.00 USDT');
    expect(await text(record, 'record-correction')).toContain(reason);
    // Labelled as a staff correction (the label's text is the web catalogue's).
    expect(plain(await record.locator('.record-reason').textContent())).toMatch(/correction/i);
    await userPage.goto('/message');
    const bodies = userPage.getByTestId('message-body');
    await expect.poll(async () => (await bodies.allTextContents()).some((body) => body.includes(reason))).toBe(true);
    expect((await userPage.getByTestId('message-title').allTextContents()).some((title) => title.includes('25.000000 USDT'))).toBe(true);
    expect((await checkLedger(server.db)).problems).toEqual([]);
  });

  it('above the published amount a finance checker may only reject, an admin approves; taking back too much stays pending', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('corrbig'));
    const page = await correctionsPage(maker);
    const id = await proposeToUser(page, user.userId, '1500', 'Refund of the fee charged twice on order 88');
    const row = page.getByTestId(`correction-row-${id}`);
    await row.waitFor();
    expect(await text(row, 'correction-value')).toBe('1500.000000 USDT');
    expect(await text(row, 'correction-admin-checker')).toBe('An admin must approve');
    expect(await text(row, 'correction-reference')).toBe('—');

    // A finance checker: approve disabled with the reason; reject is still theirs to give.
    const finance = await correctionsPage(checker);
    const seen = finance.getByTestId(`correction-row-${id}`);
    await seen.waitFor();
    expect(await text(seen, 'correction-admin-checker')).toBe('An admin must approve');
    expect(await text(seen, 'correction-why-not')).toBe('Only an admin can approve this; you may reject it.');
    expect(await seen.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await seen.getByRole('button', { name: 'Reject' }).isEnabled()).toBe(true);
    expect(await seriousViolations(finance), 'a correction only an admin approves').toEqual([]);

    // An admin approves it.
    const boss = await correctionsPage(admin);
    const bossRow = boss.getByTestId(`correction-row-${id}`);
    await bossRow.waitFor();
    expect(await bossRow.getByTestId('correction-why-not').count()).toBe(0);
    await bossRow.getByRole('button', { name: 'Approve' }).click();
    const dialog = boss.locator('form.dialog');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await text(boss, 'corrections-decided')).toBe(`Correction #${id}: Approved.`);
    expect(await coinUsdt(user.userId)).toBe('1500000000');

    // Taking back more than the account holds: the ledger refuses, the dialog says so, it stays pending.
    const takeBack = await proposeToUser(page, user.userId, '-5000', 'Reversal of a deposit that never arrived');
    const takeBackRow = page.getByTestId(`correction-row-${takeBack}`);
    await takeBackRow.waitFor();
    expect(await text(takeBackRow, 'correction-amount')).toBe('-5000.000000 USDT');
    await boss.getByRole('button', { name: 'Refresh' }).click();
    const refused = boss.getByTestId(`correction-row-${takeBack}`);
    await refused.waitFor();
    await refused.getByRole('button', { name: 'Approve' }).click();
    const refusal = boss.locator('form.dialog');
    await refusal.getByRole('button', { name: 'Approve' }).click();
    await refusal.getByTestId('correction-refusal').waitFor();
    expect(await text(refusal, 'correction-refusal')).toBe(
      'The ledger refused it: the account does not hold enough to take this back. Nothing moved and the correction stays pending.',
    );
    expect(plain(await refusal.getByRole('alert').textContent())).toBe('Insufficient balance');
    await refusal.getByRole('button', { name: 'Cancel' }).click();
    await boss.getByRole('button', { name: 'Refresh' }).click();
    expect(await text(refused, 'correction-status')).toBe('Pending');
    expect(await coinUsdt(user.userId)).toBe('1500000000');

    // The finance checker rejects it with a note: nothing moves.
    await finance.getByRole('button', { name: 'Refresh' }).click();
    const toReject = finance.getByTestId(`correction-row-${takeBack}`);
    await toReject.getByRole('button', { name: 'Reject' }).click();
    const rejecting = finance.locator('form.dialog');
    expect(await text(rejecting, 'correction-decision-effect')).toBe('Nothing moves; the correction stays in the list as rejected.');
    await rejecting.getByLabel('Note (optional, kept with the decision)').fill('the deposit did arrive');
    await rejecting.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => rejecting.count()).toBe(0);
    expect(await text(finance, 'corrections-decided')).toBe(`Correction #${takeBack}: Rejected.`);
    await finance.getByRole('tab', { name: 'Rejected' }).click();
    const rejected = finance.getByTestId(`correction-row-${takeBack}`);
    await rejected.waitFor();
    expect(await text(rejected, 'correction-note')).toBe('Note: the deposit did arrive');
    expect(await rejected.getByTestId('correction-entry').count()).toBe(0);
    expect(await coinUsdt(user.userId)).toBe('1500000000');
    expect((await checkLedger(server.db)).problems).toEqual([]);
  });
});
