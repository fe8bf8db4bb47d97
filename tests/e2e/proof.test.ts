import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyProofCli } from '../../apps/server/src/scripts/verify-proof.ts';
import { takeLiabilitySnapshot } from '../../apps/server/src/use-cases/proof/liability-snapshots.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, putSessionOnDevice } from './helpers/browser.ts';
import { createStaff, type StaffCredentials, staffLogin } from './helpers/identity.ts';
import { freezeFunds, fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 22 in the browser (ADR 0040): "a user opens the proof page, verifies their inclusion, and
// sees their balances in it". A user holds 1,250.5 USDT (50 of it frozen by a hold: still theirs)
// and 0.25 BTC; another holds 3 ETH. An admin asks for a snapshot through the back-office button,
// which shows the waiting request; the server's job (one pass, `takeLiabilitySnapshot`, run here on
// the server's database instead of waiting for its 15 s interval) publishes it, and the back-office
// says so. A visitor without a session reads /proof — what it proves and does not, the snapshot with
// its time, accounts, totals and root hash — opens the snapshot, is asked to log in, logs in and comes
// back, verifies in the browser (Web Crypto) and reads "verified" with the published root, their own
// balances per asset and the time the check took; the proof file they download passes the
// command-line verifier. A user who registered after the snapshot is told so. The Arabic page reads
// right to left with the hashes left to right. Axe (serious and critical) on every one of these.

let server: E2eServer;
let browser: Browser;
let admin: StaffCredentials;
let holder: Awaited<ReturnType<typeof registerUser>>;
let snapshotId: string;
let rootHash: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
  admin = await createStaff(server, 'proofadmin', ['admin']);
  holder = await registerUser(server.baseUrl, uniqueUsername('proofh'));
  await fundUser(server.db, { userId: holder.userId, asset: 'USDT', amount: '1250.5' });
  await fundUser(server.db, { userId: holder.userId, asset: 'BTC', amount: '0.25' });
  await freezeFunds(server.db, { userId: holder.userId, asset: 'USDT', amount: '50' });
  const other = await registerUser(server.baseUrl, uniqueUsername('proofo'));
  await fundUser(server.db, { userId: other.userId, asset: 'ETH', amount: '3' });
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
const value = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).first().getAttribute('data-value');
const direction = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).direction);

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

