import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createLocalEventBus } from '../../../src/realtime/event-bus.ts';
import { postAd, trader } from '../../helpers/p2p.ts';
import { createStaff, createTestApp, registerViaApi, staffTotpCode, storageNotUsedInThisTest, type TestApp, testConfig } from '../../helpers/test-app.ts';
import { bindAddress, call, coinBalance, fund, walletUser } from '../../helpers/wallet.ts';

// Issue 13, defect 1 ("throttles can be raced") and the concurrency test of every throttle: user
// login, payment password, staff login, verification-code checks and sends, and the per-address
// HTTP limit. Each counter must count an attempt in the same step that lets it be checked, so a
// burst of concurrent guesses gets no more checks than the published rule allows (ADR 0018), and
// must live where every server process sees it (the database; Redis for the HTTP limit).

// The Redis of the suite's machines (TEST_REDIS_URL to point elsewhere), as the realtime tests use.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let nowMs = Date.now();
let t: TestApp;
/** Apps opened by a test on the same database (a second server process), closed at the end. */
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp({ WITHDRAWAL_DAILY_COUNT: '1000' }, { now: () => new Date(nowMs) });
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await t.close();
});

/** A second server on the same database (on PostgreSQL its own pool, as another process would have). */
async function secondApp(env: Record<string, string> = {}, options: { rateLimitRedisPrefix?: string } = {}) {
  const app = await buildApp({
    config: testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent', WITHDRAWAL_DAILY_COUNT: '1000', ...env }),
    db: await t.testDb.openAnother(),
    now: () => new Date(nowMs),
    storage: storageNotUsedInThisTest,
    events: createLocalEventBus(),
    ...options,
  });
  await app.ready();
  extraApps.push(app);
  return app;
}

interface Answer {
  code: number;
  msg: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field.
  data: any;
  retryAfter?: string;
}

async function post(app: FastifyInstance, url: string, payload: Record<string, unknown>, remoteAddress = '127.0.0.1'): Promise<Answer> {
  const response = await app.inject({ method: 'POST', url, payload, remoteAddress });
  return { ...(response.json() as Answer), retryAfter: response.headers['retry-after'] as string | undefined };
}

const userLogin = (account: string, password: string, from: string, app = t.app) =>
  post(app, '/home/auth/login', { account, password, agreement: true }, from);
const staffLogin = (username: string, password: string, from: string, app = t.app, totpCode?: string) =>
  post(app, '/home/admin/auth/login', { username, password, ...(totpCode ? { totpCode } : {}) }, from);
/** The right password and the authenticator's code now (createStaff enrols every member). */
const staffRightLogin = (username: string, from: string) => staffLogin(username, 'staffpass1', from, t.app, staffTotpCode(new Date(nowMs)));

/** How many answers carry each message, e.g. { 'account or password incorrect': 3, 'too many requests': 22 }. */
function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer.code === 200 ? 'success' : answer.msg] = (counts[answer.code === 200 ? 'success' : answer.msg] ?? 0) + 1;
  return counts;
}

const INCORRECT = 'account or password incorrect';
const TOO_MANY = 'too many requests';
const LOCKED = 'payment password locked';

