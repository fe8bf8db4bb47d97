import { parseProofFile, verifyInclusionProof, webCryptoSha256 } from '@keel/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { latestSnapshotSlotMs, myInclusionProof } from '../../../src/use-cases/proof/liability-snapshots.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { fund } from '../../helpers/wallet.ts';

// Issue 22, "jobs survive a SIGKILL": a process taking the scheduled proof-of-liabilities snapshot
// dies by SIGKILL inside its transaction, after the tree's levels were written and while the users'
// leaves were being written (test/helpers/proof-snapshot-crash.ts). Nothing of it may remain: the
// snapshot still pending, no level, no leaf. Then the real server starts on the same database; its
// job takes the snapshot once — the scheduled time's one row, every user a leaf — and every user's
// proof verifies. PGlite (a data folder the process owns) and PostgreSQL (a fresh schema).

const USERS = 12;
const PUBLISHED_LINE = 'liability snapshot published';
const world = crashWorld('proof-crash');

afterAll(() => world.dispose());

describe('a crash in the middle of a proof-of-liabilities snapshot', () => {
  it('leaves nothing half-written, and the restarted job publishes it once', { timeout: 240_000 }, async () => {
    const setupDb = await world.openDb();
    await migrate(setupDb);
    const setupApp = await buildApp({ config: testConfig({ DATA_DIR: '/nonexistent' }), db: setupDb, storage: storageNotUsedInThisTest });
    const userIds: string[] = [];
    for (let u = 0; u < USERS; u += 1) {
      const user = await registerViaApi(setupApp, `proofcrash${u}`);
      await fund(setupDb, user.userId, 'USDT', `${100 + u}`);
      if (u % 3 === 0) await fund(setupDb, user.userId, 'BTC', '0.5', 'fiat');
      userIds.push(user.userId);
    }
    await setupApp.close();
    // The scheduled time the server will also find when it starts (PROOF_SNAPSHOT_TIME_UTC 00:00): one row for it.
    const slot = new Date(latestSnapshotSlotMs(Date.now(), '00:00'));
    await setupDb.query(`INSERT INTO liability_snapshots (kind, slot_at, requested_at) VALUES ('scheduled', $1, now())`, [slot]);
    await setupDb.close();

    const crashing = world.spawnScript('apps/server/test/helpers/proof-snapshot-crash.ts');
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toMatch(/killing myself while writing the leaves, [1-9][0-9]* levels written/);

    const midway = await world.openDb();
    expect(await midway.query('SELECT status FROM liability_snapshots')).toEqual([{ status: 'pending' }]);
    expect(await midway.query('SELECT count(*)::int AS n FROM liability_snapshot_levels')).toEqual([{ n: 0 }]);
    expect(await midway.query('SELECT count(*)::int AS n FROM liability_snapshot_leaves')).toEqual([{ n: 0 }]);
    await midway.close();

    const server = await world.startServer({}, PUBLISHED_LINE);
    const doneBy = Date.now() + 120_000;
    while (!server.output.join('').includes(PUBLISHED_LINE)) {
      if (Date.now() > doneBy) throw new Error(`no snapshot 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
      await sleep(250);
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);

    const db = await world.openDb();
    try {
      const snapshots = await db.query<{ id: bigint; kind: string; slot: Date; status: string; leaves: number }>(
        `SELECT id, kind, slot_at AS slot, status, leaf_count AS leaves FROM liability_snapshots`,
      );
      expect(snapshots).toEqual([{ id: expect.anything(), kind: 'scheduled', slot, status: 'published', leaves: USERS }]);
      const [leafRows] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM liability_snapshot_leaves');
      expect(leafRows!.n).toBe(USERS);
      for (const userId of userIds) {
        const file = parseProofFile(JSON.stringify(await myInclusionProof(db, BigInt(userId), snapshots[0]!.id)));
        if (!file.ok) throw new Error(file.at);
        expect(await verifyInclusionProof(file.value.proof, file.value.published, webCryptoSha256), userId).toMatchObject({ ok: true });
      }
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
