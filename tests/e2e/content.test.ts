import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoContent } from '../../apps/server/src/seed/content-seed.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { type E2eServer, registerUser, SERVICE_URL, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 20, the reader's side of the content area: the help centre read and searched in Arabic
// (right to left), every content page open to a visitor without a session (the about page, a course
// and its lessons, industry news labelled as sample content, the announcements list of
// /news/OrderDeyail and an announcement), and home's banners and announcements and the market tab's
// news for a logged-in user. The demo content is what a first start seeds (seed/content/*.json).

let server: E2eServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
  await seedDemoContent(server.db, new Date());
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function phoneContext(): Promise<BrowserContext> {
  const context = await newPhoneContext(browser, server.baseUrl);
  contexts.push(context);
  return context;
}

/** Serious and critical axe violations on the page as it is now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`));
}

/** A public read of the API, as the app makes it. */
async function read<T>(path: string): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`);
  const body = (await response.json()) as { code: number; data: T };
  expect(body.code, path).toBe(200);
  return body.data;
}

interface Summary {
  id: string;
  kind: string;
  title: string;
  language: string;
  fallback: boolean;
  sample: boolean;
  marketSymbols: string[];
  linkPath: string | null;
}

const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const pathOf = (page: Page) => new URL(page.url()).pathname;
/** The page never scrolls sideways at a phone's width. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

describe('the help centre in Arabic', () => {
  it('reads right to left, shows the categories and an article, and finds an Arabic article by an Arabic search', async () => {
    const arabicWithdrawals = (await read<{ items: Summary[] }>('/home/content/items?kind=help&category=wallet&lang=ar')).items[0]!;
    expect(arabicWithdrawals.language, 'the Arabic demo text of the withdrawal rules is seeded').toBe('ar');
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/healthz');
    await page.evaluate(() => localStorage.setItem('lang', 'ar'));
    await page.goto('/helpcenter');
    await page.getByTestId('help-categories').getByRole('link').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    expect(await page.locator('h1').first().textContent()).toBe('مركز المساعدة');
    // The six categories in order, with their counts.
    const categories = page.getByTestId('help-categories').getByRole('link');
    expect(await categories.count()).toBe(6);
    expect(plain(await page.getByTestId('help-category-wallet').textContent())).toContain('الإيداع والسحب والتحويل');
    expect(plain(await page.getByTestId('help-category-wallet').getByTestId('help-category-count').textContent())).toBe('3 مقالات');
    expect(await seriousViolations(page), '/helpcenter (ar)').toEqual([]);

    // A category's articles, then one article, in Arabic.
    await page.getByTestId('help-category-wallet').click();
    await page.waitForURL((url) => url.searchParams.get('category') === 'wallet');
    const first = page.getByTestId('help-articles').getByTestId(`content-item-${arabicWithdrawals.id}`);
    await first.waitFor();
    expect(await first.getAttribute('href')).toBe(`/helpcenterdetail/${arabicWithdrawals.id}`);
    expect(await page.getByTestId('help-category-wallet').getAttribute('aria-current')).toBe('true');
    await first.click();
    await page.waitForURL((url) => url.pathname === `/helpcenterdetail/${arabicWithdrawals.id}`);
    const article = page.getByTestId('content-article');
    await article.waitFor();
    expect(await article.getAttribute('data-language')).toBe('ar');
    expect(plain(await page.getByTestId('content-title').textContent())).toBe(arabicWithdrawals.title);
    expect(await page.getByTestId('content-fallback').count()).toBe(0);
    expect(await page.getByTestId('content-body').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    // Links inside the body stay in the app.
    expect(await page.getByTestId('content-body').locator('a[href="/assets/withdraw"]').count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page), '/helpcenterdetail (ar)').toEqual([]);

    // Search in Arabic: a word of the article's title finds it; the results are Arabic articles.
    await page.getByRole('button', { name: 'رجوع' }).click();
    await page.waitForURL((url) => url.pathname === '/helpcenter');
    const word = arabicWithdrawals.title.split(/\s+/).find((each) => each.length >= 4) ?? arabicWithdrawals.title;
    await page.getByTestId('help-search-input').fill(word);
    await page.getByTestId('help-search-submit').click();
    await page.waitForURL((url) => url.searchParams.get('q') === word);
    const results = page.getByTestId('help-results-list');
    await results.waitFor();
    expect(await results.getByTestId(`content-item-${arabicWithdrawals.id}`).count()).toBe(1);
    const languages = await results.locator('[lang]').evaluateAll((elements) => elements.map((element) => element.getAttribute('lang')));
    expect(languages.length).toBeGreaterThan(0);
    expect(new Set(languages)).toEqual(new Set(['ar']));
    expect(await seriousViolations(page), '/helpcenter?q= (ar)').toEqual([]);
    // "Contact us" opens the customer service.
    await page.route(`${SERVICE_URL}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>service</title>' }));
    await page.getByTestId('help-contact').click();
    await page.waitForURL((url) => url.href.startsWith(SERVICE_URL));
  });
});