describe('user login', () => {
  it('25 concurrent wrong passwords from one address: 3 are checked, 22 refused 429 — the same for an unknown name', async () => {
    await registerViaApi(t.app, 'racelogin01');
    for (const account of ['racelogin01', 'raceghost01']) {
      const answers = await Promise.all(Array.from({ length: 25 }, (_, index) => userLogin(account, `wrong-${index}`, '192.0.2.10')));
      expect(tally(answers)).toEqual({ [INCORRECT]: 3, [TOO_MANY]: 22 });
      // The refused ones say when to retry: one second after the third failure.
      expect(answers.find((answer) => answer.code === 429)).toMatchObject({ data: { retryAfterSeconds: 1 }, retryAfter: '1' });
    }
    // The right password does not get through the wait either.
    expect((await userLogin('racelogin01', 'secret12', '192.0.2.10')).code).toBe(429);
    nowMs += 1_000;
    expect((await userLogin('racelogin01', 'secret12', '192.0.2.10')).code).toBe(200);
  });

  it('addresses of one IPv6 /64 count as one source', async () => {
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => userLogin('raceghost02', 'wrongpass', `2001:db8:1:2::${(index + 1).toString(16)}`)),
    );
    expect(tally(answers)).toEqual({ [INCORRECT]: 3, [TOO_MANY]: 22 });
  });

  it('a stranger cannot lock the owner out: failures from other addresses never refuse the owner’s address', async () => {
    await registerViaApi(t.app, 'racevictim1');
    // One address locks itself (ten failures, waiting as told) …
    for (let failure = 0; failure < 10; failure += 1) {
      nowMs += 120_000;
      expect((await userLogin('racevictim1', 'wrongpass', '198.51.100.1')).msg).toBe(INCORRECT);
    }
    expect((await userLogin('racevictim1', 'secret12', '198.51.100.1')).data).toEqual({ retryAfterSeconds: 1800 });
    // … and eight more addresses try four times each at once: three are checked from each (the name
    // now has 34 failures in the hour: it is under attack).
    const burst = await Promise.all(
      Array.from({ length: 8 * 4 }, (_, index) => userLogin('racevictim1', `guess-${index}`, `198.51.100.${10 + (index % 8)}`)),
    );
    expect(tally(burst)).toEqual({ [INCORRECT]: 24, [TOO_MANY]: 8 });
    // The owner, from an address that has not failed, is checked at once and gets in.
    expect((await userLogin('racevictim1', 'secret12', '203.0.113.77')).code).toBe(200);
    // While the name is under attack each address locks after 5 failures instead of 10 (ADR 0018).
    const owner = '203.0.113.78';
    for (let failure = 0; failure < 5; failure += 1) {
      nowMs += 5_000;
      expect((await userLogin('racevictim1', 'wrongpass', owner)).msg).toBe(INCORRECT);
    }
    nowMs += 5_000;
    expect((await userLogin('racevictim1', 'secret12', owner)).data).toEqual({ retryAfterSeconds: 1800 - 5 });
    // Only that address: the owner's other one still works.
    expect((await userLogin('racevictim1', 'secret12', '203.0.113.77')).code).toBe(200);
  });

  it('two server processes on one database share the counter: a burst split across both gets 3 checks', async () => {
    const other = await secondApp();
    await registerViaApi(t.app, 'racetwoapps');
    const answers = await Promise.all(
      Array.from({ length: 26 }, (_, index) => userLogin('racetwoapps', `wrong-${index}`, '192.0.2.20', index % 2 === 0 ? t.app : other)),
    );
    expect(tally(answers)).toEqual({ [INCORRECT]: 3, [TOO_MANY]: 23 });
    expect((await userLogin('racetwoapps', 'secret12', '192.0.2.20', other)).code).toBe(429);
  });
});

