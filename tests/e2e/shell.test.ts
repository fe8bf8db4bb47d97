import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, openLoggedIn, storage } from './helpers/browser.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Registration, the tab shell with its unread flag (spec sections 2 and 7), and the language switch.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

/** Counts the page's calls of GET /home/user/unread. */
function countUnreadCalls(page: Page) {
  const counter = { calls: 0 };
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/home/user/unread') counter.calls += 1;
  });
  return counter;
}

async function userIdOf(username: string): Promise<bigint> {
  const [row] = await server.db.query<{ id: bigint }>('SELECT id FROM users WHERE username = $1', [username]);
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

describe('registration and the tab shell', () => {
  it('registers, logs out, logs in, and flags unread messages on every tab change', async () => {
    const username = uniqueUsername('shell');
    const password = 'pass1234';
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();

    // Register through the form.
    await page.goto('/register');
    await page.getByTestId('register-tab-username').click();
    await page.getByRole('textbox', { name: 'Username' }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByTestId('agreement').check();
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${username}`);
    expect(await storage(page, 'userId')).toBe(String(await userIdOf(username)));

    // Log out from the personal centre, then log in again through the form.
    await page.getByTestId('tab-my').click();
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByTestId('agreement').check();
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
    await page.getByTestId('greeting').getByText(username).waitFor();

    // No unread message: no flag.
    const unread = countUnreadCalls(page);
    expect(await page.getByTestId('unread-flag').count()).toBe(0);

    // A new system message shows the flag after the next tab change.
    const userId = await userIdOf(username);
    await server.db.query("INSERT INTO messages (user_id, title, body) VALUES ($1, 'Welcome', 'Hello')", [userId]);
    await page.getByTestId('tab-trade').click();
    await page.getByTestId('unread-flag').waitFor();
    expect(unread.calls).toBe(1);

    // Reading it clears the flag at the next tab change.
    await server.db.query('UPDATE messages SET read_at = now() WHERE user_id = $1', [userId]);
    await page.getByTestId('tab-news').click();
    await page.getByTestId('unread-flag').waitFor({ state: 'detached' });
    expect(unread.calls).toBe(2);

    // Every tab change asks again. Each step waits for its own ask: a reconnect of the push
    // connection may add one more (cache-sync invalidates the flag then), so the count is a floor.
    for (const tab of ['tab-assets', 'tab-index']) {
      const before = unread.calls;
      await page.getByTestId(tab).click();
      await expect.poll(() => unread.calls).toBeGreaterThan(before);
    }
  });

  it('checks for unread messages when the shell loads', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('load'));
    await server.db.query("INSERT INTO messages (user_id, title, body) VALUES ($1, 'Notice', 'Body')", [BigInt(user.userId)]);
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/assets');
    await page.getByTestId('unread-flag').waitFor();
  });

  it('shows each tab with its title and marks the active tab', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('tabs'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/trade');
    for (const [tab, title] of [
      ['trade', 'Trade'],
      ['news', 'Market'],
      ['assets', 'Assets'],
      ['my', 'Mine'],
      ['index', null],
    ] as const) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.waitForURL((url) => url.pathname === `/${tab}`);
      // The URL changes before React marks the tab: wait for the mark rather than race it.
      await expect.poll(() => page.getByTestId(`tab-${tab}`).getAttribute('aria-current')).toBe('page');
      if (title) await expect.poll(() => page.locator('h1').first().textContent()).toBe(title);
    }
  });

  it('shows the trade tab for /trade_{id}', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('tradeid'));
    context = await newPhoneContext(browser, server.baseUrl);
    // {id} names a listed market (issue 7): the symbol without its slash.
    const page = await openLoggedIn(context, user, '/trade_ETHUSDT');
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Trade');
    expect(await page.getByTestId('tab-trade').getAttribute('aria-current')).toBe('page');
    expect(new URL(page.url()).pathname).toBe('/trade_ETHUSDT');
    // An id that names no market is not found, still in the trade tab.
    await page.goto('/trade_123');
    await page.getByTestId('not-found-page').waitFor();
    expect(await page.getByTestId('tab-trade').getAttribute('aria-current')).toBe('page');
  });

  it('sends a logged-out visitor of /trade_{id} to login', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/trade_7');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/trade_7');
  });

  it('checks the registration form before sending it and shows the server’s refusal', async () => {
    const taken = await registerUser(server.baseUrl, uniqueUsername('taken'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    let registerCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/home/auth/register') registerCalls += 1;
    });
    await page.goto('/register');
    await page.getByTestId('register-tab-username').click();
    await page.getByRole('textbox', { name: 'Username' }).fill('abc');
    await page.getByLabel('Password', { exact: true }).fill('secret12');
    await page.getByLabel('Confirm password').fill('secret13');
    await page.getByTestId('register-submit').click();
    await page.getByText('Use 6 to 32 letters or digits').waitFor();
    await page.getByText('Passwords inconsistent').waitFor();
    await page.getByText('Please read and accept the User Agreement and the Terms of Service').waitFor();
    expect(registerCalls).toBe(0);

    await page.getByRole('textbox', { name: 'Username' }).fill(taken.username);
    await page.getByLabel('Confirm password').fill('secret12');
    await page.getByTestId('agreement').check();
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Username already registered');
    expect(registerCalls).toBe(1);
    expect(await storage(page, 'token')).toBeNull();
  });
});

describe('language', () => {
  it('switching to Arabic on the login page flips the page right-to-left and survives a reload', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    await page.getByTestId('language-select').selectOption('ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('تسجيل الدخول');
    expect(await storage(page, 'lang')).toBe('ar');

    await page.reload();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('تسجيل الدخول');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');

    await page.getByTestId('language-select').selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');
  });

  it('switching language when logged in also stores it on the account', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('lang'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/my');
    await page.getByTestId('profile-username').getByText(user.username).waitFor();
    await page.getByTestId('language-select').selectOption('ja');
    await expect.poll(() => page.getByTestId('tab-my').textContent()).toBe('マイページ');
    await expect
      .poll(async () => (await server.db.query<{ language: string }>('SELECT language FROM users WHERE username = $1', [user.username]))[0]?.language)
      .toBe('ja');
  });
});

describe('particle background', () => {
  const snapshot = (page: Page) => page.getByTestId('particle-background').evaluate((canvas) => (canvas as HTMLCanvasElement).toDataURL());

  it('is a fixed, decorative canvas behind the content that keeps moving', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    const canvas = page.getByTestId('particle-background');
    await canvas.waitFor();
    const style = await canvas.evaluate((element) => {
      const computed = getComputedStyle(element);
      return { position: computed.position, pointerEvents: computed.pointerEvents, hidden: element.getAttribute('aria-hidden') };
    });
    expect(style).toEqual({ position: 'fixed', pointerEvents: 'none', hidden: 'true' });
    const first = await snapshot(page);
    await page.waitForTimeout(400);
    expect(await snapshot(page)).not.toBe(first);
  });

  it('draws one still frame under reduced motion', async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('particle-background').waitFor();
    const first = await snapshot(page);
    await page.waitForTimeout(400);
    expect(await snapshot(page)).toBe(first);
  });
});
