import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, call, coinBalance, fund, TEST_XPUB, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Issue 5, "must show": broken object-level authorisation tests on every wallet id route. A third
// user who knows (or guesses) the ids of Alice's deposit, withdrawal, address, bank card and
// screenshot gets "record does not exist" everywhere — the same answer as for an id nobody has —
// and nothing of Alice's changes.

let t: TestApp;
let alice: WalletUser;
let mallory: WalletUser;
const ids = { deposit: '', withdrawal: '', address: '', card: '', proof: '' };

beforeAll(async () => {
  t = await createTestApp({ DEPOSIT_XPUB_TRON: TEST_XPUB });
  alice = await walletUser(t.app, t.db, 'alice00001', { ready: true });
  mallory = await walletUser(t.app, t.db, 'mallory001', { ready: true });
  await fund(t.db, alice.userId, 'USDT', '500');
  await fund(t.db, mallory.userId, 'USDT', '500');
  const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
  const upload = await t.app.inject({
    method: 'POST',
    url: '/home/uploads/image?purpose=deposit_proof',
    headers: { authorization: alice.token, 'content-type': 'image/png' },
    payload: png,
  });
  ids.proof = (upload.json() as { data: { uploadId: string } }).data.uploadId;
  ids.deposit = (await call(t.app, 'POST', '/home/wallet/deposits', alice.token, { channel: 'USDT-TRC20', amount: '10', txHash: '7'.repeat(64), proofUploadId: ids.proof })).data.id;
  ids.address = await bindAddress(t.app, t.db, alice, 'tron', { usableNow: true });
  ids.withdrawal = (await call(t.app, 'POST', '/home/wallet/withdrawals', alice.token, { channel: 'USDT-TRC20', addressId: ids.address, amount: '100', paymentPassword: '135790' })).data.id;
  ids.card = (
    await call(t.app, 'POST', '/home/wallet/bank-cards', alice.token, {
      realName: 'Alice Example',
      phone: '+4915112345678',
      bankName: 'Example Bank',
      bankAccount: '123456789',
      ifsc: 'EXMP0123456',
      email: 'alice@example.com',
    })
  ).data.id;
  for (const [name, id] of Object.entries(ids)) if (!/^\d+$/.test(id)) throw new Error(`setup: no ${name}`);
});
afterAll(() => t.close());

async function aliceUnchanged() {
  expect((await call(t.app, 'GET', `/home/wallet/deposits/${ids.deposit}`, alice.token)).data.status).toBe('pending');
  expect((await call(t.app, 'GET', `/home/wallet/withdrawals/${ids.withdrawal}`, alice.token)).data.status).toBe('pending');
  expect((await call(t.app, 'GET', '/home/wallet/addresses', alice.token)).data.items.map((item: { id: string }) => item.id)).toEqual([ids.address]);
  expect((await call(t.app, 'GET', '/home/wallet/bank-cards', alice.token)).data.items.map((item: { id: string }) => item.id)).toEqual([ids.card]);
  expect(await coinBalance(t.db, alice.userId, 'USDT')).toEqual({ availableMinor: 399_000_000n, frozenMinor: 101_000_000n });
}

describe('a third user reaches nothing of another user’s wallet by id', () => {
  const routes: [string, 'GET' | 'POST' | 'DELETE', () => string, unknown?][] = [
    ['read a deposit', 'GET', () => `/home/wallet/deposits/${ids.deposit}`],
    ['read a withdrawal', 'GET', () => `/home/wallet/withdrawals/${ids.withdrawal}`],
    ['cancel a withdrawal', 'POST', () => `/home/wallet/withdrawals/${ids.withdrawal}/cancel`],
    ['remove an address', 'DELETE', () => `/home/wallet/addresses/${ids.address}`],
    ['remove a bank card', 'DELETE', () => `/home/wallet/bank-cards/${ids.card}`],
  ];

  it.each(routes)('%s: "record does not exist", as for an id nobody has', async (_name, method, path) => {
    const answer = await call(t.app, method, path(), mallory.token);
    expect(answer).toMatchObject({ code: 404, msg: 'record does not exist' });
    const unknown = await call(t.app, method, path().replace(/\/\d+(\/cancel)?$/, '/987654321$1'), mallory.token);
    expect(unknown).toMatchObject({ code: 404, msg: 'record does not exist' });
    await aliceUnchanged();
  });

  it('read the deposit screenshot', async () => {
    const response = await t.app.inject({ url: `/home/uploads/${ids.proof}`, headers: { authorization: mallory.token } });
    expect(response.statusCode).toBe(404);
    const own = await t.app.inject({ url: `/home/uploads/${ids.proof}`, headers: { authorization: alice.token } });
    expect(own.statusCode).toBe(200);
  });

  it('attach the screenshot to their own deposit, or withdraw to the address', async () => {
    const deposit = await call(t.app, 'POST', '/home/wallet/deposits', mallory.token, { channel: 'USDT-TRC20', amount: '10', txHash: '8'.repeat(64), proofUploadId: ids.proof });
    expect(deposit).toMatchObject({ code: 404, msg: 'record does not exist' });
    const withdrawal = await call(t.app, 'POST', '/home/wallet/withdrawals', mallory.token, {
      channel: 'USDT-TRC20',
      addressId: ids.address,
      amount: '100',
      paymentPassword: '135790',
    });
    expect(withdrawal).toMatchObject({ code: 404, msg: 'record does not exist' });
    expect(await coinBalance(t.db, mallory.userId, 'USDT')).toEqual({ availableMinor: 500_000_000n, frozenMinor: 0n });
    await aliceUnchanged();
  });

  it('lists show only the caller’s own records', async () => {
    for (const path of ['/home/wallet/deposits', '/home/wallet/withdrawals', '/home/wallet/addresses', '/home/wallet/bank-cards']) {
      expect((await call(t.app, 'GET', path, mallory.token)).data.items).toEqual([]);
    }
  });

  it('without a session every wallet route answers 401', async () => {
    for (const [method, path] of [
      ['GET', '/home/wallet/overview'],
      ['GET', `/home/wallet/deposits/${ids.deposit}`],
      ['POST', '/home/wallet/withdrawals'],
      ['DELETE', `/home/wallet/bank-cards/${ids.card}`],
    ] as const) {
      expect((await call(t.app, method, path, null, method === 'POST' ? {} : undefined)).code).toBe(401);
    }
  });
});
