import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, totpStepAt } from '../../../src/security/totp.ts';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

interface Answer<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

describe('two-step login with an authenticator app', () => {
  let t: TestApp;
  let nowMs = Date.parse('2026-11-22T09:00:05Z');
  beforeAll(async () => {
    t = await createTestApp({}, { now: () => new Date(nowMs) });
  });
  afterAll(() => t.close());

  const call = async <T = Record<string, unknown>>(url: string, token: string | undefined, payload?: unknown, method: 'GET' | 'POST' = 'POST') =>
    (
      await t.app.inject({ method, url, headers: token ? { authorization: token } : {}, ...(payload ? { payload: payload as Record<string, unknown> } : {}) })
    ).json() as Answer<T>;
  /** What the user's authenticator app shows at `atMs`. */
  const appCode = (secret: string, atMs = nowMs) => hotp(base32Decode(secret), totpStepAt(atMs));

  it('sets up with a confirming code, then asks for a code at login; a code works once', async () => {
    const user = await registerViaApi(t.app, 'totpuser1');
    const setup = await call<{ secret: string; otpauthUri: string }>('/home/user/totp/setup', user.token);
    expect(setup.data.otpauthUri).toContain(`secret=${setup.data.secret}`);
    expect((await call('/home/user/totp/enable', user.token, { code: '000000' === appCode(setup.data.secret) ? '111111' : '000000' })).msg).toBe(
      'wrong verification code',
    );
    expect((await call('/home/user/totp/enable', user.token, { code: appCode(setup.data.secret) })).code).toBe(200);
    expect((await call<{ totpEnabled: boolean }>('/home/user/security', user.token, undefined, 'GET')).data.totpEnabled).toBe(true);

    const login = (body: Record<string, unknown>) => call<{ token: string }>('/home/auth/login', undefined, { account: 'totpuser1', agreement: true, ...body });
    // Without the password nothing reveals that the account has two-step login.
    expect((await login({ password: 'wrongpass' })).msg).toBe('account or password incorrect');
    expect((await login({ password: 'secret12' })).msg).toBe('two-step code required');
    // The code used to enable it is spent; the next step's code works once.
    expect((await login({ password: 'secret12', totp: appCode(setup.data.secret) })).msg).toBe('wrong verification code');
    nowMs += 30_000;
    const code = appCode(setup.data.secret);
    expect((await login({ password: 'secret12', totp: code })).code).toBe(200);
    expect((await login({ password: 'secret12', totp: code })).msg).toBe('wrong verification code');
  });

  it('turns off with the password and a code', async () => {
    const user = await registerViaApi(t.app, 'totpuser2');
    const setup = await call<{ secret: string }>('/home/user/totp/setup', user.token);
    await call('/home/user/totp/enable', user.token, { code: appCode(setup.data.secret) });
    nowMs += 30_000;
    expect((await call('/home/user/totp/disable', user.token, { password: 'nope1234', code: appCode(setup.data.secret) })).msg).toBe('wrong login password');
    expect((await call('/home/user/totp/disable', user.token, { password: 'secret12', code: appCode(setup.data.secret) })).code).toBe(200);
    expect((await call('/home/auth/login', undefined, { account: 'totpuser2', password: 'secret12', agreement: true })).code).toBe(200);
  });
});
