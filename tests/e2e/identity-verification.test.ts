import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { callApi, createStaff, photo, staffLogin } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 4 verification: the user submits identity verification with real image files, compliance
// staff reject it with a reason in the back-office, the user resubmits, staff approve, and the
// user sees "verified" with the tier's withdrawal limit. Staff without the role see no queue.

let server: E2eServer;
let browser: Browser;
let userContext: BrowserContext;
let staffContext: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  userContext = await newPhoneContext(browser, server.baseUrl);
  staffContext = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 } });
  staffContext.setDefaultTimeout(10_000);
});

afterAll(async () => {
  await userContext?.close();
  await staffContext?.close();
  await browser?.close();
  await server?.close();
});

async function choosePhoto(page: Page, slot: string, name: string, mimeType: string, buffer: Buffer) {
  await page.getByTestId(`photo-${slot}`).locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
}

async function fillIdentityForm(page: Page) {
  await page.getByLabel('Full legal name').fill('Ana Silva');
  await page.getByLabel('Country or region').selectOption('PT');
  await page.getByLabel('Residence address').fill('Rua Augusta 1, 1100-048 Lisboa');
  await page.getByLabel('ID document').selectOption('passport');
  await page.getByLabel('ID number').fill('P1234567');
  await choosePhoto(page, 'front', 'front.png', 'image/png', await photo(10));
  await choosePhoto(page, 'back', 'back.png', 'image/png', await photo(60));
  // A JPEG named .png: the bytes decide, on both sides.
  await choosePhoto(page, 'holding', 'holding.png', 'image/png', await photo(120, 'jpeg'));
  for (const slot of ['front', 'back', 'holding']) {
    await expect.poll(() => page.getByTestId(`photo-${slot}`).getAttribute('data-state')).toBe('done');
  }
}

/** Opens the user's submission in the back-office queue. */
async function openSubmission(page: Page, username: string) {
  await page.getByRole('link', { name: 'Verifications' }).click();
  const row = page.getByTestId(`verification-row-${username}`);
  await row.getByRole('link', { name: 'Open' }).click();
  const detail = page.getByTestId('verification-detail');
  await detail.waitFor();
  return { row, detail };
}

/** Every photo of the detail is a real, decoded image fetched with the staff token. */
async function photosShown(detail: ReturnType<Page['getByTestId']>, count: number) {
  const images = detail.locator('img');
  await expect.poll(() => images.count()).toBe(count);
  await expect
    .poll(() => images.evaluateAll((elements) => elements.map((element) => (element as HTMLImageElement).naturalWidth)))
    .toEqual(Array(count).fill(96));
  for (const src of await images.evaluateAll((elements) => elements.map((element) => (element as HTMLImageElement).src))) {
    expect(src.startsWith('blob:')).toBe(true);
  }
}

