import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../apps/web/src/shared/format/time.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { callApi, loginViaApi, totpCode } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 4 settings: nickname once, payment password, login password change (other sessions end,
// withdrawals locked 24 h), sessions, contact methods, anti-phishing code, two-step login.

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

describe('security settings', () => {
  it('sets the nickname once; a second attempt (from another tab) is refused', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('nick'));
    context = await newPhoneContext(browser, server.baseUrl);
    const first = await openLoggedIn(context, user, '/person/setting');
    await expect.poll(() => first.getByTestId('setting-nickname-value').textContent()).toBe('Not set');
    await first.getByTestId('setting-nickname').click();
    await first.waitForURL((url) => url.pathname === '/safeSetting/nickname');
    const second = await context.newPage();
    await second.goto('/safeSetting/nickname');
    await second.getByLabel('Nickname').waitFor();

    await first.getByLabel('Nickname').fill('Ana');
    await first.getByTestId('nickname-submit').click();
    await first.waitForURL((url) => url.pathname === '/person/setting');
    await expect.poll(() => first.getByTestId('setting-nickname-value').textContent()).toBe('Ana');

    await second.getByLabel('Nickname').fill('Other');
    await second.getByTestId('nickname-submit').click();
    await expect.poll(() => second.getByTestId('form-error').textContent()).toBe('The nickname can be set only once.');
    await second.reload();
    await expect.poll(() => second.getByTestId('nickname-value').textContent()).toBe('Ana');
    expect(await second.getByTestId('nickname-submit').count()).toBe(0);
    const [row] = await server.db.query<{ nickname: string }>('SELECT nickname FROM users WHERE id = $1', [BigInt(user.userId)]);
    expect(row!.nickname).toBe('Ana');

    // The personal centre names the user by the nickname now.
    await second.goto('/my');
    await expect.poll(() => second.getByTestId('profile-username').textContent()).toBe('Ana');
  });

  it('sets the payment password with the login password, then changes it with the old one', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('pay'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/person/setting');
    await expect.poll(() => page.getByTestId('setting-payment-password-value').textContent()).toBe('Not set');
    await page.getByTestId('setting-payment-password').click();
    await page.getByTestId('paypassword-set').waitFor();

    // Six digits only, the two must match, and the login password must be right.
    await page.getByLabel('Login password').fill('wrongpass');
    await page.getByLabel('New payment password').fill('12345');
    await page.getByLabel('Confirm payment password').fill('12345');
    await page.getByTestId('paypassword-submit').click();
    await page.getByText('Use exactly 6 digits').waitFor();
    await page.getByLabel('New payment password').fill('135790');
    await page.getByLabel('Confirm payment password').fill('135790');
    await page.getByTestId('paypassword-submit').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Wrong login password');
    await page.getByLabel('Login password').fill(user.password);
    await page.getByTestId('paypassword-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/setting');
    await expect.poll(() => page.getByTestId('setting-payment-password-value').textContent()).toBe('Set');

    // Changing it asks for the old payment password.
    await page.getByTestId('setting-payment-password').click();
    await page.getByTestId('paypassword-change').waitFor();
    await page.getByLabel('Current payment password').fill('000000');
    await page.getByLabel('New payment password').fill('246801');
    await page.getByLabel('Confirm payment password').fill('246801');
    await page.getByTestId('paypassword-submit').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Wrong payment password');
    await page.getByLabel('Current payment password').fill('135790');
    await page.getByTestId('paypassword-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/setting');
    // The new one is now the payment password: it (and not the first) changes it again.
    const change = (old: string) =>
      callApi(server, 'PUT', '/home/user/payment-password', user.token, { oldPaymentPassword: old, paymentPassword: '999111', confirmPaymentPassword: '999111' });
    expect((await change('135790')).msg).toBe('wrong payment password');
    expect((await change('246801')).code).toBe(200);
  });

  it('shows the payment-password lock rule, the tries left, and "locked until" after five wrong ones (issue 13)', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('lock'));
    const change = (old: string) =>
      callApi(server, 'PUT', '/home/user/payment-password', user.token, { oldPaymentPassword: old, paymentPassword: '999111', confirmPaymentPassword: '999111' });
    await callApi(server, 'PUT', '/home/user/payment-password', user.token, { loginPassword: user.password, paymentPassword: '135790', confirmPaymentPassword: '135790' });
    for (let wrong = 0; wrong < 3; wrong += 1) expect((await change('000000')).msg).toBe('wrong payment password');
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/person/setting/paypassword');
    await page.getByTestId('paypassword-change').waitFor();
    await expect
      .poll(() => page.getByTestId('paypassword-lock').textContent())
      .toContain('5 wrong payment passwords within 24 hours lock it for 24 hours. A right one resets the count.');
    expect(await page.getByTestId('paypassword-failures-left').textContent()).toBe('Wrong tries left before it locks: 2.');

    for (let wrong = 0; wrong < 2; wrong += 1) {
      await page.getByLabel('Current payment password').fill('000000');
      await page.getByLabel('New payment password').fill('246801');
      await page.getByLabel('Confirm payment password').fill('246801');
      await page.getByTestId('paypassword-submit').click();
      await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Wrong payment password');
    }
    const security = await callApi<{ paymentPasswordLock: { lockedUntil: string } }>(server, 'GET', '/home/user/security', user.token);
    const until = formatDateTime(security.data.paymentPasswordLock.lockedUntil);
    await expect.poll(() => page.getByTestId('paypassword-locked-until').textContent()).toBe(`The payment password is locked until ${until}.`);
    // The right one is refused too, naming the end of the lock.
    await page.getByLabel('Current payment password').fill('135790');
    await page.getByTestId('paypassword-submit').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe(`The payment password is locked until ${until}.`);
    expect((await change('135790')).msg).toBe('payment password locked');
  });

  it('changes the login password: other sessions end, and the 24 h withdrawal lock is shown with its end', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('chpw'));
    const otherDevice = await loginViaApi(server, user.username, user.password);
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/person/setting/changepassword');
    await page.getByLabel('Current password').fill('notmine1');
    await page.getByLabel('New password', { exact: true }).fill('newpass12');
    await page.getByLabel('Confirm new password').fill('newpass13');
    await page.getByTestId('change-password-submit').click();
    await page.getByText('Passwords inconsistent').waitFor();
    await page.getByLabel('Confirm new password').fill('newpass12');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Wrong original password');
    await page.getByLabel('Current password').fill(user.password);
    await page.getByTestId('change-password-submit').click();
    await page.getByTestId('password-changed').waitFor();

    const [row] = await server.db.query<{ changed: Date }>('SELECT login_password_changed_at AS changed FROM users WHERE id = $1', [BigInt(user.userId)]);
    const until = new Date(row!.changed.getTime() + 24 * 3_600_000).toISOString();
    // The browser formats in its own time zone, as the test process does (same machine).
    expect(await page.getByTestId('withdrawal-lock-until').textContent()).toBe(`Withdrawals are locked for 24 hours, until ${formatDateTime(until)}.`);
    expect(await page.getByTestId('password-changed').textContent()).toContain('Every other device has been logged out.');
    expect((await callApi(server, 'GET', '/home/user/unread', otherDevice)).code).toBe(401);
    // This device stays logged in, and the settings show the lock.
    await page.goto('/person/setting');
    await expect.poll(() => page.getByTestId('withdrawal-lock').textContent()).toContain(formatDateTime(until));
    await loginViaApi(server, user.username, 'newpass12');
  });

  it('lists the active sessions and logs out another device', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('sess'));
    const otherDevice = await loginViaApi(server, user.username, user.password);
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/safeSetting/sessions');
    await expect.poll(() => page.getByTestId('session-other').count()).toBe(1);
    expect(await page.getByTestId('session-current').count()).toBe(1);
    await page.getByTestId('session-end').click();
    await expect.poll(() => page.getByTestId('session-other').count()).toBe(0);
    expect((await callApi(server, 'GET', '/home/user/unread', otherDevice)).code).toBe(401);
    expect((await callApi(server, 'GET', '/home/user/unread', user.token)).code).toBe(200);
  });

  it('saves contact methods and an anti-phishing code', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('cont'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/safeSetting/contact');
    await page.getByTestId('contact-empty').waitFor();
    await page.getByTestId('contact-add').click();
    await page.getByLabel('Contact 1', { exact: true }).fill('x');
    await page.getByTestId('contact-submit').click();
    await page.getByText('Use 2 to 64 characters without < or >').waitFor();
    await page.getByLabel('Contact 1', { exact: true }).fill('@ana_trades');
    await page.getByTestId('contact-add').click();
    await page.getByLabel('Type 2').selectOption('whatsapp');
    await page.getByLabel('Contact 2', { exact: true }).fill('+351 912 345 678');
    await page.getByTestId('contact-submit').click();
    await expect
      .poll(async () => (await callApi<{ contactMethods: unknown[] }>(server, 'GET', '/home/user/security', user.token)).data.contactMethods)
      .toEqual([
        { kind: 'telegram', value: '@ana_trades' },
        { kind: 'whatsapp', value: '+351 912 345 678' },
      ]);
    await page.goto('/person/setting');
    await expect.poll(() => page.getByTestId('setting-contact-value').textContent()).toBe('2 of 5');

    await page.getByTestId('setting-antiphishing').click();
    await page.getByLabel('Anti-phishing code').fill('ab');
    await page.getByTestId('antiphishing-submit').click();
    await page.getByRole('alert').getByText('4 to 20 letters or digits').waitFor();
    await page.getByLabel('Anti-phishing code').fill('Blue42');
    await page.getByTestId('antiphishing-submit').click();
    await page.waitForURL((url) => url.pathname === '/person/setting');
    await expect.poll(() => page.getByTestId('setting-antiphishing-value').textContent()).toBe('Set');
  });

  it('turns on two-step login with an authenticator code, then asks for a code at login', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('totp'));
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await openLoggedIn(context, user, '/person/setting');
    await expect.poll(() => page.getByTestId('setting-totp-value').textContent()).toBe('Off');
    await page.getByTestId('setting-totp').click();
    await page.getByTestId('totp-start').click();
    const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // The QR code an authenticator app scans is on screen, with a spoken label.
    await expect.poll(() => page.getByRole('img', { name: 'QR code for your authenticator app' }).count()).toBe(1);
    expect(await page.locator('[data-testid="qr-code"] path').getAttribute('d')).toMatch(/^M\d/);
    await page.getByLabel('Authenticator code').fill(totpCode(secret) === '000000' ? '111111' : '000000');
    await page.getByTestId('totp-enable').click();
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Wrong verification code');
    await page.getByLabel('Authenticator code').fill(totpCode(secret));
    await page.getByTestId('totp-enable').click();
    await page.getByTestId('totp-on').waitFor();

    // Log out; the password alone is no longer enough.
    await page.goto('/my');
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Phone, e-mail or username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByTestId('agreement').check();
    await page.getByTestId('login-submit').click();
    await page.getByLabel('Authenticator code').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // The code used to turn it on is spent; the app's next code (within the window) is accepted.
    await page.getByLabel('Authenticator code').fill(totpCode(secret, 1));
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/index');
  });
});
