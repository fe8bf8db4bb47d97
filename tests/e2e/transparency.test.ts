import AxeBuilder from '@axe-core/playwright';
import { transferPostings } from '@keel/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlatformAccount, postEntry } from '../../apps/server/src/persistence/ledger.store.ts';
import { takeLiabilitySnapshot } from '../../apps/server/src/use-cases/proof/liability-snapshots.ts';
import { addProduct, fundTreasury, specProduct } from '../../apps/server/test/integration/earn/earn-helpers.ts';
import { addLoanProduct, fundLender } from '../../apps/server/test/integration/loans/loans-helpers.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { createStaff } from './helpers/identity.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 22, the public transparency page: a visitor without a session opens /transparency and reads
// the latest proof-of-liabilities snapshot (with the way to /proof), the platform's own accounts —
// the contracts house, which won 12.5 USDT today (an entry posted here on the server's database),
// shows it as today's result and in its table of UTC days — and the published rules, whose values
// are the ones `GET /home/transparency` answers (fetched here): the swap fee, a withdrawal fee, a
// contract's payout, a futures bracket's maintenance rate, an earn product's rate with its penalty
// formula, a loan product's rate. Axe (serious and critical) in English and
// in Arabic, where the page reads right to left with its numbers left to right. The "my" page and
// the user agreement link to it.

let server: E2eServer;
let browser: Browser;
let holder: Awaited<ReturnType<typeof registerUser>>;
let snapshotId: string;
let earnProductId: string;
let loanProductId: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
  holder = await registerUser(server.baseUrl, uniqueUsername('transp'));
  await fundUser(server.db, { userId: holder.userId, asset: 'USDT', amount: '300' });
  // The contracts house gains 12.5 USDT today: its balance and its result for today's UTC day.
  await server.db.transaction(async (tx) => {
    const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
    const house = await ensurePlatformAccount(tx, 'options_house', 'USDT', { allowNegative: true });
    await postEntry(tx, { reason: 'demo.fund', memo: 'Browser test: the contracts house’s day.', postings: transferPostings(treasury, house, 'USDT', 12_500_000n), at: server.now() });
  });
  // An earn product (the spec's lock-up: 0.3 % a day, 0.4 % per remaining day) with its funded
  // treasury, and a loan product with its funded lending treasury.
  earnProductId = await addProduct(server.db, specProduct());
  await fundTreasury(server.db, '100000');
  loanProductId = await addLoanProduct(server.db);
  await fundLender(server.db, '50000');
  // A published snapshot: an admin's request, taken by one pass of the server's job.
  await createStaff(server, 'transpadmin', ['admin']);
  await server.db.query(
    `INSERT INTO liability_snapshots (kind, requested_by, requested_at) SELECT 'requested', id, $2 FROM staff WHERE username = $1`,
    ['transpadmin', server.now()],
  );
  snapshotId = String(await takeLiabilitySnapshot({ db: server.db, now: server.now, logger: server.app.log }));
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