describe('identity verification with review', () => {
  it('submit with photos, reject with a reason, resubmit, approve, and see "verified" with the new limit', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('kyc'));
    const reviewer = await createStaff(server, 'reviewer1', ['compliance']);
    const page = await openLoggedIn(userContext, user, '/my');

    // The verification centre, from the personal centre.
    await page.getByTestId('my-verification').click();
    await page.waitForURL((url) => url.pathname === '/person/authentication');
    await expect.poll(() => page.getByTestId('identity-state').textContent()).toBe('Not verified');
    expect(await page.getByTestId('verification-tier').textContent()).toBe('Tier 0');
    expect(await page.getByTestId('withdrawal-limit').textContent()).toBe('0 USDT');
    expect(await page.getByTestId('advanced-needs-identity').textContent()).toBe('Complete identity verification first.');
    await page.goto('/person/advanced');
    await page.getByTestId('advanced-needs-identity').waitFor();
    expect(await page.getByTestId('advanced-form').count()).toBe(0);

    await page.goto('/person/authentication');
    await page.getByTestId('identity-start').click();
    await page.waitForURL((url) => url.pathname === '/person/identity');
    // The country picker shows translated names and sends the ISO code.
    expect(await page.getByLabel('Country or region').locator('option[value="PT"]').textContent()).toBe('Portugal');

    // A web page renamed .png is refused before upload, by its bytes.
    let uploads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/home/uploads/image') uploads += 1;
    });
    await choosePhoto(page, 'front', 'front.png', 'image/png', Buffer.from(`<html><body>${'x'.repeat(200)}</body></html>`));
    await expect.poll(() => page.getByTestId('photo-front').textContent()).toContain('Incorrect image format');
    expect(uploads).toBe(0);
    // Submitting without photos names each missing one.
    await page.getByTestId('identity-submit').click();
    await expect.poll(() => page.getByText('This photo is required').count()).toBe(2);

    await fillIdentityForm(page);
    expect(uploads).toBe(3);
    await page.getByTestId('identity-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/authentication');
    await expect.poll(() => page.getByTestId('identity-state').textContent()).toBe('In review');

    // Compliance staff reject it with a reason; a rejection without one is not sent.
    const staffPage = await staffContext.newPage();
    await staffLogin(staffPage, reviewer);
    const first = await openSubmission(staffPage, user.username);
    expect(await first.detail.getByTestId('field-realName').textContent()).toBe('Ana Silva');
    expect(await first.detail.getByTestId('field-country').textContent()).toBe('Portugal (PT)');
    expect(await first.detail.getByTestId('field-idType').textContent()).toBe('Passport');
    await photosShown(first.detail, 3);
    await first.detail.getByRole('button', { name: 'Reject' }).click();
    await first.detail.getByRole('button', { name: 'Reject with this reason' }).click();
    expect(await first.detail.locator('textarea[name="reason"]').evaluate((element) => (element as HTMLTextAreaElement).validity.valueMissing)).toBe(true);
    await first.detail.locator('textarea[name="reason"]').fill('The passport photo is blurred');
    await first.detail.getByRole('button', { name: 'Reject with this reason' }).click();
    // Decided: it leaves the queue.
    await staffPage.getByTestId('verifications-empty').waitFor();
    await staffPage.getByRole('tab', { name: 'Rejected' }).click();
    await staffPage.getByTestId(`verification-row-${user.username}`).waitFor();

    // The user reads the reason and submits again.
    await page.reload();
    await expect.poll(() => page.getByTestId('identity-state').textContent()).toBe('Rejected');
    expect(await page.getByTestId('identity-reject-reason').textContent()).toContain('The passport photo is blurred');
    await page.getByTestId('identity-start').click();
    await page.waitForURL((url) => url.pathname === '/person/identity');
    await page.getByTestId('identity-reject-reason').waitFor();
    await fillIdentityForm(page);
    await page.getByTestId('identity-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/authentication');
    await expect.poll(() => page.getByTestId('identity-state').textContent()).toBe('In review');

    // Approved in the back-office.
    await staffPage.getByRole('tab', { name: 'In review' }).click();
    const second = await openSubmission(staffPage, user.username);
    await photosShown(second.detail, 3);
    await second.detail.getByRole('button', { name: 'Approve' }).click();
    await staffPage.getByTestId('verifications-empty').waitFor();

    // The user sees "verified", tier 1 and its published limit; the form is closed.
    await page.reload();
    await expect.poll(() => page.getByTestId('identity-state').textContent()).toBe('Verified');
    expect(await page.getByTestId('verification-tier').textContent()).toBe('Tier 1');
    expect(await page.getByTestId('withdrawal-limit').textContent()).toBe('50,000 USDT');
    await page.goto('/my/identity');
    await expect.poll(() => page.getByTestId('identity-state').textContent()).toBe('Verified');
    expect(await page.getByTestId('identity-form').count()).toBe(0);
    // Advanced verification is open now.
    await page.goto('/person/advanced');
    await page.getByTestId('advanced-form').waitFor();

    // Every photo view and both decisions are in the audit log.
    const actions = await server.db.query<{ action: string }>('SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id', [user.userId]);
    expect(actions.map((each) => each.action).filter((action) => action !== 'upload.view')).toEqual(['verification.reject', 'verification.approve']);
    expect(actions.filter((each) => each.action === 'upload.view')).toHaveLength(6);
    await staffPage.close();
  });

  it('support staff see the outbox with the codes, but not the review queue', async () => {
    const support = await createStaff(server, 'helper01', ['support']);
    const target = `${uniqueUsername('mail')}@example.com`;
    expect((await callApi(server, 'POST', '/home/auth/code', null, { channel: 'email', target, purpose: 'register' })).code).toBe(200);
    const staffPage = await staffContext.newPage();
    await staffLogin(staffPage, support);
    expect(await staffPage.getByRole('link', { name: 'Verifications' }).count()).toBe(0);
    await staffPage.getByRole('link', { name: 'Outbox' }).click();
    await staffPage.getByLabel('Filter by e-mail or phone').fill(target.toUpperCase());
    await staffPage.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => staffPage.locator('tbody tr').count()).toBe(1);
    const row = staffPage.locator('tbody tr').first();
    expect(await row.textContent()).toContain(target);
    expect(await row.textContent()).toMatch(/Your code to register on Keel is \d{6}/);
    expect(await row.textContent()).toContain('Pending');
    const [audit] = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_log WHERE action = 'notifications.view'`);
    expect(audit!.count).toBeGreaterThan(0);
    await staffPage.close();
  });
});