describe('payment password', () => {
  it('200 concurrent withdrawals with 200 guesses: 5 are checked, then it is locked for 24 h — the right guess among the later ones too', async () => {
    const user = await walletUser(t.app, t.db, 'racepay0001', { ready: true });
    await fund(t.db, user.userId, 'USDT', '10000');
    const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });
    const guesses = Array.from({ length: 199 }, (_, index) => (100_000 + index).toString());
    guesses.push('135790');
    const lockedAtMs = nowMs;
    const answers = await Promise.all(
      guesses.map((paymentPassword) =>
        call(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '10', paymentPassword }),
      ),
    );
    expect(tally(answers as Answer[])).toEqual({ 'wrong payment password': 5, [LOCKED]: 195 });
    // Each checked guess says how many are left (the fifth: none, it is now locked).
    const left = answers.filter((answer) => answer.msg === 'wrong payment password').map((answer) => answer.data.failuresLeft);
    expect(left.sort()).toEqual([0, 1, 2, 3, 4]);
    const until = new Date(lockedAtMs + 24 * 3_600_000).toISOString();
    expect(answers.at(-1)).toMatchObject({ code: 429, msg: LOCKED, data: { until, maxFailures: 5 } });
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 10_000_000_000n, frozenMinor: 0n });

    // The state is published, and the lock holds for every use of the payment password.
    const security = await call(t.app, 'GET', '/home/user/security', user.token);
    expect(security.data.paymentPasswordLock).toEqual({ maxFailures: 5, lockMinutes: 24 * 60, failuresLeft: 0, lockedUntil: until });
    const change = await call(t.app, 'PUT', '/home/user/payment-password', user.token, {
      oldPaymentPassword: '135790',
      paymentPassword: '246802',
      confirmPaymentPassword: '246802',
    });
    expect(change).toMatchObject({ msg: LOCKED, data: { until } });

    nowMs += 24 * 3_600_000;
    const after = await call(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '10', paymentPassword: '135790' });
    expect(after.code).toBe(200);
    expect((await call(t.app, 'GET', '/home/user/security', user.token)).data.paymentPasswordLock).toMatchObject({ failuresLeft: 5, lockedUntil: null });
  });

  it('one guess sent many times at once is one attempt: 30 identical wrong ones cost one try, 20 right ones all pass', async () => {
    const user = await walletUser(t.app, t.db, 'racepay0002', { ready: true });
    await fund(t.db, user.userId, 'USDT', '1000');
    const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });
    const withdraw = (paymentPassword: string) =>
      call(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '10', paymentPassword });
    const wrong = await Promise.all(Array.from({ length: 30 }, () => withdraw('000001')));
    expect(tally(wrong as Answer[])).toEqual({ 'wrong payment password': 30 });
    expect((await call(t.app, 'GET', '/home/user/security', user.token)).data.paymentPasswordLock.failuresLeft).toBe(4);
    // A burst of payments with the right password (a double click, retries) does not fill the budget and lock it.
    const right = await Promise.all(Array.from({ length: 20 }, () => withdraw('135790')));
    expect(tally(right as Answer[])).toEqual({ success: 20 });
    expect((await call(t.app, 'GET', '/home/user/security', user.token)).data.paymentPasswordLock.failuresLeft).toBe(5);
  });

  it('concurrent P2P releases with wrong guesses lock it too, and the right one is then refused', async () => {
    const seller = await trader(t.app, t.db, 'racesell001', '1000');
    const buyer = await trader(t.app, t.db, 'racebuy0001');
    const ad = await postAd(t.app, seller, '500');
    const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100' });
    expect((await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/paid`, buyer.token)).code).toBe(200);
    const release = (paymentPassword: string) => call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/release`, seller.token, { paymentPassword });
    const answers = await Promise.all([...Array.from({ length: 40 }, (_, index) => release((200_000 + index).toString())), release('135790')]);
    expect(tally(answers as Answer[])).toEqual({ 'wrong payment password': 5, [LOCKED]: 36 });
    expect(answers.at(-1)!.msg).toBe(LOCKED);
    expect((await call(t.app, 'GET', `/home/p2p/orders/${placed.data.id}`, seller.token)).data.status).toBe('paid');
  });
});

describe('staff login', () => {
  it('12 concurrent wrong passwords, then the right one: refused while throttled and while locked, accepted after', async () => {
    await createStaff(t.app, t.db, 'racestaff1', ['support']);
    const burst = await Promise.all(Array.from({ length: 12 }, (_, index) => staffLogin('racestaff1', `wrong-${index}`, '192.0.2.30')));
    expect(tally(burst)).toEqual({ [INCORRECT]: 3, [TOO_MANY]: 9 });
    expect((await staffRightLogin('racestaff1', '192.0.2.30')).code).toBe(429);
    // Waiting as told, seven more bursts get one check each: ten failures lock the name at this address.
    for (let failure = 3; failure < 10; failure += 1) {
      nowMs += 1_000 * 2 ** (failure - 3);
      const next = await Promise.all(Array.from({ length: 5 }, () => staffLogin('racestaff1', 'wrongpass', '192.0.2.30')));
      expect(tally(next)).toEqual({ [INCORRECT]: 1, [TOO_MANY]: 4 });
    }
    expect(await staffRightLogin('racestaff1', '192.0.2.30')).toMatchObject({ code: 429, data: { retryAfterSeconds: 1800 } });
    // The same answers for a staff name that does not exist.
    const ghost = await Promise.all(Array.from({ length: 12 }, (_, index) => staffLogin('raceghost9', `wrong-${index}`, '192.0.2.30')));
    expect(tally(ghost)).toEqual({ [INCORRECT]: 3, [TOO_MANY]: 9 });
    nowMs += 1_800_000;
    expect((await staffRightLogin('racestaff1', '192.0.2.30')).code).toBe(200);
  });

  it('the right password with 12 concurrent wrong authenticator codes: 3 are checked, and they count as failures', async () => {
    await createStaff(t.app, t.db, 'racestaff3', ['support']);
    // The next authenticator step: the code createStaff logged in with cannot be used twice.
    nowMs += 30_000;
    const right = staffTotpCode(new Date(nowMs));
    const wrongCodes = Array.from({ length: 12 }, (_, index) => ((Number(right) + 1 + index) % 1_000_000).toString().padStart(6, '0'));
    const answers = await Promise.all(wrongCodes.map((code) => staffLogin('racestaff3', 'staffpass1', '192.0.2.32', t.app, code)));
    expect(tally(answers)).toEqual({ 'wrong verification code': 3, [TOO_MANY]: 9 });
    expect((await staffRightLogin('racestaff3', '192.0.2.32')).code).toBe(429);
    // Without a code the right password is answered "code required", which is no guess: it is not
    // counted (had these two counted, five failures would make the next wait 4 s, not 1 s).
    for (let asked = 0; asked < 2; asked += 1) {
      nowMs += 1_000;
      expect((await staffLogin('racestaff3', 'staffpass1', '192.0.2.32')).msg).toBe('two-step code required');
    }
    nowMs += 1_000;
    expect((await staffRightLogin('racestaff3', '192.0.2.32')).code).toBe(200);
  });

  it('a second server process sees the same staff counter', async () => {
    const other = await secondApp();
    await createStaff(t.app, t.db, 'racestaff2', ['support']);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => staffLogin('racestaff2', `wrong-${index}`, '192.0.2.31', index % 2 === 0 ? t.app : other)),
    );
    expect(tally(answers)).toEqual({ [INCORRECT]: 3, [TOO_MANY]: 9 });
  });
});

