import { errorCatalogue } from '@keel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

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
        await t.app.inject({ url: '/home/index/serviceurl', headers: { authorization: token } }),
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
