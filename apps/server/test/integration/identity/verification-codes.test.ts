import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCode, codeSendDecision, consumeCode, issueCode } from '../../../src/persistence/verification-codes.store.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

describe('verification codes', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.dispose());
  const now = new Date('2026-11-22T12:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);
  const issue = (target: string, at = now, clientIp = '203.0.113.1') =>
    t.db.transaction((tx) => issueCode(tx, { purpose: 'register', channel: 'email', target, clientIp, now: at }));

  it('stores only a salted hash: the code is not in the table', async () => {
    const { code, expiresAt } = await issue('hash@example.com');
    expect(code).toMatch(/^\d{6}$/);
    expect(expiresAt.getTime() - now.getTime()).toBe(CODE_TTL_MS);
    const [row] = await t.db.query<{ code_hash: string }>(`SELECT code_hash FROM verification_codes WHERE target = 'hash@example.com'`);
    expect(row!.code_hash).not.toContain(code);
  });

  it('accepts the right code once: a second consume of the same code fails', async () => {
    const { code } = await issue('once@example.com');
    const check = await checkCode(t.db, { purpose: 'register', target: 'once@example.com', code, now });
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const results = await Promise.all([1, 2, 3].map(() => t.db.transaction((tx) => consumeCode(tx, check.codeId, now))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await checkCode(t.db, { purpose: 'register', target: 'once@example.com', code, now })).ok).toBe(false);
  });

  it('refuses another purpose, a malformed code and an expired code', async () => {
    const { code } = await issue('scope@example.com');
    expect((await checkCode(t.db, { purpose: 'reset_password', target: 'scope@example.com', code, now })).ok).toBe(false);
    expect((await checkCode(t.db, { purpose: 'register', target: 'scope@example.com', code: `${code} `, now })).ok).toBe(false);
    expect((await checkCode(t.db, { purpose: 'register', target: 'scope@example.com', code, now: later(CODE_TTL_MS) })).ok).toBe(false);
    expect((await checkCode(t.db, { purpose: 'register', target: 'scope@example.com', code, now: later(CODE_TTL_MS - 1) })).ok).toBe(true);
  });

  it('counts wrong guesses even though the caller rolls back, and kills the code after the limit', async () => {
    const { code } = await issue('guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < CODE_MAX_ATTEMPTS; attempt++) {
      expect((await checkCode(t.db, { purpose: 'register', target: 'guess@example.com', code: wrong, now })).ok).toBe(false);
    }
    // The right code no longer works: the guesses are spent.
    expect((await checkCode(t.db, { purpose: 'register', target: 'guess@example.com', code, now })).ok).toBe(false);
    const [row] = await t.db.query<{ attempts: number }>(`SELECT attempts FROM verification_codes WHERE target = 'guess@example.com'`);
    expect(row!.attempts).toBe(CODE_MAX_ATTEMPTS);
  });

  it('a newer code replaces the older one', async () => {
    const first = await issue('newer@example.com');
    const second = await issue('newer@example.com', later(61_000));
    expect((await checkCode(t.db, { purpose: 'register', target: 'newer@example.com', code: first.code, now: later(62_000) })).ok).toBe(
      first.code === second.code,
    );
    expect((await checkCode(t.db, { purpose: 'register', target: 'newer@example.com', code: second.code, now: later(62_000) })).ok).toBe(true);
  });

  it('limits sends per target (a minute apart, five an hour) and per client address, from the table', async () => {
    await issue('limit@example.com', now, '198.51.100.7');
    expect(await codeSendDecision(t.db, { target: 'limit@example.com', clientIp: '198.51.100.8', now: later(30_000) })).toEqual({
      allowed: false,
      retryAfterMs: 30_000,
    });
    for (let minute = 1; minute < 5; minute++) await issue('limit@example.com', later(minute * 60_000), '198.51.100.7');
    expect(await codeSendDecision(t.db, { target: 'limit@example.com', clientIp: '198.51.100.8', now: later(10 * 60_000) })).toEqual({
      allowed: false,
      retryAfterMs: 50 * 60_000,
    });
    for (let index = 0; index < 15; index++) await issue(`spray${index}@example.com`, now, '198.51.100.7');
    expect(await codeSendDecision(t.db, { target: 'fresh@example.com', clientIp: '198.51.100.7', now: later(1_000) })).toMatchObject({
      allowed: false,
    });
    expect(await codeSendDecision(t.db, { target: 'fresh@example.com', clientIp: '198.51.100.9', now: later(1_000) })).toEqual({ allowed: true });
  });
});
