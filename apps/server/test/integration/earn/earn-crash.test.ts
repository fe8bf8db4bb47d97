import { daysDueBy } from '@keel/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { seedSubscriptions } from '../../helpers/earn-seed.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { testDbKind } from '../../helpers/test-db.ts';
import { fund } from '../../helpers/wallet.ts';
import { addProduct, fundTreasury, specProduct, usdt } from './earn-helpers.ts';

// Issue 17, "a crash test": 1,000 subscriptions whose payout job was down for three days. A payout
// process pays them in batches of 100 and dies by SIGKILL inside the third batch's transaction
// (test/helpers/earn-payout-crash.ts): two batches committed, the third lost. Then the real server
// starts on the same database and must pay every (subscription, day) exactly once — three days
// each, with the day each belongs to — one keyed journal entry per day, the ledger check passing.
// PGlite (a data folder the process owns) and PostgreSQL (a fresh schema).

const USERS = 10;
const PER_USER = 100;
const TOTAL = USERS * PER_USER;
const PAID_LINE = 'earn: interest paid';
const world = crashWorld('earn-crash');

afterAll(() => world.dispose());

const paidDaysOf = async (db: Awaited<ReturnType<typeof world.openDb>>) =>
  Object.fromEntries(
    (await db.query<{ paid_days: number; n: number }>('SELECT paid_days, count(*)::int AS n FROM earn_subscriptions GROUP BY paid_days ORDER BY paid_days')).map(
      (row) => [row.paid_days, row.n],
    ),
  );

describe('a crash in the middle of a payout run', () => {
  it('pays each (subscription, day) exactly once after SIGKILL and a restart three days late', { timeout: 240_000 }, async () => {
    // Subscribed 3 days and 30 minutes ago; the payout time is 45 minutes ago each day: three
    // payout times have passed since (2 d 45 min, 1 d 45 min and 45 min ago), none was paid.
    const nowMs = Date.now();
    const subscribedAtMs = nowMs - 3 * 86_400_000 - 30 * 60_000;
    const payoutMinuteUtc = Math.floor(((nowMs - 45 * 60_000) % 86_400_000) / 60_000);
    expect(daysDueBy(subscribedAtMs, payoutMinuteUtc, 10, nowMs)).toBe(3);

    const setupDb = await world.openDb();
    await migrate(setupDb);
    const productId = await addProduct(setupDb, specProduct({ name: 'Crash', cycleDays: 10, payoutMinuteUtc, totalQuotaMinor: usdt('10000000'), userQuotaMinor: usdt('1000000') }));
    await fundTreasury(setupDb, '100000');
    const setupApp = await buildApp({ config: testConfig({ DATA_DIR: '/nonexistent' }), db: setupDb, storage: storageNotUsedInThisTest });
    const userIds: bigint[] = [];
    for (let u = 0; u < USERS; u += 1) {
      const user = await registerViaApi(setupApp, `earncrash${u}`);
      await fund(setupDb, user.userId, 'USDT', '100000');
      userIds.push(BigInt(user.userId));
    }
    await setupApp.close();
    await seedSubscriptions(setupDb, { productId: BigInt(productId), userIds, perUser: PER_USER, principalMinor: usdt('1000'), subscribedAtMs });
    expect((await checkLedger(setupDb)).problems).toEqual([]);
    await setupDb.close();

    const crashing = world.spawnScript('apps/server/test/helpers/earn-payout-crash.ts');
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toContain('killing myself inside the third batch');

    // Killed mid-run: two batches of 100 paid their three days, the third's writes lost.
    const midway = await world.openDb();
    expect(await paidDaysOf(midway)).toEqual({ 0: TOTAL - 200, 3: 200 });
    expect((await checkLedger(midway)).problems).toEqual([]);
    await midway.close();

    const server = await world.startServer({}, PAID_LINE);
    const doneBy = Date.now() + 120_000;
    if (testDbKind === 'postgres') {
      const watch = await world.openDb();
      try {
        while ((await paidDaysOf(watch))[3] !== TOTAL) {
          if (Date.now() > doneBy) throw new Error(`payouts still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
          await sleep(250);
        }
      } finally {
        await watch.close();
      }
    } else {
      // PGlite has one owner: count what the server reports paying.
      const paidSoFar = () =>
        server.output
          .join('')
          .split('\n')
          .filter((line) => line.includes(PAID_LINE))
          .reduce((sum, line) => sum + (JSON.parse(line) as { subscriptions: number }).subscriptions, 0);
      while (paidSoFar() < TOTAL - 200) {
        if (Date.now() > doneBy) throw new Error(`payouts still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
        await sleep(250);
      }
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);

    const db = await world.openDb();
    try {
      expect(await paidDaysOf(db)).toEqual({ 3: TOTAL });
      // One payout row and one keyed entry per (subscription, day), each day with its own due time.
      const days = await db.query<{ day: number; n: number; due: number }>(
        'SELECT day, count(*)::int AS n, count(DISTINCT due_at_ms)::int AS due FROM earn_payouts GROUP BY day ORDER BY day',
      );
      expect(days).toEqual([1, 2, 3].map((day) => ({ day, n: TOTAL, due: 1 })));
      const entries = await db.query<{ n: number; keyed: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keyed FROM journal_entries WHERE reason = 'earn.interest'`,
      );
      expect(entries).toEqual([{ n: TOTAL * 3, keyed: TOTAL * 3 }]);
      // 3 USDT a day on 1,000 USDT at 0.3 %.
      const [paid] = await db.query<{ total: string }>('SELECT sum(interest_paid_minor)::text AS total FROM earn_subscriptions');
      expect(BigInt(paid!.total)).toBe(usdt('9') * BigInt(TOTAL));
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