async function phoneContext(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

/** One pass of the snapshot job, as every node runs it every 15 s (PROOF_SNAPSHOT_INTERVAL_MS). */
function runSnapshotJob() {
  return takeLiabilitySnapshot({ db: server.db, now: server.now, logger: server.app.log });
}

describe('proof of liabilities: a snapshot asked for in the back-office, published, and a user’s balance verified in the browser', () => {
  it('an admin asks for a snapshot now; the page shows it waiting, then published by the job', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    context.setDefaultTimeout(10_000);
    contexts.push(context);
    const page = await context.newPage();
    await staffLogin(page, admin);
    await page.getByRole('link', { name: 'Proof of liabilities', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/proof');
    await page.getByTestId('proof-empty').waitFor();
    expect(await seriousViolations(page), '/admin/proof (empty)').toEqual([]);

    await page.getByTestId('proof-ask').click();
    const waiting = page.getByTestId('proof-waiting');
    await waiting.waitFor();
    expect(await waiting.getAttribute('data-status')).toBe('pending');
    snapshotId = (await waiting.getAttribute('data-snapshot-id'))!;
    expect(plain(await waiting.textContent())).toMatch(new RegExp(`^Snapshot #${snapshotId} asked for at .+: waiting for the server’s job to take it\\.$`));
    // Asking again while it waits answers the waiting request.
    await page.getByTestId('proof-ask').click();
    await expect.poll(() => waiting.getAttribute('data-snapshot-id')).toBe(snapshotId);
    expect(await seriousViolations(page), '/admin/proof (waiting)').toEqual([]);

    expect(String(await runSnapshotJob())).toBe(snapshotId);
    await expect.poll(() => waiting.getAttribute('data-status'), { timeout: 10_000 }).toBe('published');
    expect(plain(await waiting.textContent())).toBe(`Snapshot #${snapshotId} is published.`);
    const row = page.getByTestId(`proof-snapshot-${snapshotId}`);
    await row.waitFor();
    rootHash = await text(row, 'proof-root');
    expect(rootHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await value(row, 'proof-total-USDT')).toBe('1250.500000');
    expect(await value(row, 'proof-total-BTC')).toBe('0.25000000');
    expect(await value(row, 'proof-total-ETH')).toBe('3.000000000000000000');
    expect(await seriousViolations(page), '/admin/proof (published)').toEqual([]);
  });

  it('a visitor reads /proof, opens the snapshot, logs in, verifies their inclusion and sees their balances; the file passes the command line', async () => {
    const [users] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/proof');
    await page.getByTestId('proof-intro').waitFor();
    expect(await text(page, 'proof-intro')).toContain('not what Keel holds');
    const card = page.getByTestId(`proof-snapshot-${snapshotId}`);
    await card.waitFor();
    expect(await value(card, 'proof-snapshot-leaves')).toBe(String(users!.n));
    expect(await value(card, 'proof-snapshot-total-USDT')).toBe('1250.500000');
    expect(await text(card, 'proof-snapshot-total-USDT')).toBe('1,250.50 USDT');
    expect(await text(card, 'proof-snapshot-total-BTC')).toBe('0.25 BTC');
    // The root hash drawn short on one line, the text the whole hash (to select or copy).
    const root = card.getByTestId('proof-snapshot-root');
    expect(await root.textContent()).toBe(rootHash);
    expect(await root.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await seriousViolations(page), '/proof (visitor)').toEqual([]);

    await card.getByTestId('proof-snapshot-open').click();
    await page.waitForURL((url) => url.pathname === `/proof/${snapshotId}`);
    await page.getByTestId('proof-published').waitFor();
    expect(await text(page, 'proof-published-root')).toBe(rootHash);
    expect(await value(page, 'proof-published-leaves')).toBe(String(users!.n));
    expect(await value(page, 'proof-published-total-ETH')).toBe('3.000000000000000000');
    const login = page.getByTestId('proof-login');
    expect(await login.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent(`/proof/${snapshotId}`)}`);
    expect(await seriousViolations(page), `/proof/${snapshotId} (visitor)`).toEqual([]);

    // Logged in through the form, the user is back on the snapshot.
    await login.click();
    await page.getByLabel('Username').fill(holder.username);
    await page.getByLabel('Password', { exact: true }).fill(holder.password);
    await page.getByTestId('agreement').check();
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === `/proof/${snapshotId}`);

    await page.getByTestId('proof-verify-button').click();
    const result = page.getByTestId('proof-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await text(result, 'proof-verified')).toBe(
      `Your balances are counted in snapshot ${snapshotId}: the path from your leaf leads to the published root ${rootHash}, and every sum on the way is non-negative and adds up to the published totals.`,
    );
    expect(await text(result, 'proof-verified-root')).toBe(rootHash);
    // Their balances in the snapshot are what they hold, the frozen 50 USDT included.
    expect(await value(result, 'proof-balance-USDT')).toBe('1250.500000');
    expect(await value(result, 'proof-balance-BTC')).toBe('0.25000000');
    expect(await value(result, 'proof-balance-ETH')).toBe('0.000000000000000000');
    expect(await text(result, 'proof-balance-USDT')).toBe('1,250.50 USDT');
    expect(await text(result, 'proof-balance-BTC')).toBe('0.25 BTC');
    const elapsedMs = Number(await value(result, 'proof-check-ms'));
    expect(elapsedMs).toBeGreaterThan(0);
    expect(await text(result, 'proof-check-ms')).toMatch(/^Checked in your browser in \d+\.\d ms$/);
    // Checked again on the same file: the time of a warm check (the bench's number is its own).
    await page.getByTestId('proof-verify-again').click();
    await expect.poll(() => page.getByTestId('proof-result').getAttribute('data-ok')).toBe('true');
    const againMs = Number(await value(page, 'proof-check-ms'));
    console.info(`proof check in the browser: ${elapsedMs.toFixed(1)} ms first, ${againMs.toFixed(1)} ms again`);
    expect(await seriousViolations(page), `/proof/${snapshotId} (verified)`).toEqual([]);

    // The file to keep, and the command that checks it outside the browser.
    expect(await text(page, 'proof-command')).toBe(`npm run verify:proof -- keel-proof-${snapshotId}.json`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('proof-download').click()]);
    expect(download.suggestedFilename()).toBe(`keel-proof-${snapshotId}.json`);
    const path = await download.path();
    const file = JSON.parse(await readFile(path, 'utf8')) as { published: { rootHash: string }; proof: { userId: string } };
    expect(file.published.rootHash).toBe(rootHash);
    expect(file.proof.userId).toBe(holder.userId);
    const lines: string[] = [];
    const exit = await verifyProofCli([path], { log: (line) => lines.push(line), error: (line) => lines.push(line) });
    expect(exit, lines.join('\n')).toBe(0);
    expect(lines).toContain(`verified against root ${rootHash} of snapshot ${snapshotId}`);
    expect(lines.join('\n')).toMatch(/USDT\s+1250\.500000/);
  });

  it('the "my" page and the agreement link to /proof; a user who registered after the snapshot is told so', async () => {
    const late = await registerUser(server.baseUrl, uniqueUsername('proofl'));
    const context = await phoneContext();
    const page = await openLoggedIn(context, late, '/my');
    await page.getByTestId('my-proof').click();
    await page.waitForURL((url) => url.pathname === '/proof');
    await page.getByTestId(`proof-snapshot-${snapshotId}`).waitFor();
    expect(await seriousViolations(page), '/proof (logged in)').toEqual([]);

    await page.goto(`/proof/${snapshotId}`);
    await page.getByTestId('proof-verify-button').click();
    const notice = page.getByTestId('proof-not-in-snapshot');
    await notice.waitFor();
    expect(plain(await notice.textContent())).toContain('You registered after this snapshot was taken, so your account is not in it.');
    expect(await page.getByTestId('proof-result').count()).toBe(0);
    expect(await seriousViolations(page), `/proof/${snapshotId} (not in the snapshot)`).toEqual([]);

    await page.goto('/agreement');
    await page.getByTestId('legal-link-proof').click();
    await page.waitForURL((url) => url.pathname === '/proof');
  });

  it('in Arabic the page reads right to left, the hashes and amounts left to right', async () => {
    const context = await phoneContext();
    const page = await context.newPage();
    await putSessionOnDevice(page, holder);
    await page.evaluate(() => localStorage.setItem('lang', 'ar'));
    await page.goto('/proof');
    await page.getByTestId(`proof-snapshot-${snapshotId}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await text(page, 'proof-page')).toContain('إثبات الالتزامات');
    expect(await direction(page.getByTestId('proof-intro'))).toBe('rtl');
    expect(await direction(page.getByTestId('proof-snapshot-root'))).toBe('ltr');
    expect(await seriousViolations(page), '/proof (ar)').toEqual([]);

    await page.goto(`/proof/${snapshotId}`);
    await page.getByTestId('proof-verify-button').click();
    const result = page.getByTestId('proof-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await direction(page.getByTestId('proof-published-root'))).toBe('ltr');
    expect(await direction(result.getByTestId('proof-verified-root'))).toBe('ltr');
    expect(await direction(result.getByTestId('proof-balance-USDT').locator('bdi'))).toBe('ltr');
    expect(await direction(page.getByTestId('proof-command'))).toBe('ltr');
    expect(await value(result, 'proof-balance-USDT')).toBe('1250.500000');
    expect(await seriousViolations(page), `/proof/${snapshotId} (ar, verified)`).toEqual([]);
  });
});
