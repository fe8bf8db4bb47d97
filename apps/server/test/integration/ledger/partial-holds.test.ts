import { transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { addToHold, HoldStateError, placeHold, takeFromHold } from '../../../src/persistence/ledger-holds.store.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, readAccount } from '../../../src/persistence/ledger.store.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

// Holds that many orders draw on (an ad's escrow, ADR 0016): take part out or back, add more; the
// hold stays open with the rest and closes when empty, and frozen always equals the open holds.

const at = new Date('2026-11-22T12:00:00Z');

describe('partial holds', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.dispose());

  it('takes out and back in parts, adds more, refuses to take more than held, closes when empty', async () => {
    const [user] = await t.db.query<{ id: bigint }>(`INSERT INTO users (username, password_hash, invite_code) VALUES ('partial01', 'x', 'PART0001') RETURNING id`);
    const [other] = await t.db.query<{ id: bigint }>(`INSERT INTO users (username, password_hash, invite_code) VALUES ('partial02', 'x', 'PART0002') RETURNING id`);
    const treasury = await ensurePlatformAccount(t.db, 'treasury', 'USDT', { allowNegative: true });
    const seller = await ensureUserAccount(t.db, user!.id, 'coin', 'USDT');
    const buyer = await ensureUserAccount(t.db, other!.id, 'coin', 'USDT');
    await t.db.transaction((tx) => postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, seller, 'USDT', 1_000n), at }));
    const { holdId } = await t.db.transaction((tx) => placeHold(tx, { accountId: seller, amountMinor: 500n, referenceType: 'test', referenceId: 'h1', at }));

    const first = await t.db.transaction((tx) => takeFromHold(tx, { holdId, payouts: [{ toAccountId: buyer, amountMinor: 300n }], returnMinor: 100n, reason: 'test.take', at }));
    expect(first.remainingMinor).toBe(100n);
    expect(await readAccount(t.db, seller)).toMatchObject({ availableMinor: 600n, frozenMinor: 100n });
    expect(await readAccount(t.db, buyer)).toMatchObject({ availableMinor: 300n });
    // One posting per account and bucket: the seller's frozen part −400 once, not −300 and −100.
    const postings = await t.db.query<{ account_id: bigint; bucket: string; amount_minor: string }>(
      'SELECT account_id, bucket, amount_minor FROM postings WHERE entry_id = $1 ORDER BY id',
      [first.entryId],
    );
    expect(postings.map((row) => [row.account_id, row.bucket, BigInt(row.amount_minor)])).toEqual([
      [seller, 'frozen', -400n],
      [buyer, 'available', 300n],
      [seller, 'available', 100n],
    ]);

    await t.db.transaction((tx) => addToHold(tx, { holdId, amountMinor: 50n, reason: 'test.add', at }));
    expect(await readAccount(t.db, seller)).toMatchObject({ availableMinor: 550n, frozenMinor: 150n });
    await expect(t.db.transaction((tx) => takeFromHold(tx, { holdId, returnMinor: 151n, reason: 'test.take', at }))).rejects.toThrow(RangeError);
    expect((await checkLedger(t.db)).problems).toEqual([]);

    const last = await t.db.transaction((tx) => takeFromHold(tx, { holdId, returnMinor: 150n, reason: 'test.take', at }));
    expect(last.remainingMinor).toBe(0n);
    const [hold] = await t.db.query<{ status: string }>('SELECT status FROM ledger_holds WHERE id = $1', [holdId]);
    expect(hold!.status).toBe('released');
    await expect(t.db.transaction((tx) => takeFromHold(tx, { holdId, returnMinor: 1n, reason: 'test.take', at }))).rejects.toThrow(HoldStateError);
    expect(await readAccount(t.db, seller)).toMatchObject({ availableMinor: 700n, frozenMinor: 0n });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
