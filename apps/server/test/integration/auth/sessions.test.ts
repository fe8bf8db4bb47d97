import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

describe('registration, login and sessions', () => {
  let t: TestApp;
  let clockMs = Date.parse('2026-11-22T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ SESSION_TTL_HOURS: '2', SERVICE_URL: 'https://help.example.org/chat' }, { now: () => new Date(clockMs) });
  });
  afterAll(() => t.close());

  it('registers, answers a session, and stores only an argon2id hash and a token hash', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'carol123', password: 'pa55word', confirmPassword: 'pa55word', agreement: true, language: 'de' },
    });
    const body = response.json() as { code: number; data: { token: string; userId: string; user: { username: string; language: string } } };
    expect(body.code).toBe(200);
    expect(body.data.user).toMatchObject({ username: 'carol123', language: 'de' });
    const [user] = await t.db.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE username = 'carol123'`);
    expect(user!.password_hash.startsWith('$argon2id$')).toBe(true);
    const sessions = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions WHERE user_id = $1', [BigInt(body.data.userId)]);
    expect(sessions).toEqual([{ token_hash: createHash('sha256').update(body.data.token).digest('hex') }]);
  });

  it('logs in with the password, by username in any case, and answers the user', async () => {
    await registerViaApi(t.app, 'dave1234', 'davepass1');
    const login = await t.app.inject({
      method: 'POST',
      url: '/home/auth/login',
      payload: { account: 'DAVE1234', password: 'davepass1', agreement: true },
    });
    const { data } = login.json() as { data: { token: string } };
    const me = await t.app.inject({ url: '/home/user/me', headers: { authorization: `Bearer ${data.token}` } });
    expect(me.json()).toMatchObject({ code: 200, msg: 'success', data: { username: 'dave1234', status: 'active' } });
  });

  it('links an invited user to the inviter', async () => {
    const inviter = await registerViaApi(t.app, 'inviter1');
    const me = await t.app.inject({ url: '/home/user/me', headers: { authorization: inviter.token } });
    const code = (me.json() as { data: { inviteCode: string } }).data.inviteCode;
    expect(code).toMatch(/^[2-9A-Z]{8}$/);
    const response = await t.app.inject({
      method: 'POST',
      url: '/home/auth/register',
      payload: { username: 'invitee1', password: 'secret12', confirmPassword: 'secret12', agreement: true, inviteCode: code.toLowerCase() },
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.query<{ invited_by: bigint }>(`SELECT invited_by FROM users WHERE username = 'invitee1'`);
    expect(row!.invited_by).toBe(BigInt(inviter.userId));
  });

  it('ends a session at its expiry', async () => {
    const { token } = await registerViaApi(t.app, 'expiring1');
    const call = () => t.app.inject({ url: '/home/user/unread', headers: { authorization: token } });
    expect((await call()).statusCode).toBe(200);
    clockMs += 2 * 3_600_000 + 1;
    expect((await call()).json()).toMatchObject({ code: 401, msg: 'token does not exist' });
  });

  it('unread flag follows the unread system messages', async () => {
    const { token, userId } = await registerViaApi(t.app, 'reader01');
    const unread = async () => (await t.app.inject({ url: '/home/user/unread', headers: { authorization: token } })).json();
    expect(await unread()).toEqual({ code: 200, msg: 'success', data: false });
    await t.db.query(`INSERT INTO messages (user_id, title, body) VALUES ($1, 'Hello', 'Welcome')`, [BigInt(userId)]);
    expect(await unread()).toEqual({ code: 200, msg: 'success', data: true });
    await t.db.query('UPDATE messages SET read_at = now() WHERE user_id = $1', [BigInt(userId)]);
    expect(await unread()).toEqual({ code: 200, msg: 'success', data: false });
  });

  it('answers the configured customer-service URL, without a token too (public information)', async () => {
    const answer = { code: 200, msg: 'success', data: 'https://help.example.org/chat' };
    expect((await t.app.inject({ url: '/home/index/serviceurl' })).json()).toEqual(answer);
    const { token } = await registerViaApi(t.app, 'service01');
    expect((await t.app.inject({ url: '/home/index/serviceurl', headers: { authorization: token } })).json()).toEqual(answer);
    // A token that no longer works changes nothing: the route reads no session.
    expect((await t.app.inject({ url: '/home/index/serviceurl', headers: { authorization: 'Bearer nope' } })).json()).toEqual(answer);
  });

  it('stores the language on the account and refuses an unknown one', async () => {
    const { token } = await registerViaApi(t.app, 'polyglot1');
    const set = (language: string) =>
      t.app.inject({ method: 'PUT', url: '/home/user/language', headers: { authorization: token }, payload: { language } });
    expect((await set('ar')).json()).toMatchObject({ code: 200, data: { language: 'ar' } });
    expect((await set('xx')).json()).toMatchObject({ code: 400, msg: 'parameter error' });
  });

  it('two registrations of one username at once: exactly one wins', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/home/auth/register',
        payload: { username: 'racename1', password: 'secret12', confirmPassword: 'secret12', agreement: true },
      });
    const results = await Promise.all([attempt(), attempt(), attempt(), attempt()]);
    const codes = results.map((r) => (r.json() as { code: number; msg: string }).msg).sort();
    expect(codes.filter((msg) => msg === 'success')).toHaveLength(1);
    expect(codes.filter((msg) => msg === 'username already registered')).toHaveLength(3);
  });
});

describe('service surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: 'https://app.keel.example' });
  });
  afterAll(() => t.close());

  it('health check answers with the database kind', async () => {
    const response = await t.app.inject({ url: '/healthz' });
    expect(response.json()).toEqual({ code: 200, msg: 'success', data: { status: 'ok', database: t.db.kind } });
  });

  it('sets security headers and a request id', async () => {
    const response = await t.app.inject({ url: '/healthz' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-frame-options']).toBeDefined();
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('allows only configured origins', async () => {
    const allowed = await t.app.inject({ url: '/healthz', headers: { origin: 'https://app.keel.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.keel.example');
    const other = await t.app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('publishes an OpenAPI document and a readable reference generated from the contracts', async () => {
    const document = (await t.app.inject({ url: '/openapi.json' })).json() as { openapi: string; paths: Record<string, object> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/home/user/unread', '/home/index/serviceurl', '/home/auth/login', '/home/admin/users/{userId}/status']),
    );
    const docs = await t.app.inject({ url: '/docs' });
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.body).toContain('/home/user/unread');
    expect(docs.body).toContain('user status incorrect');
  });
});