/** A decimal as the English page writes it: grouped, at least two decimals, trailing zeros beyond them dropped. */
function shown(decimal: string): string {
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const digits = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${decimal.startsWith('-') ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${digits}`;
}

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

interface TransparencyAnswer {
  generatedAtMs: number;
  houses: { kind: string; label: string; asset: string; accountId: string; balance: string; days: { day: string; change: string }[] }[];
  rules: {
    swap: { spreadPercent: string; feePercent: string; quoteValidSeconds: number };
    p2p: { releaseFeePercent: string };
    wallet: { channels: { id: string; asset: string; withdrawFee: string; withdrawMin: string }[]; rules: { dailyCountLimit: number; tierDailyLimitsUsdt: { tier1: string } } };
    options: { products: { cycleSeconds: number; yieldPercent: string; minStake: string; maxStake: string; enabled: boolean }[] };
    leverage: { products: { product: string; maxLeverage: number; brackets: { upTo: string; maintenanceRatePercent: string }[] }[] };
    earn: { products: { id: string; dailyRatePercent: string; penaltyRatePercent: string; cycleDays: number }[] };
    loans: { products: { id: string; dailyRatePercent: string }[]; policy: { twoPersonAboveUsdt: string } };
  };
}

/** What the public API answers, as a visitor's browser would ask it. */
async function transparencyAnswer(): Promise<TransparencyAnswer> {
  const response = await fetch(`${server.baseUrl}/home/transparency`);
  const body = (await response.json()) as { code: number; data: TransparencyAnswer };
  expect(body.code).toBe(200);
  return body.data;
}

describe('the public transparency page', () => {
  it('a visitor without a session reads the snapshot, the house accounts with today’s result and the rules with the values the server answers', async () => {
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/transparency');
    const houses = page.getByTestId('transparency-houses');
    await houses.waitFor();
    expect(new URL(page.url()).pathname).toBe('/transparency');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Transparency');
    expect(await text(page, 'transparency-intro')).toContain('Every number on this page is read from the same settings the server applies');
    const answer = await transparencyAnswer();

    // (a) The latest snapshot in short, and the way to the list and the check.
    const latest = page.getByTestId('transparency-proof-latest');
    await latest.waitFor();
    expect(await latest.getAttribute('data-snapshot-id')).toBe(snapshotId);
    const snapshots = (await (await fetch(`${server.baseUrl}/home/proof/snapshots?page=1&pageSize=20`)).json()) as {
      data: { items: { id: string; totals: { asset: string; amount: string }[]; published: { leafCount: number; rootHash: string } }[] };
    };
    const snapshot = snapshots.data.items.find((each) => each.id === snapshotId)!;
    expect(await value(latest, 'transparency-proof-leaves')).toBe(String(snapshot.published.leafCount));
    expect(await value(latest, 'transparency-proof-root')).toBe(snapshot.published.rootHash);
    expect(await text(latest, 'transparency-proof-root')).toBe(snapshot.published.rootHash);
    const usdtTotal = snapshot.totals.find((each) => each.asset === 'USDT')!.amount;
    expect(await value(latest, 'transparency-proof-total-USDT')).toBe(usdtTotal);
    expect(await text(latest, 'transparency-proof-total-USDT')).toBe(`${shown(usdtTotal)} USDT`);

    // (b) The contracts house: what it is, its ledger balance, +12.50 USDT today, in the table of days.
    const today = new Date(answer.generatedAtMs).toISOString().slice(0, 10);
    const optionsHouse = answer.houses.find((house) => house.kind === 'options_house' && house.asset === 'USDT')!;
    expect(optionsHouse.days.find((day) => day.day === today)?.change).toBe('12.500000');
    const card = houses.getByTestId('transparency-house-options_house-USDT');
    expect(plain(await card.textContent())).toContain('it pays winning contracts and receives losing stakes');
    expect(await value(card, 'transparency-house-account')).toBe(optionsHouse.accountId);
    expect(await value(card, 'transparency-house-balance')).toBe(optionsHouse.balance);
    expect(await text(card, 'transparency-house-balance')).toBe(`${shown(optionsHouse.balance)} USDT`);
    expect(await value(card, 'transparency-house-today')).toBe('12.500000');
    expect(await text(card, 'transparency-house-today')).toBe('+12.50 USDT');
    const row = card.getByTestId(`transparency-house-day-${today}`);
    expect(await row.getAttribute('data-change')).toBe('12.500000');
    expect(plain(await row.locator('th').textContent())).toBe(today);
    expect(plain(await row.locator('td').textContent())).toBe('+12.50');
    // Every house the API lists is on the page, and no other.
    expect(await houses.locator('[data-testid^="transparency-house-"][data-kind]').count()).toBe(answer.houses.length);

    // (d) The rules, with the values the API answers.
    const { rules } = answer;
    expect(await value(page, 'transparency-swap-fee')).toBe(rules.swap.feePercent);
    expect(await text(page, 'transparency-swap-fee')).toBe(`${shown(rules.swap.feePercent)} %`);
    expect(await value(page, 'transparency-swap-spread')).toBe(rules.swap.spreadPercent);
    expect(await value(page, 'transparency-swap-quote')).toBe(String(rules.swap.quoteValidSeconds));
    expect(await value(page, 'transparency-p2p-fee')).toBe(rules.p2p.releaseFeePercent);

    const channel = rules.wallet.channels.find((each) => each.asset === 'USDT') ?? rules.wallet.channels[0]!;
    const channelCard = page.getByTestId(`transparency-channel-${channel.id}`);
    expect(await value(channelCard, 'transparency-channel-fee')).toBe(channel.withdrawFee);
    expect(await text(channelCard, 'transparency-channel-fee')).toBe(`${shown(channel.withdrawFee)} ${channel.asset}`);
    expect(await value(channelCard, 'transparency-channel-min')).toBe(channel.withdrawMin);
    expect(await text(page, 'rules-count')).toBe(`At most ${rules.wallet.rules.dailyCountLimit} per UTC day`);
    expect(plain(await page.getByTestId('rules-tiers').textContent())).toContain(`${shown(rules.wallet.rules.tierDailyLimitsUsdt.tier1)} USDT`);

    const product = rules.options.products.find((each) => each.enabled)!;
    const productRow = page.getByTestId(`transparency-options-product-${product.cycleSeconds}`);
    expect(await productRow.getAttribute('data-yield')).toBe(product.yieldPercent);
    expect(await text(productRow, 'transparency-options-yield')).toBe(`${shown(product.yieldPercent)} %`);
    expect(await productRow.getAttribute('data-min')).toBe(product.minStake);
    expect(await text(page, 'options-rule')).toContain('If no price is recorded within');

    const futures = rules.leverage.products.find((each) => each.product === 'futures')!;
    const bracket = page.getByTestId('transparency-brackets-futures-0');
    expect(await bracket.getAttribute('data-rate')).toBe(futures.brackets[0]!.maintenanceRatePercent);
    expect(plain(await bracket.textContent())).toContain(`${shown(futures.brackets[0]!.maintenanceRatePercent)} %`);
    expect(await value(page.getByTestId('transparency-leverage-futures'), 'transparency-leverage-max')).toBe(String(futures.maxLeverage));

    const earnProduct = rules.earn.products.find((each) => each.id === earnProductId)!;
    const earnCard = page.getByTestId(`transparency-earn-${earnProductId}`);
    expect(await value(earnCard, `transparency-earn-${earnProductId}-rate`)).toBe(earnProduct.dailyRatePercent);
    expect(await text(earnCard, `transparency-earn-${earnProductId}-rate`)).toBe('0.3 %');
    expect(await text(earnCard, `transparency-earn-${earnProductId}-early`)).toBe('Allowed, penalty 0.4 % of the principal per remaining day');
    expect(await text(earnCard, 'earn-penalty-example')).toBe('For example: 0.4 % × 3 days × 1,000.00 USDT = 12.00 USDT');
    const loanProduct = rules.loans.products.find((each) => each.id === loanProductId)!;
    expect(await value(page, `transparency-loan-${loanProductId}-rate`)).toBe(loanProduct.dailyRatePercent);
    expect(await text(page, 'transparency-loans-policy')).toContain(`Applications above ${shown(rules.loans.policy.twoPersonAboveUsdt)} USDT are approved by two compliance officers.`);
    // The treasuries' funding shows as today's money in.
    expect(await value(houses.getByTestId('transparency-house-earn_treasury-USDT'), 'transparency-house-today')).toBe('100000.000000');
    expect(await value(houses.getByTestId('transparency-house-lending_treasury-USDT'), 'transparency-house-today')).toBe('50000.000000');

    // Nothing pushes the phone's page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    expect(await seriousViolations(page), '/transparency').toEqual([]);

    await page.getByTestId('transparency-proof-link').click();
    await page.waitForURL((url) => url.pathname === '/proof');
  });

  it('in Arabic the page reads right to left, its numbers, days and hashes left to right', async () => {
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/healthz');
    await page.evaluate(() => localStorage.setItem('lang', 'ar'));
    await page.goto('/transparency');
    const card = page.getByTestId('transparency-house-options_house-USDT');
    await card.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('الشفافية');
    expect(await direction(page.getByTestId('transparency-intro'))).toBe('rtl');
    expect(await direction(card.getByTestId('transparency-house-today').locator('bdi'))).toBe('ltr');
    expect(await direction(card.locator('[data-testid^="transparency-house-day-"] bdi').first())).toBe('ltr');
    expect(await direction(page.getByTestId('transparency-proof-root').locator('bdi'))).toBe('ltr');
    expect(await text(card, 'transparency-house-today')).toBe('+12.50 USDT');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await seriousViolations(page), '/transparency (ar)').toEqual([]);
  });

  it('the “my” page and the user agreement link to it', async () => {
    const context = await phoneContext();
    const page = await openLoggedIn(context, holder, '/my');
    await page.getByTestId('my-transparency').click();
    await page.waitForURL((url) => url.pathname === '/transparency');
    await page.getByTestId('transparency-houses').waitFor();

    await page.goto('/agreement');
    await page.getByTestId('legal-link-transparency').click();
    await page.waitForURL((url) => url.pathname === '/transparency');
    await page.getByTestId('transparency-rules').waitFor();
  });
});
