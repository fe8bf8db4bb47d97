import { parseProofFile, verifyInclusionProof, webCryptoSha256 } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { placeHold } from '../../../src/persistence/ledger-holds.store.ts';
import { ensureUserAccount } from '../../../src/persistence/ledger.store.ts';
import { scheduleLiabilitySnapshot, takeLiabilitySnapshot } from '../../../src/use-cases/proof/liability-snapshots.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, fund, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Proof of liabilities (issue 22, ADR 0040): a snapshot's totals are the users' balances (available
// and frozen, every account kind and asset) and nothing of the platform's; every user's proof,
// fetched through the API, verifies against the published root with Web Crypto and shows their
// balances; published snapshots never change.

let t: TestApp;
let admin: string;
let finance: string;
let alice: WalletUser;
let bob: WalletUser;
let nowMs = Date.UTC(2026, 10, 28, 9, 30);
const deps = () => ({ db: t.db, now: () => new Date(nowMs), logger: t.app.log, config: t.config });

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(nowMs) });
  admin = await createStaff(t.app, t.db, 'proofadmin1', ['admin']);
  finance = await createStaff(t.app, t.db, 'prooffinance1', ['finance']);
  alice = await walletUser(t.app, t.db, 'proofalice1');
  bob = await walletUser(t.app, t.db, 'proofbob01');
  await fund(t.db, alice.userId, 'USDT', '1250.5');
  await fund(t.db, alice.userId, 'BTC', '0.25');
  await fund(t.db, alice.userId, 'USDT', '40', 'leveraged');
  await fund(t.db, bob.userId, 'ETH', '3');
  // Bob's frozen part (an open order's hold) is still his.
  await t.db.transaction(async (tx) => {
    const account = await ensureUserAccount(tx, BigInt(bob.userId), 'coin', 'ETH');
    await placeHold(tx, { accountId: account, amountMinor: 10n ** 18n, referenceType: 'test', referenceId: 'proof', at: new Date(nowMs) });
  });
});
afterAll(() => t?.close());

const published = async () => (await call(t.app, 'GET', '/home/proof/snapshots', null)).data;
const mine = (user: WalletUser, id: string) => call(t.app, 'GET', `/home/proof/snapshots/${id}/mine`, user.token);

