import { errorCatalogue } from '@keel/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { postAd, trader } from '../../helpers/p2p.ts';
import { call } from '../../helpers/wallet.ts';

// Every catalogue error that the foundation's calls can produce, each through a real request on
// a real database (PGlite or PostgreSQL, per KEEL_TEST_DB).
describe('catalogue errors of the foundation calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { BODY_LIMIT_BYTES: '2048' },
      {
        extraRoutes: (app) => {
          app.get('/home/test/boom', async () => {
            await t.db.query('SELECT * FROM table_that_does_not_exist');
            return null;
          });
        },
      },
    );
  });
  afterAll(() => t.close());

  const expectError = (response: { statusCode: number; json: () => unknown }, key: keyof typeof errorCatalogue) => {
    const body = response.json() as { code: number; msg: string };
    expect(response.statusCode).toBe(errorCatalogue[key].status);
    expect(body.code).toBe(errorCatalogue[key].status);
    expect(body.msg).toBe(errorCatalogue[key].msg);
    return body as { code: number; msg: string; data: unknown };
  };

  it('token empty: no Authorization header, or an empty one', async () => {
    expectError(await t.app.inject({ url: '/home/user/unread' }), 'TOKEN_EMPTY');
    expectError(await t.app.inject({ url: '/home/user/unread', headers: { authorization: 'Bearer ' } }), 'TOKEN_EMPTY');
  });

  it('token does not exist: unknown token, and a token after logout', async () => {
    expectError(await t.app.inject({ url: '/home/user/unread', headers: { authorization: 'Bearer nope' } }), 'TOKEN_NOT_FOUND');
    const { token } = await registerViaApi(t.app, 'logoutuser1');
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ url: '/home/user/unread', headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/home/auth/logout', headers: auth })).statusCode).toBe(200);
    expectError(await t.app.inject({ url: '/home/user/unread', headers: auth }), 'TOKEN_NOT_FOUND');
  });

  it('user status incorrect: every call of a suspended or banned user', async () => {
    for (const status of ['suspended', 'banned']) {
      const { token } = await registerViaApi(t.app, `status${status}`);
      await t.db.query('UPDATE users SET status = $2 WHERE username = $1', [`status${status}`, status]);
      const body = expectError(
        await t.app.inject({ url: '/home/user/me', headers: { authorization: token } }),
        'USER_STATUS_INCORRECT',
      );
      expect(body.data).toBeNull();
    }
  });

  it('a withdrawal-forbidden user can still use the account', async () => {
    const { token } = await registerViaApi(t.app, 'forbidden1');
    await t.db.query(`UPDATE users SET status = 'withdrawal_forbidden' WHERE username = 'forbidden1'`);
    expect((await t.app.inject({ url: '/home/user/unread', headers: { authorization: token } })).statusCode).toBe(200);
  });

  it('request address does not exist: unknown API path or method', async () => {
    expectError(await t.app.inject({ url: '/home/nothing/here' }), 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'DELETE', url: '/home/user/unread' }), 'NOT_FOUND');
  });

  it('parameter error: lists each failing field, and stores nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'ab', password: '12', confirmPassword: '12', agreement: false },
    });
    const body = expectError(response, 'PARAMETER_ERROR') as { data: { fields: { field: string }[] } };
    expect(body.data.fields.map((f) => f.field).sort()).toEqual(['body.agreement', 'body.password', 'body.username']);
    expect(await t.db.query(`SELECT 1 FROM users WHERE username = 'ab'`)).toHaveLength(0);
  });

  it('parameter error: unreadable JSON body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account": ',
    });
    expectError(response, 'PARAMETER_ERROR');
  });

  it('system error: no stack or SQL in the answer, a request id to quote', async () => {
    const response = await t.app.inject({ url: '/home/test/boom' });
    const body = expectError(response, 'SYSTEM_ERROR') as { data: { requestId: string } };
    expect(response.body).not.toMatch(/table_that_does_not_exist|SELECT|at .*\.ts/);
    expect(body.data.requestId).toBe(response.headers['x-request-id']);
  });

  it('passwords inconsistent', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'mismatch1', password: 'secret12', confirmPassword: 'secret13', agreement: true },
    });
    expectError(response, 'PASSWORDS_INCONSISTENT');
  });

  it('username already registered, whatever the case', async () => {
    await registerViaApi(t.app, 'takenname');
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'TakenName', password: 'secret12', confirmPassword: 'secret12', agreement: true },
    });
    expectError(response, 'USERNAME_TAKEN');
  });

  it('invalid invitation code', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'invited1', password: 'secret12', confirmPassword: 'secret12', agreement: true, inviteCode: 'ZZZZZZZZ' },
    });
    expectError(response, 'INVALID_INVITATION_CODE');
    expect(await t.db.query(`SELECT 1 FROM users WHERE username = 'invited1'`)).toHaveLength(0);
  });

  it('account and password cannot be empty; account or password incorrect; account banned', async () => {
    const login = (account: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/home/auth/login', payload: { account, password, agreement: true } });
    expectError(await login('', ''), 'ACCOUNT_AND_PASSWORD_EMPTY');
    expectError(await login('someone', ''), 'ACCOUNT_AND_PASSWORD_EMPTY');
    await registerViaApi(t.app, 'loginuser1', 'rightpass1');
    const unknown = expectError(await login('nobody999', 'rightpass1'), 'ACCOUNT_OR_PASSWORD_INCORRECT');
    const wrong = expectError(await login('loginuser1', 'wrongpass1'), 'ACCOUNT_OR_PASSWORD_INCORRECT');
    // The same answer whether or not the account exists.
    expect(unknown).toEqual(wrong);
    await t.db.query(`UPDATE users SET status = 'banned' WHERE username = 'loginuser1'`);
    expectError(await login('loginuser1', 'rightpass1'), 'ACCOUNT_BANNED');
  });

  it('permission denied: a staff role outside the call', async () => {
    const token = await createStaff(t.app, t.db, 'contentstaff', ['content']);
    const response = await t.app.inject({ url: '/home/admin/audit', headers: { authorization: `Bearer ${token}` } });
    expectError(response, 'PERMISSION_DENIED');
  });

  it('record does not exist: status change of an unknown user', async () => {
    const token = await createStaff(t.app, t.db, 'supportstaff', ['support']);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/home/admin/users/999999/status',
      headers: { authorization: `Bearer ${token}` },
      payload: { status: 'suspended', reason: 'fraud report' },
    });
    expectError(response, 'RECORD_NOT_FOUND');
  });

  it('request body too large', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/login',
      payload: { account: 'x'.repeat(4096), password: 'secret12', agreement: true },
    });
    expectError(response, 'PAYLOAD_TOO_LARGE');
  });
});

