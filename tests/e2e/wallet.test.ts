import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bindAddress, call, setPaymentPassword, TEST_XPUB, VALID_ADDRESSES, verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, pathOf } from './helpers/browser.ts';
import { callApi, createStaff, photo, staffLogin } from './helpers/identity.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';
import { qrModulesOf, qrModulesShown } from './helpers/qr.ts';

// Issue 5, the wallet in the browser: a deposit reported with a screenshot and approved by finance
// staff in the back-office; an address added through the address book (checksum checked), a
// withdrawal with the payment password rejected by staff and its funds returned; the refusals a
// person meets (daily limit of the tier, no payment password, withdrawals closed, the address hold).

const TRON_ADDRESS = VALID_ADDRESSES.tron;
// The same address with its last character changed: the base58check checksum no longer matches.
const TRON_TYPO = `${TRON_ADDRESS.slice(0, -1)}u`;
const PAYMENT_PASSWORD = '135790';

let browser: Browser;
let userContext: BrowserContext | undefined;
let staffContext: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await userContext?.close();
  await staffContext?.close();
  userContext = undefined;
  staffContext = undefined;
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

async function phone(server: E2eServer) {
  userContext = await newPhoneContext(browser, server.baseUrl);
  return userContext;
}

async function staffPage(server: E2eServer, staff: { username: string; password: string }) {
  staffContext = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  staffContext.setDefaultTimeout(10_000);
  const page = await staffContext.newPage();
  await staffLogin(page, staff);
  return page;
}

/** A registered user; `ready`: identity verified (tier 1) with a payment password. */
async function walletUser(server: E2eServer, prefix: string, options: { usdt?: string; verified?: boolean; paymentPassword?: boolean } = {}) {
  const user = await registerUser(server.baseUrl, uniqueUsername(prefix));
  if (options.verified) await verifyUser(server.db, user.userId);
  if (options.paymentPassword) await setPaymentPassword(server.app, user, PAYMENT_PASSWORD);
  if (options.usdt) await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: options.usdt });
  return user;
}

