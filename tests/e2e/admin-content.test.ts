import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { callApi, createStaff, photo, type StaffCredentials, staffLogin } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 20 in the back-office (ADR 0044): a content editor writes an announcement (HTML in the body
// refused on its field before sending, in words), adds a German translation with an uploaded image,
// previews it in the phone frame (Markdown drawn by the user app's renderer, Arabic right to left),
// sees a translation go stale when English changes, and publishes it after a confirmation; a second
// announcement is scheduled on the editor's clock (Berlin), shown with its time zone and in UTC. A
// user's home then lists the published announcement (and not the scheduled one), in German with
// the German title. A member without the content role is not offered the view, sees "not allowed"
// at its URL, and the server refuses its calls.

const TITLE = 'Keel lists SOL/USDT';
const GERMAN_TITLE = 'Keel führt SOL/USDT ein';
const LATER_TITLE = 'Maintenance window next week';

let server: E2eServer;
let browser: Browser;
let editor: StaffCredentials;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
  editor = await createStaff(server, 'contenteditor', ['content']);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** Text as read, spaces collapsed. */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const text = async (scope: Page | Locator, testId: string) => plain(await scope.getByTestId(testId).first().textContent());

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

/** A member logged in to the back-office in a context of their own, on a clock in Berlin. */
async function staffPage(staff: StaffCredentials): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 1000 }, locale: 'en-US', timezoneId: 'Europe/Berlin' });
  context.setDefaultTimeout(10_000);
  contexts.push(context);
  const page = await context.newPage();
  await staffLogin(page, staff);
  return page;
}

/** "New item": an announcement with its English words; answers the new item's id, from the editor's URL. */
async function createAnnouncement(page: Page, title: string, body: string): Promise<string> {
  await page.getByRole('link', { name: 'Content', exact: true }).click();
  await page.getByTestId('content-page').waitFor();
  await page.getByRole('button', { name: 'New item' }).click();
  const form = page.getByTestId('content-new-form');
  await form.getByLabel('Kind').selectOption('announcement');
  await form.getByLabel('Title (English)').fill(title);
  await form.getByLabel('Body in Markdown (English)').fill(body);
  await form.getByRole('button', { name: 'Create draft' }).click();
  await page.getByTestId('content-editor').waitFor();
  return /\/admin\/content\/(\d+)/.exec(page.url())![1]!;
}