describe('a visitor without a session', () => {
  it('reads the help centre, about us, a course and its lessons, industry news and the announcements', async () => {
    const context = await phoneContext();
    const page = await context.newPage();

    // The help centre, in English, with a search in English.
    await page.goto('/helpcenter');
    await page.getByTestId('help-category-getting_started').waitFor();
    expect(pathOf(page)).toBe('/helpcenter');
    await page.getByTestId('help-search-input').fill('liquidation');
    await page.getByTestId('help-search-submit').click();
    const results = page.getByTestId('help-results-list');
    await results.waitFor();
    expect(plain(await results.textContent())).toContain('Leveraged and futures positions: margin and liquidation');
    await page.getByTestId('help-search-input').fill('zzqxnothing');
    await page.getByTestId('help-search-submit').click();
    await page.getByTestId('help-results-list-empty').waitFor();

    // About us.
    await page.goto('/aboutus');
    await page.getByTestId('content-article').waitFor();
    expect(plain(await page.getByTestId('content-title').textContent())).toBe('About Keel');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page), '/aboutus').toEqual([]);

    // A course, its lessons in order, a lesson with its neighbours and the way back.
    await page.goto('/course');
    const course = page.getByTestId('content-list').getByRole('link').first();
    await course.waitFor();
    expect(plain(await course.textContent())).toContain('First steps with Keel');
    await course.click();
    await page.getByTestId('course-lessons').waitFor();
    const courseUrl = pathOf(page);
    const lessons = page.getByTestId('course-lessons').getByRole('link');
    expect((await lessons.allTextContents()).map(plain)).toEqual(['1Create and secure your account', '2Make a deposit', '3Your first swap', '4Read your records']);
    expect(await seriousViolations(page), '/course/detail (course)').toEqual([]);
    await lessons.nth(1).click();
    await page.getByTestId('lesson-nav').waitFor();
    expect(plain(await page.getByTestId('content-title').textContent())).toBe('Make a deposit');
    expect(await page.getByTestId('lesson-course').getAttribute('href')).toBe(courseUrl);
    await page.getByTestId('lesson-next').click();
    await expect.poll(async () => plain(await page.getByTestId('content-title').textContent())).toBe('Your first swap');
    await page.getByTestId('lesson-previous').click();
    await expect.poll(async () => plain(await page.getByTestId('content-title').textContent())).toBe('Make a deposit');
    expect(await seriousViolations(page), '/course/detail (lesson)').toEqual([]);
    await page.getByTestId('lesson-course').click();
    await page.waitForURL((url) => url.pathname === courseUrl);
    await page.getByTestId('course-lessons').waitFor();

    // Industry news: each item labelled as sample content, in the list and on its page, with its markets.
    await page.goto('/industrynews');
    const news = page.getByTestId('content-list').getByRole('link');
    await news.first().waitFor();
    expect(await news.count()).toBe(2);
    for (const item of await news.all()) expect(plain(await item.getByTestId('content-sample').textContent())).toBe('Sample content');
    expect(await seriousViolations(page), '/industrynews').toEqual([]);
    await page.getByTestId('content-list').getByRole('link', { name: /stablecoin/ }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/industrynewdetail/'));
    await page.getByTestId('content-article').waitFor();
    expect(plain(await page.getByTestId('content-article').getByTestId('content-sample').textContent())).toBe('Sample content');
    expect(await page.getByTestId('content-market-ETH-USDT').getAttribute('href')).toBe('/trade_ETHUSDT');
    expect(await page.getByTestId('content-market-TRX-USDT').getAttribute('href')).toBe('/trade_TRXUSDT');
    expect(await seriousViolations(page), '/industrynewdetail').toEqual([]);

    // /news/OrderDeyail: the announcements, newest first, each opening /news/detail/{id}.
    const announcements = (await read<{ items: Summary[] }>('/home/content/items?kind=announcement&lang=en')).items;
    await page.goto('/news/OrderDeyail');
    expect(pathOf(page)).toBe('/news/OrderDeyail');
    const list = page.getByTestId('content-list').getByRole('link');
    await list.first().waitFor();
    expect(await Promise.all((await list.all()).map((link) => link.getAttribute('href')))).toEqual(announcements.map((item) => `/news/detail/${item.id}`));
    expect(await page.getByTestId('not-found-page').count()).toBe(0);
    expect(await seriousViolations(page), '/news/OrderDeyail').toEqual([]);
    await list.first().click();
    await page.waitForURL((url) => url.pathname === `/news/detail/${announcements[0]!.id}`);
    await page.getByTestId('content-article').waitFor();
    expect(plain(await page.getByTestId('content-title').textContent())).toBe(announcements[0]!.title);
    expect(plain(await page.getByTestId('content-date').textContent())).toMatch(/^Published \d{4}-\d{2}-\d{2}$/);
    expect(await seriousViolations(page), '/news/detail').toEqual([]);
    // An announcement's id under another kind's address goes to its own page; an unknown id says so.
    await page.goto(`/helpcenterdetail/${announcements[0]!.id}`);
    await page.waitForURL((url) => url.pathname === `/news/detail/${announcements[0]!.id}`);
    await page.goto('/news/detail/999999999');
    await page.getByTestId('content-not-found').waitFor();
    // Still no session on the device.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('reads English with the note when an article has no translation in the reader’s language', async () => {
    // The fees article without its Russian text (as after content staff removed it).
    await server.db.query(
      "DELETE FROM content_translations WHERE language = 'ru' AND item_id = (SELECT id FROM content_items WHERE slug = 'help-fees')",
    );
    const [row] = await server.db.query<{ id: string }>("SELECT id::text AS id FROM content_items WHERE slug = 'help-fees'");
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/healthz');
    await page.evaluate(() => localStorage.setItem('lang', 'ru'));
    await page.goto(`/helpcenterdetail/${row!.id}`);
    await page.getByTestId('content-fallback').waitFor();
    expect(plain(await page.getByTestId('content-fallback').textContent())).toBe('Эта статья пока недоступна на русском языке; показана английская версия.');
    expect(await page.getByTestId('content-article').getAttribute('data-language')).toBe('en');
    expect(plain(await page.getByTestId('content-title').textContent())).toBe('Every fee you can pay on Keel');
    // A wide table scrolls in its frame; the page does not.
    expect(await page.locator('.content-table-frame').count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page), '/helpcenterdetail (ru, English shown)').toEqual([]);
  });
});

