import { createServer } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, totpStepAt } from '../../apps/server/src/security/totp.ts';
import { verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn, storage } from './helpers/browser.ts';
import { callApi } from './helpers/identity.ts';
import { fundUser } from './helpers/ledger.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Wallet connect by a signed message in the browser (issue 21, ADR 0047): an EIP-1193 provider is
// injected into the page (window.ethereum), backed by a viem local account in the test process.
// Bind with the payment password, log out, log in with the wallet, add the address to the
// withdrawal address book as ownership-proven; and the refusals: no wallet, the user declines,
// a replayed signed message, a message signed for another site; and a proven address used in a
// withdrawal once the published new-address hold has passed (the server's clock moved on).

// Fixed test keys (the first Anvil/Hardhat accounts): never real funds. An address binds to one
// account only, so the withdrawal test's user has a wallet of its own.
const firstWallet = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const secondWallet = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const thirdWallet = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804e8ab365a');
/** An authenticator secret (base32) for the two-step account: a test value, never a real one. */
const TWO_STEP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** The wallet the injected provider answers with. */
let wallet = firstWallet;

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
/** What the injected wallet does when asked to sign: sign, or refuse as a user would (4001). */
let walletMode: 'sign' | 'reject' = 'sign';
/** The server's clock: moved past the new-address hold by the withdrawal test. */
const clock = { offsetMs: 0 };
const HOUR_MS = 3_600_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  [server, browser] = await Promise.all([startServer({ market: false, port, clock, env: { PUBLIC_ORIGIN: `http://127.0.0.1:${port}` } }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(async () => {
  await context?.close();
});

/** A phone context whose pages have window.ethereum, answered by `wallet` in this process. */
async function contextWithWallet(): Promise<BrowserContext> {
  const created = await newPhoneContext(browser, server.baseUrl);
  await created.exposeFunction('__keelTestWallet', async (method: string, params: unknown[] = []) => {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [wallet.address] };
      case 'eth_chainId':
        return { result: '0x1' };
      case 'personal_sign': {
        if (walletMode === 'reject') return { error: { code: 4001, message: 'User rejected the request.' } };
        const message = Buffer.from(String(params[0]).slice(2), 'hex').toString('utf8');
        return { result: await wallet.signMessage({ message }) };
      }
      default:
        return { error: { code: 4200, message: `unsupported ${method}` } };
    }
  });
  await created.addInitScript(() => {
    const call = (window as unknown as { __keelTestWallet: (method: string, params?: unknown[]) => Promise<{ result?: unknown; error?: { code: number; message: string } }> })
      .__keelTestWallet;
    (window as unknown as { ethereum: unknown }).ethereum = {
      isTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await call(method, params);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
    };
  });
  return created;
}

async function setPaymentPassword(token: string, password: string) {
  const answer = await callApi(server, 'PUT', '/home/user/payment-password', token, {
    loginPassword: password,
    paymentPassword: '135790',
    confirmPaymentPassword: '135790',
  });
  expect(answer.code).toBe(200);
}

/** Binds the test wallet to the account through the API (the browser flow is the first test's). */
async function bindByApi(token: string) {
  const issued = await callApi<{ message: string }>(server, 'POST', '/home/wallet-connect/nonce', token, { purpose: 'bind', address: wallet.address, chainId: 1 });
  expect(issued.code).toBe(200);
  const signature = await wallet.signMessage({ message: issued.data.message });
  const bound = await callApi(server, 'POST', '/home/wallet-connect/bind', token, { message: issued.data.message, signature, paymentPassword: '135790' });
  expect(bound.code).toBe(200);
}

/** What the login page says of a message signed for another site (the web catalogue's English). */
const WRONG_DOMAIN_TEXT = 'The message was written for another website. Never sign it.';

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')}`));
}