describe('rate limiting on auth routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 "too many requests" with Retry-After once the limit is reached', async () => {
    const attempt = () =>
      t.app.inject({ method: 'POST', url: '/home/auth/login', payload: { account: 'nobody1', password: 'x12345', agreement: true } });
    for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 429, msg: errorCatalogue.TOO_MANY_REQUESTS.msg });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Calls that are not auth calls are not limited by it.
    expect((await t.app.inject({ url: '/home/user/unread' })).statusCode).toBe(401);
  });
});

describe('invite code required by the operator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ INVITE_CODE_REQUIRED: 'true' });
  });
  afterAll(() => t.close());

  it('refuses registration without a code', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'nocode01', password: 'secret12', confirmPassword: 'secret12', agreement: true },
    });
    expect(response.json()).toMatchObject({ code: 400, msg: errorCatalogue.INVALID_INVITATION_CODE.msg });
  });
});

// Issue 13, defect 4: inputs that reached the database and came back as 500. Each is now refused
// by the contract's shared schemas (idSchema, typedText/plainText/secretText) or by the use case
// with a catalogue error; the contract-driven fuzz test (contract-fuzz.test.ts) covers the class.
describe('bad input never reaches the database as a 500 (issue 13)', () => {
  let t: TestApp;
  let staffToken: string;
  let seller: Awaited<ReturnType<typeof trader>>;
  let buyer: Awaited<ReturnType<typeof trader>>;
  let adId: string;
  let orderId: string;
  beforeAll(async () => {
    t = await createTestApp();
    staffToken = `Bearer ${await createStaff(t.app, t.db, 'badinputstaff', ['admin'])}`;
    seller = await trader(t.app, t.db, 'badinputseller', '500');
    buyer = await trader(t.app, t.db, 'badinputbuyer');
    adId = (await postAd(t.app, seller, '300')).id;
    const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId, quantity: '50' });
    if (placed.code !== 200) throw new Error(`order: ${placed.msg}`);
    orderId = placed.data.id;
  });
  afterAll(() => t.close());

  const refusedField = (answer: { code: number; msg: string; data: unknown }, field: string) => {
    expect(answer).toMatchObject({ code: 400, msg: errorCatalogue.PARAMETER_ERROR.msg });
    expect((answer.data as { fields: { field: string }[] }).fields.map((each) => each.field)).toContain(field);
  };
  const inject = async (options: InjectOptions) => (await t.app.inject(options)).json() as { code: number; msg: string; data: unknown };

  it('a NUL byte in each of the eight free-text fields of the report is "parameter error" naming the field', async () => {
    const nul = 'a\u0000b';
    refusedField(await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { text: `hello ${nul}` }), 'body.text');
    refusedField(await call(t.app, 'POST', '/home/auth/login', null, { account: nul, password: 'secret12', agreement: true }), 'body.account');
    refusedField(await call(t.app, 'POST', '/home/admin/auth/login', null, { username: nul, password: 'staffpass1' }), 'body.username');
    refusedField(await inject({ url: '/home/admin/users?q=a%00b', headers: { authorization: staffToken } }), 'query.q');
    refusedField(await inject({ url: '/home/admin/notifications?target=a%00b', headers: { authorization: staffToken } }), 'query.target');
    refusedField(await call(t.app, 'PUT', `/home/admin/users/${buyer.userId}/status`, staffToken, { status: 'suspended', reason: `fraud ${nul}` }), 'body.reason');
    refusedField(await call(t.app, 'POST', '/home/auth/code', null, { channel: 'email', target: `${nul}@example.com`, purpose: 'register' }), 'body.target');
    refusedField(await call(t.app, 'POST', '/home/user/contact/code', buyer.token, { channel: 'email', target: `${nul}@example.com` }), 'body.target');
    refusedField(await call(t.app, 'PUT', '/home/user/contact', buyer.token, { channel: 'email', target: `${nul}@example.com`, code: '123456' }), 'body.target');
    // Nothing of it was stored: the buyer is still active and the chat is empty.
    const [user] = await t.db.query<{ status: string }>('SELECT status FROM users WHERE id = $1', [buyer.userId]);
    expect(user!.status).toBe('active');
    expect(await t.db.query('SELECT 1 FROM p2p_chat_messages')).toHaveLength(0);
  });

  it('ids above the bigint range, and 19 characters that are not digits, are "parameter error" on every kind of id field', async () => {
    for (const id of ['9223372036854775808', '9999999999999999999', 'a'.repeat(19), '-'.repeat(19)]) {
      refusedField(await call(t.app, 'GET', `/home/p2p/orders/${id}`, buyer.token), 'params.orderId');
      refusedField(await call(t.app, 'DELETE', `/home/user/sessions/${id}`, buyer.token), 'params.sessionId');
      refusedField(await call(t.app, 'GET', `/home/uploads/${id}`, buyer.token), 'params.uploadId');
      refusedField(await call(t.app, 'POST', '/home/user/messages/read', buyer.token, { upToId: id }), 'body.upToId');
      refusedField(await call(t.app, 'POST', '/home/assets/swap', buyer.token, { quoteId: id }), 'body.quoteId');
      refusedField(await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { uploadId: id }), 'body.uploadId');
      refusedField(await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat/${id}/withdraw`, buyer.token), 'params.messageId');
      refusedField(await inject({ url: `/home/admin/options/orders?userId=${id}`, headers: { authorization: staffToken } }), 'query.userId');
    }
    // The largest id there can be is still an id: it names no record.
    expect((await call(t.app, 'GET', '/home/p2p/orders/9223372036854775807', buyer.token)).msg).toBe(errorCatalogue.RECORD_NOT_FOUND.msg);
  });

  it('editing an ad with a malformed remaining: "record does not exist" for a stranger, "wrong amount" for its seller', async () => {
    const terms = { fiat: 'INR', price: '86', min: '10', max: '100', contact: 'UPI', remark: '' };
    for (const remaining of ['abc', '-1', '1e3', '1.1234567', '']) {
      const stranger = await call(t.app, 'PUT', `/home/p2p/ads/${adId}`, buyer.token, { ...terms, remaining });
      expect(stranger).toMatchObject({ code: 404, msg: errorCatalogue.RECORD_NOT_FOUND.msg, data: null });
      const own = await call(t.app, 'PUT', `/home/p2p/ads/${adId}`, seller.token, { ...terms, remaining });
      expect(own).toMatchObject({ code: 400, msg: errorCatalogue.WRONG_AMOUNT.msg, data: { field: 'remaining' } });
    }
    // A stranger's malformed terms say nothing about the ad either.
    expect((await call(t.app, 'PUT', `/home/p2p/ads/${adId}`, buyer.token, { ...terms, price: 'x', remaining: '10' })).msg).toBe(errorCatalogue.RECORD_NOT_FOUND.msg);
    const [ad] = await t.db.query<{ remaining_minor: string }>('SELECT remaining_minor FROM p2p_ads WHERE id = $1', [adId]);
    expect(BigInt(ad!.remaining_minor)).toBe(250_000_000n);
  });
});
