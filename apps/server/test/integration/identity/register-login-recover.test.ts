import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

interface Answer<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

describe('registration, login and recovery by e-mail and phone', () => {
  let t: TestApp;
  let nowMs = Date.parse('2026-11-22T09:00:00Z');
  // Each test uses its own client address, so the per-address code limit is not shared between them.
  let address = 0;
  beforeAll(async () => {
    t = await createTestApp({}, { now: () => new Date(nowMs) });
  });
  afterAll(() => t.close());

  const call = async <T = Record<string, unknown>>(url: string, payload: unknown, ip = `192.0.2.${address}`) => {
    const response = await t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress: ip });
    return Object.assign(response.json() as Answer<T>, { headers: response.headers });
  };
  /** The code as the person would read it: from the last message queued to them. */
  const codeSentTo = async (target: string) => {
    const [row] = await t.db.query<{ body: string }>('SELECT body FROM notification_outbox WHERE target = $1 ORDER BY id DESC LIMIT 1', [target]);
    return /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
  };
  const register = (body: Record<string, unknown>) =>
    call<{ token: string; user: { email: string | null; phone: string | null; username: string | null } }>('/home/auth/register', {
      password: 'secret12',
      confirmPassword: 'secret12',
      agreement: true,
      ...body,
    });

  it('registers by e-mail with the code from the message, once; the code cannot be used twice', async () => {
    address = 1;
    const sent = await call('/home/auth/code', { channel: 'email', target: ' Ana@Example.com ', purpose: 'register' });
    expect(sent).toMatchObject({ code: 200, data: { expiresAtMs: nowMs + 300_000, resendAfterMs: nowMs + 60_000 } });
    const code = await codeSentTo('ana@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await register({ email: 'ana@example.com', code: wrong })).msg).toBe('wrong verification code');
    const done = await register({ email: 'ANA@example.com', code });
    expect(done).toMatchObject({ code: 200, data: { user: { email: 'ana@example.com', username: null, phone: null } } });
    // The code is used up; and a new code for a registered address is not sent.
    expect((await register({ email: 'ana@example.com', code })).msg).toBe('wrong verification code');
    expect((await call('/home/auth/code', { channel: 'email', target: 'ana@example.com', purpose: 'register' })).msg).toBe(
      'phone or e-mail already registered',
    );
  });

  it('registers by phone and logs in by phone, e-mail or username alike', async () => {
    address = 2;
    await call('/home/auth/code', { channel: 'sms', target: '+49 170 1234567', purpose: 'register' });
    const code = await codeSentTo('+491701234567');
    const done = await register({ phone: '0049 170 1234567', code });
    expect(done).toMatchObject({ code: 200, data: { user: { phone: '+491701234567' } } });
    const login = await call('/home/auth/login', { account: '+491701234567', password: 'secret12', agreement: true });
    expect(login.code).toBe(200);
    const byEmail = await call('/home/auth/login', { account: 'Ana@Example.com', password: 'secret12', agreement: true });
    expect(byEmail.code).toBe(200);
  });

  it('refuses malformed targets and missing codes with catalogue errors', async () => {
    address = 3;
    expect((await call('/home/auth/code', { channel: 'email', target: 'not-an-email', purpose: 'register' })).data).toEqual({
      fields: [{ field: 'body.target', message: 'incorrect email format' }],
    });
    expect((await call('/home/auth/code', { channel: 'email', target: '', purpose: 'register' })).msg).toBe('e-mail required');
    expect((await call('/home/auth/code', { channel: 'sms', target: '12', purpose: 'register' })).msg).toBe('wrong phone number');
    expect((await call('/home/auth/code', { channel: 'sms', target: '', purpose: 'register' })).msg).toBe('phone required');
    expect((await register({ email: 'nocode@example.com' })).data).toEqual({ fields: [{ field: 'body.code', message: 'this field is required' }] });
    expect((await register({ email: 'both@example.com', username: 'bothname1', code: '123456' })).code).toBe(400);
  });

  it('limits code sends: a second within the minute is 429 with Retry-After', async () => {
    address = 4;
    expect((await call('/home/auth/code', { channel: 'email', target: 'limit@example.com', purpose: 'register' })).code).toBe(200);
    const again = await call('/home/auth/code', { channel: 'email', target: 'limit@example.com', purpose: 'register' });
    expect(again).toMatchObject({ code: 429, msg: 'too many requests', data: { retryAfterSeconds: 60 } });
    expect(again.headers['retry-after']).toBe('60');
  });

  it('recovery: the same answer for unknown addresses, nothing sent; a real reset ends every session', async () => {
    address = 5;
    const unknown = await call('/home/auth/code', { channel: 'email', target: 'nobody@example.com', purpose: 'reset_password' });
    expect(unknown.code).toBe(200);
    expect(await codeSentTo('nobody@example.com')).toBeUndefined();
    expect(
      (await call('/home/auth/password/reset', { channel: 'email', target: 'nobody@example.com', code: '123456', password: 'newpass1', confirmPassword: 'newpass1' }))
        .msg,
    ).toBe('wrong verification code');

    await call('/home/auth/code', { channel: 'email', target: 'rita@example.com', purpose: 'register' });
    const registered = await register({ email: 'rita@example.com', code: await codeSentTo('rita@example.com') });
    const oldToken = registered.data.token;
    nowMs += 61_000;
    await call('/home/auth/code', { channel: 'email', target: 'rita@example.com', purpose: 'reset_password' });
    const code = await codeSentTo('rita@example.com');
    const reset = await call('/home/auth/password/reset', {
      channel: 'email',
      target: 'rita@example.com',
      code,
      password: 'newpass1',
      confirmPassword: 'newpass1',
    });
    expect(reset.code).toBe(200);
    const me = await t.app.inject({ url: '/home/user/unread', headers: { authorization: oldToken } });
    expect(me.json()).toMatchObject({ code: 401 });
    expect((await call('/home/auth/login', { account: 'rita@example.com', password: 'secret12', agreement: true })).msg).toBe(
      'account or password incorrect',
    );
    expect((await call('/home/auth/login', { account: 'rita@example.com', password: 'newpass1', agreement: true })).code).toBe(200);
    const [user] = await t.db.query<{ login_password_changed_at: Date }>(`SELECT login_password_changed_at FROM users WHERE email = 'rita@example.com'`);
    expect(user!.login_password_changed_at.getTime()).toBe(nowMs);
  });

  it('slows down repeated failed logins and locks after ten, the same for unknown accounts', async () => {
    address = 6;
    for (const account of ['rita@example.com', 'ghost@example.com']) {
      const attempt = () => call('/home/auth/login', { account, password: 'wrongpass', agreement: true });
      for (let index = 0; index < 3; index++) expect((await attempt()).msg).toBe('account or password incorrect');
      const slowed = await attempt();
      expect(slowed).toMatchObject({ code: 429, data: { retryAfterSeconds: 1 } });
      expect(slowed.headers['retry-after']).toBe('1');
      for (let index = 3; index < 10; index++) {
        nowMs += 1_000 * 2 ** (index - 2);
        expect((await attempt()).msg).toBe('account or password incorrect');
      }
      const locked = await attempt();
      expect(locked).toMatchObject({ code: 429, data: { retryAfterSeconds: 1800 } });
    }
    // The right password does not get through a lock either, and works once it has passed.
    expect((await call('/home/auth/login', { account: 'rita@example.com', password: 'newpass1', agreement: true })).code).toBe(429);
    nowMs += 1_800_000;
    expect((await call('/home/auth/login', { account: 'rita@example.com', password: 'newpass1', agreement: true })).code).toBe(200);
  });
});