describe('the content editor', () => {
  it('writes, translates, previews and publishes an announcement that a user’s home then shows, in German too', async () => {
    const page = await staffPage(editor);
    // A content editor lands on the content; the navigation offers it.
    await page.getByTestId('content-page').waitFor();
    expect(await page.locator('header nav a').allTextContents()).toContain('Content');
    expect(await text(page, 'content-audited')).toContain('recorded in the audit log under your name');

    // HTML in the body is refused on its field before anything is sent, in words.
    await page.getByRole('button', { name: 'New item' }).click();
    const form = page.getByTestId('content-new-form');
    await form.getByLabel('Title (English)').fill(TITLE);
    await form.getByLabel('Summary (English)').fill('Spot trading in Solana opens today.');
    await form.getByLabel('Markets').fill('sol/usdt');
    await form.getByLabel('Body in Markdown (English)').fill('<script>alert(1)</script>');
    await form.getByRole('button', { name: 'Create draft' }).click();
    await expect.poll(() => form.locator('#content-new-body-error').textContent()).toBe('No HTML here: write Markdown.');
    await form.getByLabel('Body in Markdown (English)').fill('## What changes\n\nSOL/USDT trading **opens today**. See the [fees](/helpcenter).');
    await form.getByRole('button', { name: 'Create draft' }).click();

    // The editor at its own URL: a draft, English written, the other twelve languages missing.
    const view = page.getByTestId('content-editor');
    await view.waitFor();
    const itemId = /\/admin\/content\/(\d+)/.exec(page.url())![1]!;
    expect(await text(view, 'content-status')).toBe('Draft');
    expect(await text(view, 'content-live')).toBe('Not live');
    expect(await view.getByTestId('content-lang-en').getAttribute('data-state')).toBe('ok');
    expect(await view.getByTestId('content-lang-de').getAttribute('data-state')).toBe('missing');
    expect(await page.getByTestId('content-settings').getByLabel('Markets').inputValue()).toBe('SOL/USDT');

    // German: the missing note, then the words with an uploaded image written at the cursor.
    await view.getByTestId('content-lang-de').click();
    await expect.poll(() => page.url()).toContain('lang=de');
    const german = view.locator('[data-testid="content-translation"][data-language="de"]');
    await german.waitFor();
    expect(await text(german, 'content-text-missing')).toContain('No text in Deutsch yet');
    await german.getByLabel('Title', { exact: true }).fill(GERMAN_TITLE);
    await german.getByLabel('Summary', { exact: true }).fill('Der Spot-Handel mit Solana startet heute.');
    const body = german.getByLabel('Body (Markdown)');
    await body.fill('## Was sich ändert\n\nDer Handel mit SOL/USDT **startet heute**.');
    await body.press('Control+End');
    await german.getByTestId('content-image-file').setInputFiles({ name: 'sol-chart.png', mimeType: 'image/png', buffer: await photo(7) });
    await expect.poll(() => body.inputValue()).toMatch(/\*\*startet heute\*\*\.\n\n!\[sol chart\]\(\/home\/content\/images\/\d+\)\n\n$/);

    // The preview as a phone shows it: 390 px wide, the Markdown drawn (a heading, bold, the image).
    const frame = german.getByTestId('phone-frame');
    expect((await frame.boundingBox())?.width).toBe(390);
    await expect.poll(() => text(frame, 'phone-title')).toBe(GERMAN_TITLE);
    expect(await text(frame, 'phone-summary')).toBe('Der Spot-Handel mit Solana startet heute.');
    expect(await frame.locator('.content-body h2').textContent()).toBe('Was sich ändert');
    expect(await frame.locator('.content-body strong').textContent()).toBe('startet heute');
    expect(await frame.getByTestId('phone-article').getAttribute('lang')).toBe('de');
    const image = frame.locator('.content-body img');
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(96);
    expect(await image.getAttribute('alt')).toBe('sol chart');

    // The editor with the German text and its preview: no serious or critical axe violation.
    expect(await seriousViolations(page)).toEqual([]);

    await german.getByRole('button', { name: 'Save Deutsch' }).click();
    expect(await text(german, 'content-text-saved')).toBe('Deutsch saved.');
    await expect.poll(() => view.getByTestId('content-lang-de').getAttribute('data-state')).toBe('ok');

    // Arabic is previewed right to left.
    await view.getByTestId('content-lang-ar').click();
    const arabic = view.locator('[data-testid="content-translation"][data-language="ar"]');
    await arabic.getByLabel('Title', { exact: true }).fill('كيل تدرج SOL/USDT');
    expect(await arabic.getByTestId('phone-article').getAttribute('dir')).toBe('rtl');
    await expect.poll(() => text(arabic, 'phone-title')).toBe('كيل تدرج SOL/USDT');

    // Leaving typed words unsaved asks first; cancelling stays, discarding goes.
    await view.getByTestId('content-lang-en').click();
    const leave = page.getByTestId('content-leave');
    expect(plain(await leave.textContent())).toContain('The العربية text has changes that are not saved');
    await page.getByTestId('content-leave-cancel').click();
    expect(await arabic.getByLabel('Title', { exact: true }).inputValue()).toBe('كيل تدرج SOL/USDT');
    await view.getByTestId('content-lang-en').click();
    await page.getByTestId('content-leave-confirm').click();
    await expect.poll(() => page.url()).not.toContain('lang=');

    // English changes: the German translation is marked "English changed since" until saved again.
    const english = view.locator('[data-testid="content-translation"][data-language="en"]');
    await english.getByLabel('Summary', { exact: true }).fill('Spot trading in Solana opens today, with the usual fees.');
    await english.getByRole('button', { name: 'Save English' }).click();
    await english.getByTestId('content-text-saved').waitFor();
    await expect.poll(() => view.getByTestId('content-lang-de').getAttribute('data-state')).toBe('stale');
    expect(await text(view, 'content-lang-de')).toContain('English changed since');
    await view.getByTestId('content-lang-de').click();
    expect(await text(german, 'content-text-stale')).toContain('The English text changed after this translation was saved');
    await german.getByRole('button', { name: 'Save Deutsch' }).click();
    await expect.poll(() => view.getByTestId('content-lang-de').getAttribute('data-state')).toBe('ok');

    // Publish now, after a confirmation that says what happens and which languages fall back.
    const publication = view.getByTestId('content-publish');
    await publication.getByRole('button', { name: 'Publish now' }).click();
    const confirm = page.getByTestId('content-confirm');
    expect(plain(await confirm.textContent())).toContain(`“${TITLE}” becomes visible to readers at once, in every language written.`);
    expect(plain(await confirm.textContent())).toContain('11 languages have no translation');
    await page.getByTestId('content-confirm-confirm').click();
    await expect.poll(() => text(publication, 'content-status')).toBe('Published');
    expect(await text(publication, 'content-live')).toBe('Live');
    expect(await text(publication, 'content-publish-notice')).toBe('Published: readers see it now.');
    expect(await text(publication, 'content-publish-at')).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} \(Europe\/Berlin\) · \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} UTC$/);

    // A second announcement, scheduled on the editor's clock: 1 January 2099, 09:30 in Berlin is 08:30 UTC.
    await page.getByTestId('content-back').click();
    const laterId = await createAnnouncement(page, LATER_TITLE, 'The exchange pauses for an hour.');
    const later = page.getByTestId('content-publish');
    await later.getByLabel('Publish at (your time zone: Europe/Berlin)').fill('2099-01-01T09:30');
    expect(await text(later, 'content-schedule-utc')).toBe('That is 2099/01/01 08:30 UTC.');
    await later.getByRole('button', { name: 'Schedule', exact: true }).click();
    expect(plain(await page.getByTestId('content-confirm').textContent())).toContain(
      `“${LATER_TITLE}” becomes visible to readers at 2099/01/01 09:30 (Europe/Berlin), which is 2099/01/01 08:30 UTC.`,
    );
    await page.getByTestId('content-confirm-confirm').click();
    await expect.poll(() => text(later, 'content-status')).toBe('Scheduled');
    expect(await text(later, 'content-live')).toBe('Not live');
    expect(await text(later, 'content-publish-at')).toBe('2099/01/01 09:30 (Europe/Berlin) · 2099/01/01 08:30 UTC');

    // The list: both rows with their status, and the 13 languages of the first.
    await page.getByTestId('content-back').click();
    const row = page.getByTestId(`content-row-${itemId}`);
    await row.waitFor();
    expect(await text(row, 'content-title')).toBe(TITLE);
    expect(await text(row, 'content-kind')).toBe('Announcement');
    expect(await text(row, 'content-status')).toBe('Published');
    expect(await text(row, 'content-live')).toBe('Live');
    const badges = row.getByTestId('content-translations').locator('li');
    expect(await badges.count()).toBe(13);
    expect(await row.getByTestId('translation-de').getAttribute('data-state')).toBe('ok');
    expect(await row.getByTestId('translation-ar').getAttribute('data-state')).toBe('missing');
    expect(await row.getByTestId('translation-de').getAttribute('title')).toBe('Deutsch: Up to date');
    expect(await text(page.getByTestId(`content-row-${laterId}`), 'content-status')).toBe('Scheduled');
    // Filtered by status through the URL.
    await page.getByTestId('content-filter-status').selectOption('draft');
    await expect.poll(() => page.url()).toContain('status=draft');
    await page.getByTestId('content-empty').waitFor();

    // A user's home: the published announcement among the latest, not the scheduled one.
    const user = await registerUser(server.baseUrl, uniqueUsername('reader'));
    const phone = await newPhoneContext(browser, server.baseUrl);
    contexts.push(phone);
    const home = await openLoggedIn(phone, user, '/index');
    const announcements = home.getByTestId('home-announcements');
    await announcements.waitFor();
    expect(await text(announcements.getByTestId(`home-announcement-${itemId}`), 'home-announcement-title')).toBe(TITLE);
    expect(await announcements.getByTestId(`home-announcement-${laterId}`).count()).toBe(0);

    // In German, the German title.
    await home.evaluate(() => localStorage.setItem('lang', 'de'));
    await home.reload();
    await expect.poll(() => text(home.getByTestId('home-announcements').getByTestId(`home-announcement-${itemId}`), 'home-announcement-title')).toBe(GERMAN_TITLE);
  });

  it('is not offered to staff without the content role, and the server refuses it to them', async () => {
    const support = await createStaff(server, 'contentsupport', ['support']);
    const page = await staffPage(support);
    expect(await page.locator('header nav a').allTextContents()).not.toContain('Content');
    await page.goto('/admin/content');
    await page.getByTestId('not-allowed').waitFor();
    await page.goto('/admin/content/1');
    await page.getByTestId('not-allowed').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('staffToken'));
    expect((await callApi(server, 'GET', '/home/admin/content/items', token)).code).toBe(403);
    expect((await callApi(server, 'POST', '/home/admin/content/items', token, { kind: 'announcement', english: { title: 'x', body: 'y' } })).code).toBe(403);
  });
});