describe('verification codes', () => {
  /** The code as the person would read it: from the last message queued to them. */
  const codeSentTo = async (target: string) => {
    const [row] = await t.db.query<{ body: string }>('SELECT body FROM notification_outbox WHERE target = $1 ORDER BY id DESC LIMIT 1', [target]);
    return /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
  };
  const sendCode = (target: string, from: string) => post(t.app, '/home/auth/code', { channel: 'email', target, purpose: 'register' }, from);

  it('30 concurrent registrations with wrong codes: the code takes 5 guesses, then even the right one is refused', async () => {
    expect((await sendCode('racecode@example.com', '192.0.2.40')).code).toBe(200);
    const code = (await codeSentTo('racecode@example.com'))!;
    const register = (guess: string) =>
      post(t.app, '/home/auth/register', { email: 'racecode@example.com', code: guess, password: 'secret12', confirmPassword: 'secret12', agreement: true }, '192.0.2.40');
    const wrong = Array.from({ length: 30 }, (_, index) => ((Number(code) + 1 + index) % 1_000_000).toString().padStart(6, '0'));
    const answers = await Promise.all(wrong.map(register));
    expect(tally(answers)).toEqual({ 'wrong verification code': 30 });
    const [row] = await t.db.query<{ attempts: number }>(`SELECT attempts FROM verification_codes WHERE target = 'racecode@example.com'`);
    expect(row!.attempts).toBe(5);
    expect((await register(code)).msg).toBe('wrong verification code');
  });

  it('20 concurrent sends to one target: one is sent, 19 wait a minute', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendCode('racesend@example.com', '192.0.2.41')));
    expect(tally(answers)).toEqual({ success: 1, [TOO_MANY]: 19 });
    const [row] = await t.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM verification_codes WHERE target = 'racesend@example.com'`);
    expect(row!.count).toBe(1);
  });

  it('30 concurrent sends to 30 targets from one address: 20 are sent (the hourly limit per address)', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => sendCode(`racefan${index}@example.com`, '192.0.2.42')));
    expect(tally(answers)).toEqual({ success: 20, [TOO_MANY]: 10 });
    const [row] = await t.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM verification_codes WHERE requested_by_ip = '192.0.2.42'`);
    expect(row!.count).toBe(20);
  });
});

describe('the per-address HTTP limit with REDIS_URL', () => {
  it('two server processes count one address together in Redis', async () => {
    const env = { REDIS_URL: redisUrl, AUTH_RATE_LIMIT_PER_MINUTE: '5' };
    const rateLimitRedisPrefix = `keel-test-${randomBytes(6).toString('hex')}:`;
    const first = await secondApp(env, { rateLimitRedisPrefix });
    const second = await secondApp(env, { rateLimitRedisPrefix });
    const from = '192.0.2.50';
    // Login bodies that fail validation still count: the limit is per request, before the body is read.
    const answers: Answer[] = [];
    for (let index = 0; index < 6; index += 1) answers.push(await userLogin(`ratelimit${index}`, '', from, index % 2 === 0 ? first : second));
    expect(answers.slice(0, 5).every((answer) => answer.code !== 429)).toBe(true);
    expect(answers[5]).toMatchObject({ code: 429, msg: TOO_MANY, data: { retryAfterSeconds: expect.any(Number) } });
    // Another address is not affected.
    expect((await userLogin('ratelimit9', '', '192.0.2.51', second)).code).not.toBe(429);
  });
});
