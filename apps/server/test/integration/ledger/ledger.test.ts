import { LedgerError, transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { captureHold, HoldStateError, placeHold, releaseHold } from '../../../src/persistence/ledger-holds.store.ts';
import {
  ensurePlatformAccount,
  ensureUserAccount,
  IdempotencyConflictError,
  postEntry,
  readAccount,
} from '../../../src/persistence/ledger.store.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

const at = new Date('2026-11-22T12:00:00Z');

describe('ledger store', () => {
  let t: TestDb;
  let treasury: bigint;
  let userSeq = 0;
  beforeAll(async () => {
    t = await createTestDb();
    treasury = await ensurePlatformAccount(t.db, 'treasury', 'USDT', { allowNegative: true });
  });
  afterAll(() => t.dispose());

  async function newUser(): Promise<bigint> {
    userSeq += 1;
    const [row] = await t.db.query<{ id: bigint }>(
      `INSERT INTO users (username, password_hash, invite_code) VALUES ($1, 'x', $2) RETURNING id`,
      [`ledgeruser${userSeq}`, `LEDG${String(userSeq).padStart(4, '0')}`],
    );
    return row!.id;
  }

  async function fundedAccount(amountMinor: bigint): Promise<bigint> {
    const account = await ensureUserAccount(t.db, await newUser(), 'coin', 'USDT');
    await t.db.transaction((tx) => postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, account, 'USDT', amountMinor), at }));
    return account;
  }

  const available = async (accountId: bigint) => (await readAccount(t.db, accountId))!.availableMinor;

  it('moves money between accounts and keeps the books balanced', async () => {
    const from = await fundedAccount(1_000n);
    const to = await ensureUserAccount(t.db, await newUser(), 'coin', 'USDT');
    await t.db.transaction((tx) => postEntry(tx, { reason: 'test.transfer', postings: transferPostings(from, to, 'USDT', 400n), at }));
    expect(await available(from)).toBe(600n);
    expect(await available(to)).toBe(400n);
    expect(await available(treasury)).toBeLessThan(0n);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('refuses to take a user below zero and writes nothing', async () => {
    const from = await fundedAccount(100n);
    const to = await ensureUserAccount(t.db, await newUser(), 'coin', 'USDT');
    const before = (await t.db.query('SELECT count(*)::int AS n FROM journal_entries'))[0];
    await expect(
      t.db.transaction((tx) => postEntry(tx, { reason: 'test.transfer', postings: transferPostings(from, to, 'USDT', 101n), at })),
    ).rejects.toBeInstanceOf(LedgerError);
    expect(await available(from)).toBe(100n);
    expect((await t.db.query('SELECT count(*)::int AS n FROM journal_entries'))[0]).toEqual(before);
  });

  it('the database itself refuses a negative user balance, whatever the code does', async () => {
    const account = await fundedAccount(5n);
    await expect(t.db.query('UPDATE ledger_accounts SET available_minor = -1 WHERE id = $1', [account])).rejects.toThrow();
  });

  it('replays an idempotency key, refuses it with other postings, and posts concurrent duplicates once', async () => {
    const from = await fundedAccount(1_000n);
    const to = await ensureUserAccount(t.db, await newUser(), 'coin', 'USDT');
    const post = (amountMinor: bigint, key: string) =>
      t.db.transaction((tx) => postEntry(tx, { reason: 'test.transfer', idempotencyKey: key, postings: transferPostings(from, to, 'USDT', amountMinor), at }));
    const first = await post(10n, 'key-a');
    const again = await post(10n, 'key-a');
    expect(again).toEqual({ entryId: first.entryId, replayed: true });
    await expect(post(11n, 'key-a')).rejects.toBeInstanceOf(IdempotencyConflictError);
    const results = await Promise.all(Array.from({ length: 8 }, () => post(25n, 'key-b')));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(await available(from)).toBe(1_000n - 10n - 25n);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('concurrent transfers that each spend the whole balance: exactly one succeeds', async () => {
    const from = await fundedAccount(777n);
    const targets = await Promise.all(Array.from({ length: 20 }, async () => ensureUserAccount(t.db, await newUser(), 'coin', 'USDT')));
    const outcomes = await Promise.allSettled(
      targets.map((to) => t.db.transaction((tx) => postEntry(tx, { reason: 'test.transfer', postings: transferPostings(from, to, 'USDT', 777n), at }))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const failed of outcomes.filter((o) => o.status === 'rejected')) {
      expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(LedgerError);
    }
    expect(await available(from)).toBe(0n);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('holds: place, release, capture with the rest returned; one open hold per reference', async () => {
    const account = await fundedAccount(1_000n);
    const fees = await ensurePlatformAccount(t.db, 'fees', 'USDT');
    const { holdId } = await t.db.transaction((tx) =>
      placeHold(tx, { accountId: account, amountMinor: 300n, referenceType: 'withdrawal', referenceId: 'w-1', at }),
    );
    expect(await readAccount(t.db, account)).toMatchObject({ availableMinor: 700n, frozenMinor: 300n });
    await expect(
      t.db.transaction((tx) => placeHold(tx, { accountId: account, amountMinor: 1n, referenceType: 'withdrawal', referenceId: 'w-1', at })),
    ).rejects.toThrow();
    await t.db.transaction((tx) => captureHold(tx, { holdId, toAccountId: fees, amountMinor: 120n, reason: 'withdrawal.complete', at }));
    expect(await readAccount(t.db, account)).toMatchObject({ availableMinor: 880n, frozenMinor: 0n });
    await expect(t.db.transaction((tx) => releaseHold(tx, { holdId, at }))).rejects.toBeInstanceOf(HoldStateError);

    const second = await t.db.transaction((tx) =>
      placeHold(tx, { accountId: account, amountMinor: 880n, referenceType: 'withdrawal', referenceId: 'w-2', at }),
    );
    await expect(
      t.db.transaction((tx) => placeHold(tx, { accountId: account, amountMinor: 1n, referenceType: 'withdrawal', referenceId: 'w-3', at })),
    ).rejects.toBeInstanceOf(LedgerError);
    await t.db.transaction((tx) => releaseHold(tx, { holdId: second.holdId, at }));
    expect(await readAccount(t.db, account)).toMatchObject({ availableMinor: 880n, frozenMinor: 0n });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('the journal is append-only', async () => {
    await expect(t.db.query(`UPDATE journal_entries SET reason = 'x.y'`)).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM postings')).rejects.toThrow(/append-only/);
  });

  it('the check finds a balance that no postings explain', async () => {
    const account = await fundedAccount(50n);
    await t.db.query('UPDATE ledger_accounts SET available_minor = available_minor + 1 WHERE id = $1', [account]);
    const result = await checkLedger(t.db);
    expect(result.ok).toBe(false);
    expect(result.problems.join('\n')).toContain('balances that differ from the sum of their postings');
    await t.db.query('UPDATE ledger_accounts SET available_minor = available_minor - 1 WHERE id = $1', [account]);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });
});