describe('home and the market tab', () => {
  it('home shows the banners and the latest announcements; a news item of the market tab opens', async () => {
    const home = await read<{ banners: Summary[]; announcements: Summary[] }>('/home/content/home?lang=en');
    const user = await registerUser(server.baseUrl, uniqueUsername('content'));
    const context = await phoneContext();
    const page = await openLoggedIn(context, user, '/index');

    const banners = page.getByTestId('home-banners');
    await banners.waitFor();
    expect(await banners.getByRole('listitem').count()).toBe(home.banners.length);
    const helpBanner = home.banners.find((banner) => banner.linkPath === '/helpcenter')!;
    const bannerLink = page.getByTestId(`home-banner-${helpBanner.id}`);
    expect(plain(await bannerLink.getByTestId('home-banner-title').textContent())).toBe(helpBanner.title);
    expect(await bannerLink.getByTestId('home-banner-summary').count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);

    const announcements = page.getByTestId('home-announcements').getByRole('link');
    expect(await announcements.count()).toBe(home.announcements.length);
    expect((await page.getByTestId('home-announcements').getByTestId('home-announcement-title').allTextContents()).map(plain)).toEqual(
      home.announcements.map((item) => item.title),
    );
    expect(await page.getByTestId('home-all-news').getAttribute('href')).toBe('/news/OrderDeyail');
    expect(await seriousViolations(page), '/index').toEqual([]);

    await bannerLink.click();
    await page.waitForURL((url) => url.pathname === '/helpcenter');
    await page.goBack();
    await page.getByTestId(`home-announcement-${home.announcements[0]!.id}`).click();
    await page.waitForURL((url) => url.pathname === `/news/detail/${home.announcements[0]!.id}`);
    await page.getByTestId('content-article').waitFor();

    // The market tab: markets first, as before; the news beside them.
    await page.goto('/news');
    await page.getByTestId('market-view-markets').waitFor();
    expect(await page.getByTestId('market-view-markets').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('market-view-news').click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'news');
    const industry = page.getByTestId('news-industry_news-list').getByRole('link');
    await industry.first().waitFor();
    expect(await page.getByTestId('news-announcement-list').getByRole('link').count()).toBe(home.announcements.length);
    expect(plain(await industry.first().getByTestId('content-sample').textContent())).toBe('Sample content');
    expect(await seriousViolations(page), '/news?view=news').toEqual([]);
    const href = await industry.first().getAttribute('href');
    await industry.first().click();
    await page.waitForURL((url) => url.pathname === href);
    await page.getByTestId('content-article').waitFor();
    // Back returns to the news view of the tab.
    await page.goBack();
    await page.getByTestId('news-feed').waitFor();
  });
});