describe('wallet connect (EIP-4361) in the browser', () => {
  it('binds with the payment password, logs in by wallet after logging out, adds a proven address; a replay is refused', async () => {
    walletMode = 'sign';
    const user = await registerUser(server.baseUrl, uniqueUsername('siwe'));
    await setPaymentPassword(user.token, user.password);
    context = await contextWithWallet();
    const page = await openLoggedIn(context, user, '/person/setting');
    await page.getByTestId('setting-wallet').click();
    await page.waitForURL((url) => url.pathname === '/safeSetting/wallet');
    await page.getByTestId('wallet-not-bound').waitFor();
    expect(await page.getByTestId('wallet-never-asks').textContent()).toContain('never asks for your seed phrase, your private key or a token approval');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.getByRole('main').count()).toBe(1);

    await page.getByTestId('wallet-payment-password').fill('135790');
    await page.getByTestId('wallet-connect-button').click();
    await page.getByTestId('wallet-bound').waitFor();
    expect(await page.getByTestId('wallet-bound-address').getAttribute('data-address')).toBe(wallet.address);
    expect(await page.getByTestId('wallet-bound-address').textContent()).toBe(`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`);

    // Add it to the address book: ownership-proven, and still under the published hold.
    await page.getByTestId('wallet-add-to-book').click();
    await page.getByTestId('wallet-in-book').waitFor();
    await page.goto('/assets/WalletAddress/manage');
    const proven = page.getByTestId('address-row-proven');
    await proven.waitFor();
    expect(await proven.textContent()).toBe('Ownership proven');
    await page.getByTestId('address-row-usable-from').first().waitFor();

    // Log out, then log in with the wallet.
    await page.goto('/my');
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await storage(page, 'token')).toBeNull();
    let firstLogin: string | undefined;
    page.on('request', (request) => {
      if (request.url().endsWith('/home/wallet-connect/login') && firstLogin === undefined) firstLogin = request.postData() ?? undefined;
    });
    await page.getByTestId('wallet-login-button').click();
    await page.waitForURL((url) => url.pathname !== '/login');
    expect(await storage(page, 'userId')).toBe(user.userId);

    // Log out again and send the first signed message once more: refused as used.
    await page.goto('/my');
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(firstLogin).toBeDefined();
    await page.route('**/home/wallet-connect/login', (route) => route.continue({ postData: firstLogin }));
    await page.getByTestId('wallet-login-button').click();
    const error = page.getByTestId('wallet-login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Wallet connection failed');
    expect(await error.textContent()).toContain('already used');
    expect(await storage(page, 'token')).toBeNull();
  });

  it('without a wallet, says the wallet is not connected or not installed', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('wallet-login-button').click();
    const error = page.getByTestId('wallet-login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Wallet not connected or not installed');
  });

  it('when the user declines to sign, says so and logs nobody in', async () => {
    walletMode = 'reject';
    context = await contextWithWallet();
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('wallet-login-button').click();
    const error = page.getByTestId('wallet-login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Wallet connection failed');
    expect(await error.textContent()).toContain('You declined the request in your wallet.');
    expect(await storage(page, 'token')).toBeNull();
    walletMode = 'sign';
  });
  it('refuses a message a wallet signed for another site, naming the wrong site', async () => {
    walletMode = 'sign';
    context = await contextWithWallet();
    const page = await context.newPage();
    await page.goto('/login');
    // A phishing page had the same wallet sign Keel's nonce in a message naming its own site, and
    // hands it to Keel: the server refuses it before the signature is even looked at.
    const issued = await callApi<{ message: string }>(server, 'POST', '/home/wallet-connect/nonce', null, { purpose: 'login', address: wallet.address, chainId: 1 });
    const forged = issued.data.message.replace(/^[^ ]+ wants you to sign in/, 'evil.example wants you to sign in');
    const forgedSignature = await wallet.signMessage({ message: forged });
    await page.route('**/home/wallet-connect/login', (route) => route.continue({ postData: JSON.stringify({ message: forged, signature: forgedSignature }) }));
    await page.getByTestId('wallet-login-button').click();
    const error = page.getByTestId('wallet-login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Wallet connection failed');
    expect(await error.textContent()).toContain(WRONG_DOMAIN_TEXT);
    expect(await storage(page, 'token')).toBeNull();
  });

  it('uses the proven address in a withdrawal once the published hold has passed, after logging in by wallet', async () => {
    walletMode = 'sign';
    wallet = secondWallet;
    const user = await registerUser(server.baseUrl, uniqueUsername('siwewd'));
    await verifyUser(server.db, user.userId);
    await setPaymentPassword(user.token, user.password);
    await fundUser(server.db, { userId: user.userId, asset: 'USDT', amount: '500' });
    await bindByApi(user.token);
    context = await contextWithWallet();
    const page = await openLoggedIn(context, user, '/safeSetting/wallet');
    await page.getByTestId('wallet-add-to-book').click();
    await page.getByTestId('wallet-in-book').waitFor();
    await page.goto('/my');
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login');

    // A day and an hour later (the hold is 24 h): log in with the wallet and withdraw to it.
    clock.offsetMs = 25 * HOUR_MS;
    // The browser's clock too: the address book judges the hold by the device's time.
    await page.clock.install({ time: Date.now() + clock.offsetMs });
    await page.reload();
    try {
      await page.getByTestId('wallet-login-button').click();
      await page.waitForURL((url) => url.pathname !== '/login');
      expect(await storage(page, 'userId')).toBe(user.userId);
      await page.goto('/assets/withdraw');
      await page.getByTestId('withdraw-channel').selectOption('USDT-ERC20');
      await page.getByTestId('withdraw-pick-address').click();
      const bookRow = page.locator('[data-testid^="address-row-"][data-network="ethereum"]');
      await expect.poll(() => bookRow.count()).toBe(1);
      expect(await bookRow.getByTestId('address-row-proven').textContent()).toBe('Ownership proven');
      await expect.poll(() => bookRow.getByTestId('address-row-usable').textContent().catch(() => null)).toBe('Ready for withdrawals');
      await bookRow.getByTestId('address-row-choose').click();
      await page.waitForURL((url) => url.pathname === '/assets/withdraw');
      await expect.poll(() => page.getByTestId('withdraw-address-full').first().textContent()).toBe(wallet.address);
      await page.getByTestId('withdraw-amount').fill('100');
      await page.getByTestId('withdraw-paypassword').fill('135790');
      await page.getByTestId('withdraw-submit').click();
      await page.waitForURL((url) => /^\/assets\/WithdrawPay\/\d+$/.test(url.pathname));
      await expect.poll(() => page.getByTestId('pay-address').first().textContent()).toBe(wallet.address);
      expect(await page.getByTestId('pay-amount').first().textContent()).toBe('100.00 USDT');
    } finally {
      clock.offsetMs = 0;
      wallet = firstWallet;
    }
  });
  it('asks an account with two-step login for its authenticator code, then logs in with the same signature', async () => {
    walletMode = 'sign';
    wallet = thirdWallet;
    try {
      const user = await registerUser(server.baseUrl, uniqueUsername('siwe2fa'));
      await setPaymentPassword(user.token, user.password);
      await bindByApi(user.token);
      await server.db.query('UPDATE users SET totp_secret = $2 WHERE id = $1', [user.userId, TWO_STEP_SECRET]);
      context = await contextWithWallet();
      const page = await context.newPage();
      await page.goto('/login');
      let signatures = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/home/wallet-connect/nonce')) signatures += 1;
      });
      await page.getByTestId('wallet-login-button').click();
      // The code is asked for; the wallet is not asked to sign again.
      const submit = page.getByTestId('wallet-login-totp');
      await submit.waitFor();
      expect(await storage(page, 'token')).toBeNull();
      await page.getByLabel('Authenticator code').fill(hotp(base32Decode(TWO_STEP_SECRET), totpStepAt(server.now().getTime())));
      await submit.click();
      await page.waitForURL((url) => url.pathname !== '/login');
      expect(await storage(page, 'userId')).toBe(user.userId);
      expect(signatures).toBe(1);
    } finally {
      wallet = firstWallet;
    }
  });
});