describe('taking and publishing a snapshot', () => {
  let snapshotId: string;

  it('an admin asks for one (finance may not); asking again answers the waiting request', async () => {
    expect((await published()).items).toEqual([]);
    expect((await call(t.app, 'POST', '/home/admin/proof/snapshots', finance, undefined, null)).msg).toBe('permission denied');
    const asked = await call(t.app, 'POST', '/home/admin/proof/snapshots', admin, undefined, null);
    expect(asked.data).toMatchObject({ kind: 'requested', status: 'pending', published: null });
    expect((await call(t.app, 'POST', '/home/admin/proof/snapshots', admin, undefined, null)).data.id).toBe(asked.data.id);
    snapshotId = asked.data.id;
  });

  it('the job publishes it: totals are every user balance, frozen included, and no platform account', async () => {
    expect(await takeLiabilitySnapshot(deps())).toBe(BigInt(snapshotId));
    expect(await takeLiabilitySnapshot(deps())).toBeNull();
    const { items, total } = await published();
    expect(total).toBe(1);
    const [users] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(items[0]).toMatchObject({
      id: snapshotId,
      status: 'published',
      published: {
        snapshotId,
        takenAt: new Date(nowMs).toISOString(),
        assets: [
          { code: 'BTC', scale: 8 },
          { code: 'ETH', scale: 18 },
          { code: 'USDT', scale: 6 },
        ],
        leafCount: users!.n,
        totalsMinor: ['25000000', '3000000000000000000', '1290500000'],
      },
      totals: [
        { asset: 'BTC', amount: '0.25000000' },
        { asset: 'ETH', amount: '3.000000000000000000' },
        { asset: 'USDT', amount: '1290.500000' },
      ],
    });
    expect(items[0].published.rootHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(t.app, 'GET', `/home/proof/snapshots/${snapshotId}`, null)).data).toEqual(items[0]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('each user’s proof verifies against the published root and shows their balances; a changed one does not', async () => {
    const aliceFile = await mine(alice, snapshotId);
    expect(aliceFile.code).toBe(200);
    const parsed = parseProofFile(JSON.stringify(aliceFile.data));
    if (!parsed.ok) throw new Error(parsed.at);
    const verified = await verifyInclusionProof(parsed.value.proof, parsed.value.published, webCryptoSha256);
    expect(verified).toMatchObject({ ok: true, balancesMinor: [25_000_000n, 0n, 1_290_500_000n] });
    expect(aliceFile.data.proof.userId).toBe(alice.userId);

    const bobFile = (await mine(bob, snapshotId)).data;
    const bobParsed = parseProofFile(JSON.stringify(bobFile));
    if (!bobParsed.ok) throw new Error(bobParsed.at);
    expect(await verifyInclusionProof(bobParsed.value.proof, bobParsed.value.published, webCryptoSha256)).toMatchObject({
      ok: true,
      balancesMinor: [0n, 3_000_000_000_000_000_000n, 0n],
    });

    const richer = { ...aliceFile.data, proof: { ...aliceFile.data.proof, balancesMinor: ['25000000', '0', '1290500001'] } };
    const tampered = parseProofFile(JSON.stringify(richer));
    if (!tampered.ok) throw new Error(tampered.at);
    expect(await verifyInclusionProof(tampered.value.proof, tampered.value.published, webCryptoSha256)).toMatchObject({ ok: false });
  });

  it('a user who registered after the snapshot is not in it; a proof needs a session; an unknown snapshot is not found', async () => {
    const carol = await walletUser(t.app, t.db, 'proofcarol1');
    expect((await mine(carol, snapshotId)).data).toEqual({ reason: 'not_in_snapshot' });
    expect((await call(t.app, 'GET', `/home/proof/snapshots/${snapshotId}/mine`, null)).code).toBe(401);
    expect((await mine(alice, '987654321')).msg).toBe('record does not exist');
  });

  it('the next snapshot of the same balances has another root (new salts); both stay published, unchangeable', async () => {
    nowMs += 60_000;
    await call(t.app, 'POST', '/home/admin/proof/snapshots', admin, undefined, null);
    const second = await takeLiabilitySnapshot(deps());
    const { items } = await published();
    expect(items.map((each: { id: string }) => each.id)).toEqual([second!.toString(), snapshotId]);
    expect(items[0].published.rootHash).not.toBe(items[1].published.rootHash);
    expect(items[0].published.totalsMinor.slice(0, 2)).toEqual(items[1].published.totalsMinor.slice(0, 2));
    await expect(t.db.query(`UPDATE liability_snapshots SET root_hash = repeat('0', 64) WHERE id = $1`, [snapshotId])).rejects.toThrow(/never changed/);
    await expect(t.db.query('DELETE FROM liability_snapshot_leaves WHERE snapshot_id = $1', [snapshotId])).rejects.toThrow(/never changed/);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});

describe('the schedule', () => {
  it('one snapshot per scheduled time, whichever node and however often it looks; after downtime only the latest', async () => {
    const slots = async () => (await t.db.query<{ slot: Date }>(`SELECT slot_at AS slot FROM liability_snapshots WHERE kind = 'scheduled' ORDER BY id`)).map((row) => row.slot.toISOString());
    nowMs = Date.UTC(2026, 10, 29, 0, 0, 5);
    await Promise.all([scheduleLiabilitySnapshot(deps()), scheduleLiabilitySnapshot(deps())]);
    await scheduleLiabilitySnapshot(deps());
    expect(await slots()).toEqual(['2026-11-29T00:00:00.000Z']);
    expect(await takeLiabilitySnapshot(deps())).not.toBeNull();
    // Three days later: only the latest missed time is taken (the past cannot be read again).
    nowMs = Date.UTC(2026, 11, 2, 13, 0);
    await scheduleLiabilitySnapshot(deps());
    expect(await slots()).toEqual(['2026-11-29T00:00:00.000Z', '2026-12-02T00:00:00.000Z']);
    expect(await takeLiabilitySnapshot(deps())).not.toBeNull();
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
