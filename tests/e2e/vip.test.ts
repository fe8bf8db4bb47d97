import { DEFAULT_VIP_LEVELS } from '@keel/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noMarketPrices } from '../../apps/server/src/market/market-prices.ts';
import { computeVipLevels } from '../../apps/server/src/use-cases/vip/vip-levels.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { callApi, createStaff, staffLogin } from './helpers/identity.ts';
import { fundUser } from './helpers/ledger.ts';
import { recordKnownTicks } from './helpers/market.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// VIP levels in the browser (issue 20, ADR 0046): the page at /my/vip (the published table, my
// level, my progress), the level given by the daily job's rule, the discounted swap fee on the fee
// line and in the records, and an application approved in the back-office within the rule.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: 'recorded' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(async () => {
  await context?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();
/** The daily level job's batch, run now (as the server's job would at its next look). */
const runLevelJob = () => computeVipLevels({ db: server.db, now: server.now, market: noMarketPrices, config: { VIP_LEVELS: DEFAULT_VIP_LEVELS } });

async function verifyAdvanced(userId: string) {
  for (const level of ['identity', 'advanced']) {
    const [upload] = await server.db.query<{ id: bigint }>(
      `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
       VALUES ($1, 'verification', $2, 'png', 1, 1, 1, now()) RETURNING id`,
      [userId, `e2e/${uniqueUsername('vip')}`],
    );
    await server.db.query(
      `INSERT INTO verification_submissions (user_id, level, status, fields, front_upload_id, back_upload_id, holding_upload_id, submitted_at, reviewed_at)
       VALUES ($1, $2, 'verified', '{}', $3, $3, $3, now(), now())`,
      [userId, level, upload!.id],
    );
  }
}

describe('VIP levels', () => {
  it('shows the table and my progress, gives the level by the rule, and discounts the swap fee where the user sees it', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('vip'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/my');
    await page.getByTestId('my-vip').click();
    await page.waitForURL((url) => url.pathname === '/my/vip');
    expect(await text(page, 'vip-my-level')).toBe('VIP 0');
    expect(await page.getByTestId('vip-table').locator('tbody tr').count()).toBe(5);
    expect(await text(page, 'vip-row-2')).toContain('20 %');
    expect(await text(page, 'vip-progress')).toContain('Progress to VIP 1');
    await page.getByTestId('vip-history-empty').waitFor();
    // Applying needs advanced verification (spec).
    await page.getByTestId('vip-needs-advanced').waitFor();

    // 60,000 USDT: level 2 by the balance rule at the job's next run.
    await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: '60000' });
    await runLevelJob();
    await page.reload();
    await expect.poll(() => text(page, 'vip-my-level')).toBe('VIP 2');
    expect(await text(page, 'vip-my-discount')).toBe('20 %');
    expect(await text(page, 'vip-balance')).toContain('60000.000000');
    // The day's computation shows in the history, with what the rule read.
    const today = new Date(server.now().getTime()).toISOString().slice(0, 10);
    expect(await text(page, `vip-history-${today}`)).toContain('VIP 2');
    expect(await text(page, `vip-history-${today}`)).toContain('60000.000000');

    // The swap: 100 USDT → BTC at 64,000 with the 0.20 % spread; gross 0.00155937 BTC; fee 0.1 %
    // = 155.937 sat → 156 before the discount; 20 % off = 31.2 → 31 sat; 125 sat charged.
    await recordKnownTicks(server, [{ symbol: 'BTC/USDT', price: '64000', source: 'test-feed' }]);
    await page.goto('/assets/flashExchange');
    await page.getByTestId('swap-to').selectOption('BTC');
    await page.getByTestId('swap-amount').fill('100');
    await page.getByTestId('swap-get-quote').click();
    await page.getByTestId('swap-quote').waitFor();
    expect(await text(page, 'swap-fee')).toBe('0.00000125 BTC');
    expect(await text(page, 'swap-fee-before')).toBe('0.00000156 BTC');
    expect(await text(page, 'swap-vip-discount')).toBe('0.00000031 BTC');
    expect(await text(page, 'swap-vip')).toContain('VIP 2');
    expect(await text(page, 'swap-estimate')).toBe('0.00155812 BTC');
    await page.getByTestId('swap-confirm').click();
    await page.getByTestId('swap-result').waitFor();
    expect(await text(page, 'swap-result-received')).toBe('0.00155812 BTC');

    // The records show the discount of the entry.
    await page.goto('/assets/records');
    const swap = page.getByTestId('record').first();
    await expect.poll(() => swap.getAttribute('data-reason')).toBe('swap');
    expect(await swap.getByTestId('record-vip').textContent()).toBe('VIP 2: fee 0.00000156 BTC less 20 % (0.00000031 BTC) = 0.00000125 BTC');
  });

  it('an application, after advanced verification, approved by compliance within the rule', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('vipapp'));
    await verifyAdvanced(user.userId);
    // 120,000 USDT: level 2 by the rule; level 3 is granted on application from 100,000.
    await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: '120000' });
    await runLevelJob();
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/my/vip');
    await expect.poll(() => text(page, 'vip-my-level')).toBe('VIP 2');
    await page.getByTestId('vip-apply-level').selectOption('3');
    await page.getByTestId('vip-apply').click();
    await expect.poll(() => text(page, 'vip-applications')).toContain('VIP 3 · in review');

    const compliance = await createStaff(server, uniqueUsername('vipcomp'), ['compliance']);
    const staffPage = await context.newPage();
    await staffLogin(staffPage, compliance);
    await staffPage.goto('/admin/vip');
    const [application] = await server.db.query<{ id: bigint }>('SELECT id FROM vip_applications WHERE user_id = $1', [user.userId]);
    await staffPage.getByTestId(`vip-approve-${application!.id}`).click();
    await staffPage.getByTestId('vip-applications-empty').waitFor();

    await page.reload();
    await expect.poll(() => text(page, 'vip-my-level')).toBe('VIP 3');
    expect(await text(page, 'vip-applications')).toContain('VIP 3 · approved');
    const [audit] = await server.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action LIKE 'vip.%' AND target_id = $1`, [user.userId]);
    expect(audit?.action).toBe('vip.application.approve');
    // The published table is public.
    expect((await callApi<{ levels: unknown[] }>(server, 'GET', '/home/vip/levels', null)).data.levels).toHaveLength(5);
  });
});
