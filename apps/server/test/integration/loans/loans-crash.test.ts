import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { seedPassedLoans } from '../../helpers/loan-seed.ts';
import { recordTicksForTest } from '../../helpers/market.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { fund } from '../../helpers/wallet.ts';
import { addLoanProduct, btc, fundLender, usdt } from './loans-helpers.ts';

// Issue 18, "a crash test": 300 loans past their due date. A loan job process liquidates them 100
// per transaction and dies by SIGKILL inside the third batch's transaction (test/helpers/
// loan-liquidation-crash.ts): two batches committed, the third lost. Then the real server starts on
// the same database; its loan job must liquidate every loan exactly once — one keyed closing entry
// each, at the recorded tick, the rest of each pledge returned — and the ledger check must pass.
// PGlite (a data folder the process owns) and PostgreSQL (a fresh schema).

const USERS = 10;
const PER_USER = 30;
const TOTAL = USERS * PER_USER;
const SWEPT_LINE = 'loans: swept';
const DAY_MS = 86_400_000;
const world = crashWorld('loans-crash');

afterAll(() => world.dispose());

const statuses = async (db: Awaited<ReturnType<typeof world.openDb>>) =>
  Object.fromEntries((await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM loans GROUP BY status')).map((row) => [row.status, row.n]));

describe('a crash in the middle of a due-date liquidation run', () => {
  it('liquidates each loan exactly once after SIGKILL and a restart', { timeout: 240_000 }, async () => {
    const nowMs = Date.now();
    const setupDb = await world.openDb();
    await migrate(setupDb);
    const productId = await addLoanProduct(setupDb);
    await fundLender(setupDb, '1000000');
    const setupApp = await buildApp({ config: testConfig({ DATA_DIR: '/nonexistent' }), db: setupDb, storage: storageNotUsedInThisTest });
    const userIds: bigint[] = [];
    for (let u = 0; u < USERS; u += 1) {
      const user = await registerViaApi(setupApp, `loancrash${u}`);
      await fund(setupDb, user.userId, 'BTC', '10');
      userIds.push(BigInt(user.userId));
    }
    await setupApp.close();
    // Paid out 31 days ago for 30 days: 1,000 USDT owing 1,030, pledged 0.05 BTC.
    await seedPassedLoans(setupDb, {
      productId: BigInt(productId),
      userIds,
      perUser: PER_USER,
      amountMinor: usdt('1000'),
      collateralAsset: 'BTC',
      collateralMinor: btc('0.05'),
      startedAtMs: nowMs - 31 * DAY_MS,
      cycleDays: 30,
      dailyRatePpm: 1_000,
    });
    const [tick] = await recordTicksForTest(setupDb, [{ symbol: 'BTC/USDT', price: '40000', atMs: nowMs }]);
    expect((await checkLedger(setupDb)).problems).toEqual([]);
    await setupDb.close();

    // A recorded price is usable for an hour here: the processes start slowly on a busy machine.
    const env = { MARKET_PRICE_MAX_AGE_MS: '3600000' };
    const crashing = world.spawnScript('apps/server/test/helpers/loan-liquidation-crash.ts', env);
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toContain('killing myself inside the third batch');

    const midway = await world.openDb();
    expect(await statuses(midway)).toEqual({ liquidated: 200, passed: TOTAL - 200 });
    expect((await checkLedger(midway)).problems).toEqual([]);
    await midway.close();

    const server = await world.startServer(env, SWEPT_LINE);
    const doneBy = Date.now() + 120_000;
    const sweptSoFar = () =>
      server.output
        .join('')
        .split('\n')
        .filter((line) => line.includes(SWEPT_LINE))
        .reduce((sum, line) => sum + (JSON.parse(line) as { liquidated: number }).liquidated, 0);
    while (sweptSoFar() < TOTAL - 200) {
      if (Date.now() > doneBy) throw new Error(`loans still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
      await sleep(250);
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);

    const db = await world.openDb();
    try {
      expect(await statuses(db)).toEqual({ liquidated: TOTAL });
      // One closing entry per loan, keyed by the loan; each at the recorded tick, 0.02575 BTC sold of 0.05.
      const [entries] = await db.query<{ n: number; keyed: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keyed FROM journal_entries WHERE reason = 'loan.liquidate'`,
      );
      expect(entries).toEqual({ n: TOTAL, keyed: TOTAL });
      const outcomes = await db.query<{ tick: string; sold: string; repaid: string; n: number }>(
        `SELECT liquidation_tick_id::text AS tick, sold_minor::text AS sold, repaid_minor::text AS repaid, count(*)::int AS n
           FROM loans GROUP BY 1, 2, 3`,
      );
      expect(outcomes).toEqual([{ tick: tick!.tickId.toString(), sold: btc('0.02575').toString(), repaid: usdt('1030').toString(), n: TOTAL }]);
      const [collateral] = await db.query<{ available: string; frozen: string }>(
        `SELECT sum(available_minor)::text AS available, sum(frozen_minor)::text AS frozen FROM ledger_accounts WHERE user_id IS NOT NULL AND asset = 'BTC'`,
      );
      // Each user: 10 BTC less 30 × 0.02575 sold.
      expect(collateral).toEqual({ available: ((btc('10') - btc('0.02575') * BigInt(PER_USER)) * BigInt(USERS)).toString(), frozen: '0' });
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
