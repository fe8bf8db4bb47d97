import { LedgerError, transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { postEntriesTogether } from '../../../src/persistence/ledger-bulk.store.ts';
import { ensurePlatformAccount, ensureUserAccount, IdempotencyConflictError, readAccount } from '../../../src/persistence/ledger.store.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

// postEntriesTogether (ADR 0017): many entries in the caller's transaction, all or none.

const at = new Date('2026-11-22T12:00:00Z');

describe('postEntriesTogether', () => {
  let t: TestDb;
  let treasury: bigint;
  let alice: bigint;
  let bob: bigint;
  beforeAll(async () => {
    t = await createTestDb();
    treasury = await ensurePlatformAccount(t.db, 'treasury', 'USDT', { allowNegative: true });
    const [a] = await t.db.query<{ id: bigint }>(`INSERT INTO users (username, password_hash, invite_code) VALUES ('bulkalice', 'x', 'BULKA') RETURNING id`);
    const [b] = await t.db.query<{ id: bigint }>(`INSERT INTO users (username, password_hash, invite_code) VALUES ('bulkbobby', 'x', 'BULKB') RETURNING id`);
    alice = await ensureUserAccount(t.db, a!.id, 'options', 'USDT');
    bob = await ensureUserAccount(t.db, b!.id, 'options', 'USDT');
  });
  afterAll(() => t?.dispose());

  const balance = async (id: bigint) => (await readAccount(t.db, id))!.availableMinor;

  it('posts a chain of entries where a later one spends what an earlier one credited, in one go', async () => {
    const answers = await t.db.transaction((tx) =>
      postEntriesTogether(tx, [
        { reason: 'demo.fund', idempotencyKey: 'bulk-1', postings: transferPostings(treasury, alice, 'USDT', 100n), at },
        { reason: 'transfer.internal', idempotencyKey: 'bulk-2', postings: transferPostings(alice, bob, 'USDT', 60n), at },
        { reason: 'transfer.internal', postings: transferPostings(bob, alice, 'USDT', 10n), at },
      ]),
    );
    expect(answers.map((answer) => answer.replayed)).toEqual([false, false, false]);
    expect(new Set(answers.map((answer) => answer.entryId)).size).toBe(3);
    expect([await balance(alice), await balance(bob)]).toEqual([50n, 50n]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('refuses the whole set when one entry is refused, and writes nothing', async () => {
    const [before] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entries');
    await expect(
      t.db.transaction((tx) =>
        postEntriesTogether(tx, [
          { reason: 'transfer.internal', postings: transferPostings(alice, bob, 'USDT', 50n), at },
          { reason: 'transfer.internal', postings: transferPostings(alice, bob, 'USDT', 1n), at },
        ]),
      ),
    ).rejects.toThrow(LedgerError);
    const [after] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entries');
    expect(after!.n).toBe(before!.n);
    expect([await balance(alice), await balance(bob)]).toEqual([50n, 50n]);
  });

  it('answers entries already in the journal as replays, and refuses a key reused with other postings', async () => {
    const replay = await t.db.transaction((tx) =>
      postEntriesTogether(tx, [
        { reason: 'demo.fund', idempotencyKey: 'bulk-1', postings: transferPostings(treasury, alice, 'USDT', 100n), at },
        { reason: 'transfer.internal', idempotencyKey: 'bulk-3', postings: transferPostings(alice, bob, 'USDT', 5n), at },
      ]),
    );
    expect(replay.map((answer) => answer.replayed)).toEqual([true, false]);
    expect([await balance(alice), await balance(bob)]).toEqual([45n, 55n]);
    await expect(
      t.db.transaction((tx) => postEntriesTogether(tx, [{ reason: 'demo.fund', idempotencyKey: 'bulk-1', postings: transferPostings(treasury, alice, 'USDT', 7n), at }])),
    ).rejects.toThrow(IdempotencyConflictError);
    await expect(
      t.db.transaction((tx) =>
        postEntriesTogether(tx, [
          { reason: 'demo.fund', idempotencyKey: 'bulk-4', postings: transferPostings(treasury, alice, 'USDT', 1n), at },
          { reason: 'demo.fund', idempotencyKey: 'bulk-4', postings: transferPostings(treasury, alice, 'USDT', 1n), at },
        ]),
      ),
    ).rejects.toThrow(/used twice/);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
