import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, staffTotpCode, TEST_STAFF_TOTP_SECRET, type TestApp } from '../../helpers/test-app.ts';
import { call, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Issue 21, wallet connect by a signed message (ADR 0047): bind with the payment password, log in
// by wallet, every refusal with its problem (replay, expiry, another site, another chain, a bad
// signature, an address bound elsewhere), the nonce's single use under a race, and the bound
// address as an ownership-proven entry of the address book (the hold still applies).

const ORIGIN = 'https://keel.example';
// Fixed test keys (the well-known first Anvil/Hardhat accounts): never real funds.
const alice = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const bob = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const carol = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const dave = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');

type Account = typeof alice;

let t: TestApp;
let clockOffsetMs = 0;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_ORIGIN: ORIGIN }, { now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(() => t.close());

async function user(): Promise<WalletUser> {
  counter += 1;
  return walletUser(t.app, t.db, `siwe${counter}u${Date.now().toString(36)}`, { ready: true });
}

async function nonceFor(account: Account, purpose: 'login' | 'bind') {
  const answer = await call(t.app, 'POST', '/home/wallet-connect/nonce', null, { purpose, address: account.address, chainId: 1 });
  expect(answer.code).toBe(200);
  return answer.data as { nonce: string; message: string; expiresAt: string };
}

async function signed(account: Account, purpose: 'login' | 'bind') {
  const { message } = await nonceFor(account, purpose);
  return { message, signature: await account.signMessage({ message }) };
}

/** A message written by hand around an issued nonce, with some field changed. */
async function craft(account: Account, purpose: 'login' | 'bind', change: { domain?: string; uri?: string; chainId?: number; expirationTime?: Date }) {
  const { nonce } = await nonceFor(account, purpose);
  const message = createSiweMessage({
    domain: 'keel.example',
    address: account.address,
    uri: ORIGIN,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date(),
    expirationTime: new Date(Date.now() + 60_000),
    ...change,
  });
  return { message, signature: await account.signMessage({ message }) };
}

const bind = (who: WalletUser, body: { message: string; signature: string }, paymentPassword = '135790') =>
  call(t.app, 'POST', '/home/wallet-connect/bind', who.token, { ...body, paymentPassword });
const login = (body: { message: string; signature: string; totp?: string }) => call(t.app, 'POST', '/home/wallet-connect/login', null, body);

function refusedWith(answer: { code: number; msg: string; data: unknown }, problem: string) {
  expect(answer.code).toBe(400);
  expect(answer.msg).toBe('wallet connection failed');
  expect(answer.data).toMatchObject({ problem });
}

describe('wallet connect (EIP-4361)', () => {
  let owner: WalletUser;

  it('issues a message for the configured host and chain that says what Keel never asks for', async () => {
    const { message, nonce, expiresAt } = await nonceFor(alice, 'bind');
    expect(message.split('\n')[0]).toBe('keel.example wants you to sign in with your Ethereum account:');
    expect(message).toContain(`Nonce: ${nonce}`);
    expect(message).toContain('Chain ID: 1');
    expect(message).toContain(`URI: ${ORIGIN}`);
    expect(message).toContain('never asks for your seed phrase, your private key or a token approval');
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    refusedWith(await call(t.app, 'POST', '/home/wallet-connect/nonce', null, { purpose: 'bind', address: alice.address, chainId: 5 }), 'wrong_chain');
    expect((await call(t.app, 'POST', '/home/wallet-connect/nonce', null, { purpose: 'bind', address: 'nope', chainId: 1 })).msg).toBe('parameter error');
  });

  it('binds an address with the payment password, and shows it', async () => {
    owner = await user();
    const body = await signed(alice, 'bind');
    const wrong = await bind(owner, body, '000000');
    expect(wrong.msg).toBe('wrong payment password');
    const bound = await bind(owner, body);
    expect(bound.code).toBe(200);
    expect(bound.data).toMatchObject({ address: alice.address, chainId: 1 });
    const [message] = await t.db.query<{ title: string; body: string }>('SELECT title, body FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [owner.userId]);
    expect(message).toMatchObject({ title: 'Wallet bound to your account', body: expect.stringContaining(alice.address) });
    const shown = await call(t.app, 'GET', '/home/wallet-connect', owner.token);
    expect(shown.data).toMatchObject({ address: alice.address, boundAt: expect.any(String) });
    // The same signed message again is a replay.
    refusedWith(await bind(owner, body), 'nonce_used');
    // One address per account.
    refusedWith(await bind(owner, await signed(bob, 'bind')), 'already_bound');
  });

  it('refuses an address bound to another account', async () => {
    const other = await user();
    refusedWith(await bind(other, await signed(alice, 'bind')), 'bound_elsewhere');
    expect((await call(t.app, 'GET', '/home/wallet-connect', other.token)).data).toMatchObject({ address: null });
  });

  it('logs in by wallet with a session like the password login, once per signed message', async () => {
    const body = await signed(alice, 'login');
    const answer = await login(body);
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ userId: owner.userId, token: expect.any(String), user: { username: owner.username } });
    const me = await call(t.app, 'GET', '/home/wallet-connect', answer.data.token);
    expect(me.data.address).toBe(alice.address);
    refusedWith(await login(body), 'nonce_used');
    // A nonce issued to bind does not log in.
    refusedWith(await login(await signed(alice, 'bind')), 'bad_message');
    // An address bound to no account cannot log in.
    expect((await login(await signed(bob, 'login'))).msg).toBe('login failed');
  });

  it('refuses a message for another site, another chain, a stale one and a bad signature', async () => {
    refusedWith(await login(await craft(alice, 'login', { domain: 'evil.example' })), 'wrong_domain');
    refusedWith(await login(await craft(alice, 'login', { uri: 'https://evil.example' })), 'wrong_domain');
    refusedWith(await login(await craft(alice, 'login', { chainId: 5 })), 'wrong_chain');
    refusedWith(await login(await craft(alice, 'login', { expirationTime: new Date(Date.now() - 1000) })), 'nonce_expired');
    const { message } = await nonceFor(alice, 'login');
    refusedWith(await login({ message, signature: await bob.signMessage({ message }) }), 'bad_signature');
    refusedWith(await login({ message, signature: `0x${'00'.repeat(65)}` }), 'bad_signature');
    refusedWith(await login({ message, signature: '0x1234' }), 'bad_signature');
    refusedWith(await login({ message: 'not a message at all', signature: '0x1234' }), 'bad_message');
    const invented = await craft(alice, 'login', {});
    refusedWith(await login({ ...invented, message: invented.message.replace(/Nonce: \w+/, 'Nonce: abcdefgh12345678') , signature: await alice.signMessage({ message: invented.message.replace(/Nonce: \w+/, 'Nonce: abcdefgh12345678') }) }), 'nonce_unknown');
  });

  it('refuses a nonce past its expiry', async () => {
    const body = await signed(alice, 'login');
    // The message itself says when it expires; move the server's clock past it.
    clockOffsetMs = 6 * 60_000;
    try {
      refusedWith(await login(body), 'nonce_expired');
    } finally {
      clockOffsetMs = 0;
    }
    // A hand-written message that outlives its nonce is still refused by the nonce's expiry.
    const long = await craft(alice, 'login', { expirationTime: new Date(Date.now() + 3_600_000) });
    clockOffsetMs = 6 * 60_000;
    try {
      refusedWith(await login(long), 'nonce_expired');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('spends a nonce once when two verifications of the same message race', async () => {
    const body = await signed(alice, 'login');
    const answers = await Promise.all([login(body), login(body), login(body)]);
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.code !== 200)) refusedWith(answer, 'nonce_used');
    const [row] = await t.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM sessions WHERE user_id = $1 AND created_at > now() - interval '1 minute'",
      [owner.userId],
    );
    expect(row!.count).toBeGreaterThanOrEqual(1);
  });

  it('adds the bound address to the address book as ownership-proven, under the same hold', async () => {
    const added = await call(t.app, 'POST', '/home/wallet/addresses', owner.token, { network: 'ethereum', address: alice.address.toLowerCase(), label: 'my wallet' });
    expect(added.code).toBe(200);
    expect(added.data).toMatchObject({ address: alice.address, ownershipProven: true });
    expect(Date.parse(added.data.usableFrom) - Date.parse(added.data.createdAt)).toBe(24 * 3_600_000);
    const other = await call(t.app, 'POST', '/home/wallet/addresses', owner.token, { network: 'ethereum', address: bob.address, label: 'not mine' });
    expect(other.data).toMatchObject({ ownershipProven: false });
    const book = await call(t.app, 'GET', '/home/wallet/addresses', owner.token);
    expect(book.data.items.map((item: { address: string; ownershipProven: boolean }) => [item.address, item.ownershipProven])).toEqual([
      [bob.address, false],
      [alice.address, true],
    ]);
  });

  it('unbinds with the payment password, after which the wallet no longer logs in', async () => {
    expect((await call(t.app, 'POST', '/home/wallet-connect/unbind', owner.token, { paymentPassword: '000000' })).msg).toBe('wrong payment password');
    const done = await call(t.app, 'POST', '/home/wallet-connect/unbind', owner.token, { paymentPassword: '135790' });
    expect(done.data).toMatchObject({ address: null });
    refusedWith(await call(t.app, 'POST', '/home/wallet-connect/unbind', owner.token, { paymentPassword: '135790' }), 'not_bound');
    expect((await login(await signed(alice, 'login'))).msg).toBe('login failed');
  });

  it('asks a two-step account for its code: the same signed message comes back with it, and a wrong code spends it', async () => {
    const twoStep = await user();
    expect((await bind(twoStep, await signed(carol, 'bind'))).code).toBe(200);
    await t.db.query('UPDATE users SET totp_secret = $2 WHERE id = $1', [twoStep.userId, TEST_STAFF_TOTP_SECRET]);
    const body = await signed(carol, 'login');
    expect((await login(body)).msg).toBe('two-step code required');
    expect((await login({ ...body, totp: '000000' === staffTotpCode(new Date()) ? '111111' : '000000' })).msg).toBe('wrong verification code');
    refusedWith(await login({ ...body, totp: staffTotpCode(new Date()) }), 'nonce_used');
    const again = await login({ ...(await signed(carol, 'login')), totp: staffTotpCode(new Date()) });
    expect(again.code).toBe(200);
    expect(again.data.userId).toBe(twoStep.userId);
  });

  it('lets only one of two accounts binding the same address at once have it', async () => {
    const [first, second] = await Promise.all([user(), user()]);
    const [a, b] = await Promise.all([signed(dave, 'bind'), signed(dave, 'bind')]);
    const answers = await Promise.all([bind(first, a), bind(second, b)]);
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
    refusedWith(answers.find((answer) => answer.code !== 200)!, 'bound_elsewhere');
    const [row] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM wallet_bindings WHERE address = $1', [dave.address]);
    expect(row!.count).toBe(1);
  });

  it('never answers 500 to a malformed message or signature', async () => {
    const who = await user();
    for (const body of [
      { message: '\u0000\n\n', signature: '0x' },
      { message: 'x wants you to sign in with your Ethereum account:\n0x1234\n\nURI: ::\nVersion: 9\nChain ID: abc\nNonce: !\nIssued At: never', signature: `0x${'ff'.repeat(65)}` },
      { message: (await nonceFor(alice, 'bind')).message, signature: `0x${'1b'.repeat(65)}` },
    ]) {
      const answers = [await login(body), await bind(who, body)];
      for (const answer of answers) expect(answer.code).toBe(400);
    }
  });
});
