import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, pathOf, storage } from './helpers/browser.ts';
import { callApi, codeSentTo, lastOutboxId } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 4: register by e-mail with the code from the outbox, log out, bind a phone in the settings
// with its code, log in by phone; recover a password by code; the wait after repeated failures.

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

const loginAnswer = (page: Page) => page.waitForResponse((response) => new URL(response.url()).pathname === '/home/auth/login');

async function logInThroughForm(page: Page, account: string, password: string) {
  await page.getByLabel('Phone, e-mail or username').fill(account);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByTestId('agreement').check();
  await page.getByTestId('login-submit').click();
}

describe('registration, login and recovery by e-mail and phone', () => {
  it('registers by e-mail with the code from the outbox, binds a phone with its code, and logs in by phone', async () => {
    const email = `${uniqueUsername('ana')}@example.com`;
    const phone = `+4917055${String(Date.now()).slice(-5)}`;
    const password = 'pass1234';
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();

    await page.goto('/register');
    await page.getByTestId('register-tab-email').click();
    expect(await page.getByTestId('register-tab-email').getAttribute('aria-selected')).toBe('true');
    // The address is checked before a code is asked for.
    await page.getByLabel('E-mail address').fill('not-an-email');
    await page.getByTestId('send-code').click();
    await page.getByText('Incorrect email format').waitFor();

    await page.getByLabel('E-mail address').fill(email);
    const before = await lastOutboxId(server);
    await page.getByTestId('send-code').click();
    await page.getByTestId('code-notice').waitFor();
    // The button counts the server's 60 s down and cannot be used meanwhile.
    await expect.poll(() => page.getByTestId('send-code').textContent()).toMatch(/^Again in (60|59|58) s$/);
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true);
    const code = await codeSentTo(server, email, before);

    // A wrong code is refused by the server and shown on the field.
    await page.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByTestId('agreement').check();
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Wrong verification code');

    await page.getByLabel('Verification code').fill(code);
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
    // No nickname or username: the e-mail address is the display name.
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${email}`);

    // Bind a phone in the settings, with the code sent to it.
    await page.getByTestId('tab-my').click();
    await page.getByTestId('my-settings').click();
    await page.waitForURL((url) => url.pathname === '/person/setting');
    await expect.poll(() => page.getByTestId('setting-email-value').textContent()).toBe(email);
    await expect.poll(() => page.getByTestId('setting-phone-value').textContent()).toBe('Not linked');
    await page.getByTestId('setting-phone').click();
    await page.waitForURL((url) => url.pathname === '/safeSetting/phone');
    await page.getByLabel('New phone number').fill(`${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`);
    const beforePhone = await lastOutboxId(server);
    await page.getByTestId('send-code').click();
    await page.getByTestId('code-notice').waitFor();
    await page.getByLabel('Verification code').fill(await codeSentTo(server, phone, beforePhone));
    await page.getByTestId('bind-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/setting');
    await expect.poll(() => page.getByTestId('setting-phone-value').textContent()).toBe(phone);

    // Log out, then log in by phone.
    await page.goto('/my');
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await storage(page, 'token')).toBeNull();
    await logInThroughForm(page, phone, password);
    await page.waitForURL((url) => url.pathname === '/index');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${email}`);
  });

  it('registers by phone with the code, and refuses a registered address when sending a code', async () => {
    const phone = `+4915112${String(Date.now()).slice(-5)}`;
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/register');
    // Phone is the first tab and the default.
    expect(await page.getByTestId('register-tab-sms').getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Phone number').fill(phone);
    const before = await lastOutboxId(server);
    await page.getByTestId('send-code').click();
    await page.getByLabel('Verification code').fill(await codeSentTo(server, phone, before));
    await page.getByLabel('Password', { exact: true }).fill('pass1234');
    await page.getByLabel('Confirm password').fill('pass1234');
    await page.getByTestId('agreement').check();
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${phone}`);
    const [row] = await server.db.query<{ phone: string; username: string | null }>('SELECT phone, username FROM users WHERE phone = $1', [phone]);
    expect(row).toEqual({ phone, username: null });

    // Another visitor cannot get a registration code for the same number.
    const other = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 390, height: 844 } });
    try {
      const second = await other.newPage();
      await second.goto('/register');
      await second.getByLabel('Phone number').fill(phone);
      await second.getByTestId('send-code').click();
      await expect.poll(() => second.getByTestId('form-error').textContent()).toBe('Phone or e-mail already registered');
    } finally {
      await other.close();
    }
  });

  it('recovers a forgotten password with a code sent by e-mail; every old session ends', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('lost'));
    const email = `${user.username}@example.com`;
    // The address was bound earlier (set directly, so no code to it was sent within the last minute).
    await server.db.query('UPDATE users SET email = $1 WHERE id = $2', [email, BigInt(user.userId)]);
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forget');
    await page.getByTestId('forget-tab-email').click();
    await page.getByLabel('E-mail address').fill(email.toUpperCase());
    const before = await lastOutboxId(server);
    await page.getByTestId('send-code').click();
    await page.getByTestId('code-notice').waitFor();
    const code = await codeSentTo(server, email, before);
    await page.getByLabel('Verification code').fill(code);
    await page.getByLabel('New password', { exact: true }).fill('brandnew1');
    await page.getByLabel('Confirm new password').fill('brandnew2');
    await page.getByTestId('reset-submit').click();
    await page.getByText('Passwords inconsistent').waitFor();
    await page.getByLabel('Confirm new password').fill('brandnew1');
    await page.getByTestId('reset-submit').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => page.getByTestId('reset-notice').textContent()).toBe('Your password has been reset. Log in with the new password.');

    // The session from registration has ended; the old password no longer works, the new one does.
    expect((await callApi(server, 'GET', '/home/user/unread', user.token)).code).toBe(401);
    await logInThroughForm(page, email, user.password);
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Account or password incorrect');
    await page.getByLabel('Password', { exact: true }).fill('brandnew1');
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
  });

  it('shows the wait the server asks for after repeated failed logins, and closes the form until then', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('slow'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/loginaccount');
    await page.getByLabel('Phone, e-mail or username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill('wrongpass');
    await page.getByTestId('agreement').check();
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = loginAnswer(page);
      await page.getByTestId('login-submit').click();
      expect((await (await answer).json()).msg).toBe('account or password incorrect');
    }
    const slowed = loginAnswer(page);
    await page.getByTestId('login-submit').click();
    expect(await (await slowed).json()).toMatchObject({ code: 429, data: { retryAfterSeconds: 1 } });
    await expect.poll(() => page.getByTestId('wait-notice').textContent()).toContain('Please try again in 1 s.');
    expect(await page.getByTestId('login-submit').isDisabled()).toBe(true);
    // Once the wait is over the form opens again, and the right password gets in.
    await page.getByTestId('wait-notice').waitFor({ state: 'detached', timeout: 5_000 });
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
    expect(pathOf(page)).toBe('/index');
  });
});
