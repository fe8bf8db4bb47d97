import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

interface Answer<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

describe('account security settings', () => {
  let t: TestApp;
  let nowMs = Date.parse('2026-11-22T09:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({}, { now: () => new Date(nowMs) });
  });
  afterAll(() => t.close());

  const call = async <T = Record<string, unknown>>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: unknown) =>
    (
      await t.app.inject({ method, url, headers: { authorization: token }, ...(payload ? { payload: payload as Record<string, unknown> } : {}) })
    ).json() as Answer<T>;
  const login = async (username: string, password: string) =>
    (
      await t.app.inject({ method: 'POST', url: '/home/auth/login', payload: { account: username, password, agreement: true } })
    ).json() as Answer<{ token: string }>;

  it('sets the nickname once; a second attempt is refused', async () => {
    const user = await registerViaApi(t.app, 'nickuser1');
    expect(await call('PUT', '/home/user/nickname', user.token, { nickname: 'Ana' })).toMatchObject({ code: 200, data: { nickname: 'Ana' } });
    expect(await call('PUT', '/home/user/nickname', user.token, { nickname: 'Other' })).toMatchObject({
      code: 400,
      msg: 'nickname can be set only once',
    });
    expect((await call('PUT', '/home/user/nickname', user.token, { nickname: '<b>x</b>' })).code).toBe(400);
  });

  it('changes the login password: wrong original refused, mismatch refused, other sessions end, withdrawals lock 24 h', async () => {
    const user = await registerViaApi(t.app, 'passuser1');
    const other = await login('passuser1', 'secret12');
    expect((await call('PUT', '/home/user/password', user.token, { oldPassword: 'nope1234', password: 'newpass1', confirmPassword: 'newpass1' })).msg).toBe(
      'wrong original password',
    );
    expect((await call('PUT', '/home/user/password', user.token, { oldPassword: 'secret12', password: 'newpass1', confirmPassword: 'newpass2' })).msg).toBe(
      'passwords inconsistent',
    );
    expect((await call('PUT', '/home/user/password', user.token, { oldPassword: 'secret12', password: 'newpass1', confirmPassword: 'newpass1' })).code).toBe(200);
    expect((await call('GET', '/home/user/unread', other.data.token)).code).toBe(401);
    const overview = await call<{ withdrawalsLockedUntil: string | null }>('GET', '/home/user/security', user.token);
    expect(overview.data.withdrawalsLockedUntil).toBe(new Date(nowMs + 24 * 3_600_000).toISOString());
    nowMs += 24 * 3_600_000;
    expect((await call<{ withdrawalsLockedUntil: string | null }>('GET', '/home/user/security', user.token)).data.withdrawalsLockedUntil).toBeNull();
  });

  it('sets the payment password with the login password, changes it with the old one', async () => {
    const user = await registerViaApi(t.app, 'payuser01');
    const set = (body: Record<string, unknown>) => call('PUT', '/home/user/payment-password', user.token, body);
    expect((await set({ loginPassword: 'wrong123', paymentPassword: '135790', confirmPaymentPassword: '135790' })).msg).toBe('wrong login password');
    expect((await set({ loginPassword: 'secret12', paymentPassword: '12345a', confirmPaymentPassword: '12345a' })).code).toBe(400);
    expect((await set({ loginPassword: 'secret12', paymentPassword: '135790', confirmPaymentPassword: '135791' })).msg).toBe('passwords inconsistent');
    expect((await set({ loginPassword: 'secret12', paymentPassword: '135790', confirmPaymentPassword: '135790' })).code).toBe(200);
    expect((await call<{ paymentPasswordSet: boolean }>('GET', '/home/user/security', user.token)).data.paymentPasswordSet).toBe(true);
    // Once set, the login password no longer changes it: the old payment password does.
    expect((await set({ loginPassword: 'secret12', paymentPassword: '246801', confirmPaymentPassword: '246801' })).msg).toBe('wrong payment password');
    expect((await set({ oldPaymentPassword: '135790', paymentPassword: '246801', confirmPaymentPassword: '246801' })).code).toBe(200);
  });

  it('binds an e-mail with a code (the mail carries the anti-phishing code); a taken address is refused', async () => {
    const user = await registerViaApi(t.app, 'binduser1');
    expect((await call('PUT', '/home/user/anti-phishing', user.token, { code: 'Blue42' })).code).toBe(200);
    expect((await call('POST', '/home/user/contact/code', user.token, { channel: 'email', target: 'bind@example.com' })).code).toBe(200);
    const [mail] = await t.db.query<{ body: string }>(`SELECT body FROM notification_outbox WHERE target = 'bind@example.com' ORDER BY id DESC`);
    expect(mail!.body).toContain('Blue42');
    const code = /\b(\d{6})\b/.exec(mail!.body)![1];
    expect((await call('PUT', '/home/user/contact', user.token, { channel: 'email', target: 'bind@example.com', code: '000000' === code ? '111111' : '000000' })).msg).toBe(
      'wrong verification code',
    );
    expect(await call('PUT', '/home/user/contact', user.token, { channel: 'email', target: 'bind@example.com', code })).toMatchObject({
      code: 200,
      data: { email: 'bind@example.com' },
    });
    const other = await registerViaApi(t.app, 'binduser2');
    expect((await call('POST', '/home/user/contact/code', other.token, { channel: 'email', target: 'BIND@example.com' })).msg).toBe(
      'phone or e-mail already registered',
    );
  });

  it('stores contact methods for P2P, bounded and validated', async () => {
    const user = await registerViaApi(t.app, 'contact01');
    const methods = [
      { kind: 'telegram', value: '@ana_trades' },
      { kind: 'phone', value: '+49 170 1234567' },
    ];
    expect(await call('PUT', '/home/user/contact-methods', user.token, { methods })).toMatchObject({ code: 200, data: { methods } });
    expect((await call('GET', '/home/user/security', user.token)).data).toMatchObject({ contactMethods: methods });
    expect((await call('PUT', '/home/user/contact-methods', user.token, { methods: Array(6).fill(methods[0]) })).code).toBe(400);
    expect((await call('PUT', '/home/user/contact-methods', user.token, { methods: [{ kind: 'fax', value: '123' }] })).code).toBe(400);
  });

  it("lists the user's sessions and ends one; another user's session cannot be ended or seen", async () => {
    const user = await registerViaApi(t.app, 'sessuser1');
    const second = await login('sessuser1', 'secret12');
    const list = await call<{ items: { id: string; current: boolean }[] }>('GET', '/home/user/sessions', user.token);
    expect(list.data.items).toHaveLength(2);
    expect(list.data.items.filter((item) => item.current)).toHaveLength(1);
    const secondId = list.data.items.find((item) => !item.current)!.id;

    const intruder = await registerViaApi(t.app, 'intruder1');
    expect((await call('DELETE', `/home/user/sessions/${secondId}`, intruder.token)).code).toBe(404);
    expect((await call<{ items: unknown[] }>('GET', '/home/user/sessions', intruder.token)).data.items).toHaveLength(1);
    expect((await call('GET', '/home/user/unread', second.data.token)).code).toBe(200);

    expect((await call('DELETE', `/home/user/sessions/${secondId}`, user.token)).code).toBe(200);
    expect((await call('GET', '/home/user/unread', second.data.token)).code).toBe(401);
    expect((await call('DELETE', `/home/user/sessions/${secondId}`, user.token)).code).toBe(404);
  });
});