describe('wallet with deposit addresses and no address hold', () => {
  let server: E2eServer;

  beforeAll(async () => {
    server = await startServer({ market: false, env: { DEPOSIT_XPUB_TRON: TEST_XPUB, WITHDRAWAL_ADDRESS_HOLD_HOURS: '0' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('deposit with a screenshot, approved by finance staff: the records and the balance follow', async () => {
    const user = await walletUser(server, 'dep');
    const finance = await createStaff(server, 'finance1', ['finance']);
    const page = await openLoggedIn(await phone(server), user, '/assets');

    await page.getByTestId('action-deposit').click();
    await page.waitForURL((url) => url.pathname === '/assets/recharge');
    await page.getByTestId('deposit-channel-USDT-TRC20').click();
    expect(pathOf(page)).toBe('/assets/recharge?channel=USDT-TRC20');
    expect(await text(page, 'deposit-review-USDT-TRC20')).toBe('Reviewed by finance staff before it is credited');

    // The address shown is the one the server assigned to this user, with its QR code.
    const expected = await callApi<{ address: string; network: string }>(server, 'GET', '/home/wallet/deposit-address?channel=USDT-TRC20', user.token);
    expect(expected.code).toBe(200);
    expect(expected.data.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    await expect.poll(() => text(page, 'deposit-address')).toBe(expected.data.address);
    expect(await text(page, 'deposit-network')).toBe('TRON');
    expect(await text(page, 'deposit-network-warning')).toContain('This address takes USDT on the TRON network only.');
    const qr = page.getByTestId('qr-code');
    expect(await qr.getAttribute('aria-label')).toBe('QR code of your USDT · TRC20 (TRON) deposit address');
    expect(await qr.isVisible()).toBe(true);
    expect(await qrModulesShown(page)).toEqual(qrModulesOf(expected.data.address));

    // Report it: amount, transaction hash, screenshot.
    const txHash = randomBytes(32).toString('hex');
    await page.getByTestId('deposit-amount').fill('250.5');
    await page.getByTestId('deposit-txhash').fill(txHash);
    await page.getByTestId('photo-proof').locator('input[type="file"]').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: await photo(42) });
    await expect.poll(() => page.getByTestId('photo-proof').getAttribute('data-state')).toBe('done');
    await page.getByTestId('deposit-submit').click();
    await page.waitForURL((url) => url.pathname === '/assets/rechargeLog');
    const depositId = new URL(page.url()).searchParams.get('created');
    expect(depositId).toMatch(/^\d+$/);
    await page.getByTestId('deposit-created').waitFor();
    const row = page.getByTestId(`deposit-row-${depositId}`);
    await expect.poll(() => row.getByTestId('deposit-row-status').textContent()).toBe('To be reviewed');
    expect(await row.getByTestId('deposit-row-amount').textContent()).toBe('250.50 USDT');
    expect(await row.getByTestId('deposit-row-txhash').getAttribute('data-full')).toBe(txHash);
    expect(await row.getByTestId('deposit-row-review').textContent()).toBe('Finance staff');
    expect(await row.getByTestId('deposit-row-entry').count()).toBe(0);

    // Finance staff: the queue, the row, the screenshot (a decoded image), approve.
    const staff = await staffPage(server, finance);
    await staff.getByRole('link', { name: 'Deposits' }).click();
    const queueRow = staff.getByTestId(`deposit-row-user-${user.username}`);
    // The back-office writes amounts at the asset's full scale (USDT: 6 decimals).
    await expect.poll(() => queueRow.getByTestId(`deposit-row-${depositId}`).textContent()).toMatch(/250\.50* USDT/);
    expect(await queueRow.textContent()).toContain('USDT-TRC20');
    await queueRow.getByRole('link', { name: 'Open' }).click();
    const detail = staff.getByTestId('deposit-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('field-amount').textContent()).toMatch(/^250\.50* USDT$/);
    expect(await detail.getByTestId('field-txHash').textContent()).toBe(txHash);
    expect(await detail.getByTestId('field-address').textContent()).toBe(expected.data.address);
    const proof = detail.getByTestId('deposit-proof');
    await expect.poll(() => proof.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(96);
    expect(await proof.evaluate((image) => (image as HTMLImageElement).naturalHeight)).toBe(64);
    expect(await proof.getAttribute('src')).toMatch(/^blob:/);
    expect(await detail.getByTestId('approve-note').textContent()).toMatch(
      /^Approving credits exactly 250\.50* USDT, the amount the user reported\. Staff never enter an amount\.$/,
    );
    await detail.getByRole('button', { name: 'Approve' }).click();
    // Nothing happens before the confirmation, which names the deposit, its amount and asset, and the user.
    const confirm = staff.getByRole('alertdialog');
    expect(await confirm.locator('#confirm-title').textContent()).toBe(`Approve deposit #${depositId}?`);
    expect(await confirm.locator('#confirm-text').textContent()).toMatch(
      new RegExp(`^Credit 250\\.50* USDT \\(worth 250\\.50* USDT\\) to ${user.username} \\(#${user.userId}\\): exactly what the user reported\\.`),
    );
    expect((await server.db.query<{ status: string }>('SELECT status FROM deposits WHERE id = $1', [depositId]))[0]!.status).toBe('pending');
    await confirm.getByRole('button', { name: /^Approve 250\.50* USDT$/ }).click();
    await expect.poll(() => text(staff, 'finance-notice')).toBe(`#${depositId} is now: Approved.`);
    await staff.getByTestId('deposits-empty').waitFor();

    // The user's records: approved, with the journal entry that credited it.
    const [stored] = await server.db.query<{ entry_id: string | null; status: string }>('SELECT entry_id::text, status FROM deposits WHERE id = $1', [depositId]);
    expect(stored).toMatchObject({ status: 'approved' });
    expect(stored!.entry_id).toMatch(/^\d+$/);
    await page.reload();
    await expect.poll(() => row.getByTestId('deposit-row-status').textContent()).toBe('Approved');
    expect(await row.getByTestId('deposit-row-entry').textContent()).toBe(`Entry #${stored!.entry_id}`);

    // The coin account holds it, usable.
    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-coin-USDT-available')).toBe('250.50');
    expect(await text(page, 'balance-coin-USDT-frozen')).toBe('0.00');

    // And the records list the deposit's entry.
    await page.goto('/assets/records');
    const record = page.getByTestId('record').first();
    await expect.poll(() => record.getAttribute('data-reason')).toBe('deposit');
    expect(await record.getAttribute('data-entry')).toBe(stored!.entry_id);
    expect(await record.locator('.record-reason').textContent()).toBe('Deposit');
    expect(await record.getByTestId('record-posting').allTextContents()).toEqual(['Coin account+250.50 USDT']);
    expect(await record.locator('.record-ref').textContent()).toBe(`Entry #${stored!.entry_id}Deposit #${depositId}`);

    // The screenshot view and the decision are in the audit log, under the staff member's name.
    const audit = await server.db.query<{ action: string; username: string }>(
      `SELECT a.action, s.username FROM audit_log a JOIN staff s ON s.id = a.staff_id
        WHERE a.target_type = 'deposit' AND a.target_id = $1 ORDER BY a.id`,
      [depositId],
    );
    expect(audit.at(-1)).toEqual({ action: 'deposit.approve', username: 'finance1' });
    expect(audit.filter((each) => each.action === 'deposit.proof.view').length).toBeGreaterThanOrEqual(1);
    expect(new Set(audit.map((each) => `${each.action} ${each.username}`))).toEqual(new Set(['deposit.proof.view finance1', 'deposit.approve finance1']));
  });

  it('a deposit the two-person rule holds: the queue says so, the first approval names the rule and its numbers, a second member credits it', async () => {
    const user = await walletUser(server, 'big');
    const first = await createStaff(server, 'finance3', ['finance']);
    const second = await createStaff(server, 'finance4', ['finance']);
    const reported = await call(server.app, 'POST', '/home/wallet/deposits', user.token, {
      channel: 'USDT-TRC20',
      amount: '12000',
      txHash: randomBytes(32).toString('hex'),
    });
    const depositId = reported.data.id as string;

    const staff = await staffPage(server, first);
    await staff.getByRole('link', { name: 'Deposits' }).click();
    // The published rule heads the queue; the row says that two approvers are needed.
    await expect.poll(() => text(staff, 'two-person-rule')).toContain('a deposit or withdrawal above 10000.000000 USDT, an appeal above 1000.000000 USDT');
    const row = staff.getByTestId(`deposit-row-${depositId}`);
    await expect.poll(() => row.getByTestId('needs-second-approver').textContent()).toBe('Needs two approvers');
    await row.getByRole('link', { name: 'Open' }).click();
    const detail = staff.getByTestId('deposit-detail');
    expect(await detail.getByTestId('two-person-reason').textContent()).toBe(
      'Needs a second approver: worth 12000.000000 USDT, above the threshold of 10000.000000 USDT.',
    );
    await detail.getByRole('button', { name: 'Approve' }).click();
    const confirm = staff.getByRole('alertdialog');
    expect(await confirm.locator('#confirm-text').textContent()).toContain(`Credit 12000.000000 USDT (worth 12000.000000 USDT) to ${user.username} (#${user.userId})`);
    await confirm.getByRole('button', { name: 'Approve 12000.000000 USDT' }).click();
    await expect.poll(() => text(staff, 'finance-notice')).toBe(`#${depositId}: your first approval is recorded. A second staff member must approve.`);
    await detail.getByTestId('own-first-approval').waitFor();
    expect(await detail.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await expect.poll(() => row.getByTestId('needs-second-approver').textContent()).toBe('Needs a second approver');
    expect((await server.db.query<{ status: string }>('SELECT status FROM deposits WHERE id = $1', [depositId]))[0]!.status).toBe('pending');

    // A different finance member gives the second approval, which credits it.
    const otherContext = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    try {
      const other = await otherContext.newPage();
      await staffLogin(other, second);
      await other.getByRole('link', { name: 'Deposits' }).click();
      await other.getByTestId(`deposit-row-${depositId}`).getByRole('link', { name: 'Open' }).click();
      const otherDetail = other.getByTestId('deposit-detail');
      expect(await otherDetail.getByTestId('first-approval').textContent()).toMatch(/^First approval by finance3 at /);
      await otherDetail.getByRole('button', { name: 'Approve' }).click();
      await other.getByRole('alertdialog').getByRole('button', { name: 'Approve 12000.000000 USDT' }).click();
      await expect.poll(() => text(other, 'finance-notice')).toBe(`#${depositId} is now: Approved.`);
    } finally {
      await otherContext.close();
    }
    const decisions = await server.db.query<{ people: number }>(`SELECT people FROM staff_money_decisions WHERE kind = 'deposit.credit' AND record_id = $1`, [depositId]);
    expect(decisions).toEqual([{ people: 2 }]);
  });

  it('adds an address through the address book, withdraws with the payment password; staff reject and the funds return', async () => {
    const user = await walletUser(server, 'wd', { verified: true, paymentPassword: true, usdt: '1000' });
    const finance = await createStaff(server, 'finance2', ['finance']);
    const page = await openLoggedIn(await phone(server), user, '/assets');
    await expect.poll(() => text(page, 'balance-coin-USDT-available')).toBe('1,000.00');

    await page.getByTestId('action-withdraw').click();
    await page.waitForURL((url) => url.pathname === '/assets/withdraw');
    await page.getByTestId('withdraw-channel').selectOption('USDT-TRC20');
    await expect.poll(() => page.getByTestId('withdraw-address').locator('option').first().textContent()).toBe('No address for this network yet');

    // The address book, as a picker for this channel.
    await page.getByTestId('withdraw-pick-address').click();
    await page.waitForURL((url) => url.pathname === '/assets/WalletAddress/select');
    expect(new URL(page.url()).searchParams.get('channel')).toBe('USDT-TRC20');
    await page.getByTestId('addresses-empty').waitFor();
    expect(await text(page, 'address-hold-note')).toBe('A new address can be used for withdrawals 0 h after you add it.');
    expect(await page.getByTestId('address-network').inputValue()).toBe('tron');
    let adds = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/home/wallet/addresses') adds += 1;
    });
    // One character wrong: the checksum catches it before anything is sent.
    await page.getByTestId('address-input').fill(TRON_TYPO);
    await page.getByTestId('address-submit').click();
    await page.getByText('This address has a typo: its checksum does not match').waitFor();
    expect(adds).toBe(0);
    await page.getByTestId('address-input').fill(TRON_ADDRESS);
    await page.getByTestId('address-label').fill('My hardware wallet');
    await page.getByTestId('address-submit').click();
    const bookRow = page.locator('[data-testid^="address-row-"][data-network="tron"]');
    await expect.poll(() => bookRow.count()).toBe(1);
    expect(adds).toBe(1);
    expect(await bookRow.getByTestId('address-row-address').textContent()).toBe(TRON_ADDRESS);
    expect(await bookRow.getByTestId('address-row-label').textContent()).toBe('My hardware wallet');
    // With no hold it is usable at once. (The list judges the hold by a clock it re-reads only every
    // 30 s, so right after the add it still says "Usable from <now>"; a fresh look shows it ready.)
    await page.reload();
    await expect.poll(() => bookRow.getByTestId('address-row-usable').textContent().catch(() => null)).toBe('Ready for withdrawals');
    expect(await bookRow.getByTestId('address-row-usable-from').count()).toBe(0);
    await bookRow.getByTestId('address-row-choose').click();

    // Back on the form with it chosen.
    await page.waitForURL((url) => url.pathname === '/assets/withdraw');
    await expect.poll(() => text(page, 'withdraw-address-full')).toBe(TRON_ADDRESS);
    expect(new URL(page.url()).searchParams.get('channel')).toBe('USDT-TRC20');
    expect(await page.getByTestId('withdraw-address-hold').count()).toBe(0);
    await expect.poll(() => text(page, 'withdraw-fee')).toBe('1.00 USDT');
    expect(await text(page, 'withdraw-min')).toBe('10.00 USDT');
    await page.getByTestId('withdraw-amount').fill('100');
    await expect.poll(() => text(page, 'withdraw-total')).toBe('101.00 USDT');
    expect(await text(page, 'withdraw-receive')).toBe('100.00 USDT');
    await page.getByTestId('withdraw-paypassword').fill(PAYMENT_PASSWORD);
    await page.getByTestId('withdraw-submit').click();

    // Submitted: what is frozen, where it goes, and nothing more to pay.
    await page.waitForURL((url) => /^\/assets\/WithdrawPay\/\d+$/.test(url.pathname));
    const withdrawalId = new URL(page.url()).pathname.split('/').at(-1)!;
    await expect.poll(() => text(page, 'pay-total')).toBe('101.00 USDT');
    expect(await text(page, 'pay-amount')).toBe('100.00 USDT');
    expect(await text(page, 'pay-fee')).toBe('1.00 USDT');
    expect(await text(page, 'pay-status')).toBe('To be reviewed');
    expect(await text(page, 'pay-address')).toBe(TRON_ADDRESS);
    expect(await text(page, 'pay-queue')).toBe('Number 1 in the queue');
    const nothingToPay = page.getByTestId('nothing-to-pay');
    expect(await nothingToPay.textContent()).toContain('Nothing more to pay');
    expect(await nothingToPay.textContent()).toContain('Keel never asks for a payment, a deposit, a tax or an "unlock fee" to release a withdrawal.');
    // Nothing to fill in on this page: no field asks for a payment.
    expect(await page.getByTestId('page-withdraw-pay').locator('input, textarea, select').count()).toBe(0);

    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-coin-USDT-available')).toBe('899.00');
    expect(await text(page, 'balance-coin-USDT-frozen')).toBe('101.00');

    // Finance staff reject it with a reason.
    const staff = await staffPage(server, finance);
    await staff.getByRole('link', { name: 'Withdrawals' }).click();
    const queueRow = staff.getByTestId(`withdrawal-row-user-${user.username}`);
    await queueRow.getByTestId(`withdrawal-row-${withdrawalId}`).waitFor();
    await queueRow.getByRole('link', { name: 'Open' }).click();
    const detail = staff.getByTestId('withdrawal-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('field-address').textContent()).toBe(TRON_ADDRESS);
    expect(await detail.getByTestId('field-totalFrozen').textContent()).toMatch(/^101(\.0+)? USDT$/);
    await detail.getByRole('button', { name: 'Reject' }).click();
    await detail.locator('textarea[name="reason"]').fill('The address belongs to a sanctioned service');
    await detail.getByRole('button', { name: 'Reject with this reason' }).click();
    const confirm = staff.getByRole('alertdialog');
    expect(await confirm.locator('#confirm-text').textContent()).toMatch(
      new RegExp(`^The held 101(\\.0+)? USDT return to ${user.username} \\(#${user.userId}\\)\\. The user reads your reason: “The address belongs to a sanctioned service”$`),
    );
    await confirm.getByRole('button', { name: /^Return 101(\.0+)? USDT$/ }).click();
    await expect.poll(() => text(staff, 'finance-notice')).toBe(`#${withdrawalId} is now: Rejected.`);
    await staff.getByTestId('withdrawals-empty').waitFor();

    // The user reads the rejection and its reason; everything is back.
    await page.goto(`/assets/WithdrawDetails/${withdrawalId}`);
    await expect.poll(() => text(page, 'withdrawal-status')).toBe('Rejected');
    expect(await text(page, 'withdrawal-reason')).toBe('Reason for the rejectionThe address belongs to a sanctioned service');
    expect(await text(page, 'timeline-reason')).toBe('The address belongs to a sanctioned service');
    const steps = page.locator('[data-testid^="timeline-step-"]');
    expect(await steps.evaluateAll((items) => items.map((item) => `${item.getAttribute('data-testid')} ${item.getAttribute('data-state')}`))).toEqual([
      'timeline-step-requested done',
      'timeline-step-review done',
      'timeline-step-rejected ended',
    ]);
    expect(await text(page, 'timeline-step-rejected')).toContain('The frozen amount and fee were returned to your coin account.');
    expect(await page.getByTestId('withdrawal-closing-entry').textContent()).toMatch(/^Entry #\d+$/);
    expect(await page.getByTestId('nothing-to-pay').count()).toBe(0);
    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-coin-USDT-available')).toBe('1,000.00');
    expect(await text(page, 'balance-coin-USDT-frozen')).toBe('0.00');
  });

  it('names the daily limit of the tier with what is left, and asks for a payment password that is not set', async () => {
    // Tier 1 may withdraw 50,000 USDT a day: 50,001 is refused, and the refusal says why.
    const rich = await walletUser(server, 'limit', { verified: true, paymentPassword: true, usdt: '60000' });
    const richAddress = await bindAddress(server.app, server.db, rich, 'tron');
    const page = await openLoggedIn(await phone(server), rich, `/assets/withdraw?channel=USDT-TRC20&addressId=${richAddress}`);
    await expect.poll(() => text(page, 'withdraw-address-full')).toBe(TRON_ADDRESS);
    await expect.poll(() => text(page, 'rules-remaining')).toBe('50,000.00 USDT');
    await page.getByTestId('withdraw-amount').fill('50001');
    await page.getByTestId('withdraw-paypassword').fill(PAYMENT_PASSWORD);
    await page.getByTestId('withdraw-submit').click();
    const refusal = page.getByTestId('form-error');
    await expect.poll(() => refusal.locator('.notice-title').textContent().catch(() => null)).toBe('Withdrawal impossible');
    expect(await refusal.getByTestId('refusal-detail').textContent()).toBe(
      'Your daily withdrawal limit is \u206650,000 USDT\u2069. Used today: \u20660 USDT\u2069. Left today: \u206650,000 USDT\u2069.',
    );
    expect(pathOf(page)).toBe(`/assets/withdraw?channel=USDT-TRC20&addressId=${richAddress}`);
    expect(await text(page, 'withdraw-available')).toContain('60,000.00');

    // No payment password: the form says so at once, the server refuses the same way, and the
    // button leads to the page that sets it.
    const user = await walletUser(server, 'nopay', { verified: true, usdt: '100' });
    const address = await bindAddress(server.app, server.db, user, 'tron');
    await userContext!.close();
    const second = await openLoggedIn(await phone(server), user, `/assets/withdraw?channel=USDT-TRC20&addressId=${address}`);
    const notice = second.getByTestId('withdraw-no-paypassword');
    await expect.poll(() => notice.textContent()).toContain('No payment password set. Set one now?');
    await expect.poll(() => text(second, 'withdraw-address-full')).toBe(TRON_ADDRESS);
    await second.getByTestId('withdraw-amount').fill('20');
    await second.getByTestId('withdraw-paypassword').fill('123456');
    await second.getByTestId('withdraw-submit').click();
    const refused = second.getByTestId('form-error');
    await expect.poll(() => refused.textContent().catch(() => null)).toContain('No payment password set. Set one now?');
    expect(await refused.getByTestId('refusal-detail').textContent()).toBe(
      'A withdrawal is confirmed with your six-digit payment password. Set it first, then come back.',
    );
    const setIt = refused.getByTestId('refusal-set-paypassword');
    expect(await setIt.textContent()).toBe('Set payment password');
    await setIt.click();
    await second.waitForURL((url) => url.pathname === '/person/setting/paypassword');
    await second.getByTestId('paypassword-set').waitFor();
    const [held] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM withdrawals WHERE user_id = ANY($1::bigint[])', [
      [rich.userId, user.userId],
    ]);
    expect(held!.count).toBe(0);
  });
});

describe('withdrawals closed by the operator, with the default address hold', () => {
  let server: E2eServer;

  beforeAll(async () => {
    server = await startServer({ market: false, env: { WITHDRAWALS_OPEN: 'false' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('shows a new address usable only after 24 h, and refuses with "withdrawal temporarily closed"', async () => {
    const user = await walletUser(server, 'closed', { verified: true, paymentPassword: true, usdt: '500' });
    const page = await openLoggedIn(await phone(server), user, '/assets/WalletAddress/manage');
    await expect.poll(() => text(page, 'address-hold-note')).toBe('A new address can be used for withdrawals 24 h after you add it.');
    await page.getByTestId('address-input').fill(TRON_ADDRESS);
    await page.getByTestId('address-submit').click();
    const bookRow = page.locator('[data-testid^="address-row-"][data-network="tron"]');
    const usableFrom = bookRow.getByTestId('address-row-usable-from');
    await usableFrom.waitFor();
    const hold = Date.parse((await usableFrom.getAttribute('data-usable-from'))!) - Date.now();
    expect(hold).toBeGreaterThan(23.9 * 3600_000);
    expect(hold).toBeLessThanOrEqual(24 * 3600_000);
    expect(await usableFrom.textContent()).toMatch(/^Usable from \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    const addressId = (await bookRow.getAttribute('data-testid'))!.replace('address-row-', '');

    await page.goto(`/assets/withdraw?channel=USDT-TRC20&addressId=${addressId}`);
    await expect.poll(() => text(page, 'withdraw-address-hold')).toMatch(/^Usable from /);
    expect(await text(page, 'rules-closed')).toBe('Withdrawals are closed for all users for now. Your balance stays in your account and nothing is frozen.');
    expect(await text(page, 'rules-open')).toBe('Closed for everyone');
    await page.getByTestId('withdraw-amount').fill('20');
    await page.getByTestId('withdraw-paypassword').fill(PAYMENT_PASSWORD);
    await page.getByTestId('withdraw-submit').click();
    const refusal = page.getByTestId('form-error');
    await expect.poll(() => refusal.textContent().catch(() => null)).toContain('Withdrawal temporarily closed');
    expect(await refusal.getByTestId('refusal-detail').textContent()).toBe(
      'Withdrawals are closed for all users for now. Your balance stays in your account and nothing is frozen.',
    );
    await page.goto('/assets');
    await expect.poll(() => text(page, 'balance-coin-USDT-available')).toBe('500.00');
    expect(await text(page, 'balance-coin-USDT-frozen')).toBe('0.00');
  });
});
