import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { releaseTranches } from '../../../src/use-cases/fund/fund-jobs.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { call, fund, setPaymentPassword, verifyUser } from '../../helpers/wallet.ts';
import { usdt } from '../loans/loans-helpers.ts';
import { requestBody } from './fund-helpers.ts';

// Issue 18, "a crash test": 27 funded requests at their term, each of 1,000 USDT from three
// investors (333.33, 333.33, 333.34). A fund job process pays them out 20 per transaction and dies
// by SIGKILL inside the second batch's transaction (test/helpers/fund-settle-crash.ts): one batch
// committed, the second lost. Then the real server starts on the same database; its fund job must
// repay every request exactly once — one keyed entry each, every investor's part exact — and the
// ledger check must pass. PGlite (a data folder the process owns) and PostgreSQL (a fresh schema).

const BORROWERS = 3;
const PER_BORROWER = 9;
const TOTAL = BORROWERS * PER_BORROWER;
const SWEPT_LINE = 'fund: swept';
const DAY_MS = 86_400_000;
const world = crashWorld('fund-crash');

afterAll(() => world.dispose());

const statuses = async (db: Awaited<ReturnType<typeof world.openDb>>) =>
  Object.fromEntries((await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM fund_requests GROUP BY status')).map((row) => [row.status, row.n]));

describe('a crash in the middle of paying investors at term', () => {
  it('repays each request exactly once after SIGKILL and a restart', { timeout: 300_000 }, async () => {
    // The requests were made and filled two days ago for a term of one day: due yesterday.
    const pastMs = Date.now() - 2 * DAY_MS;
    const setupDb = await world.openDb();
    await migrate(setupDb);
    const app = await buildApp({ config: testConfig({ DATA_DIR: '/nonexistent' }), db: setupDb, storage: storageNotUsedInThisTest, now: () => new Date(pastMs) });
    const person = async (name: string, usdtAmount: string) => {
      const session = await registerViaApi(app, name);
      const user = { ...session, username: name };
      await verifyUser(setupDb, user.userId, ['identity', 'advanced']);
      await setPaymentPassword(app, user);
      await fund(setupDb, user.userId, 'USDT', usdtAmount);
      return user;
    };
    // Each borrower pledges 1,200 USDT per request and keeps 1 USDT per request for the interest (1,000 × 0.1 % × 1 day).
    const borrowers = [];
    for (let b = 0; b < BORROWERS; b += 1) borrowers.push(await person(`fundcrashb${b}`, String(PER_BORROWER * 1_201)));
    const investors = [await person('fundcrashi0', '20000'), await person('fundcrashi1', '20000'), await person('fundcrashi2', '20000')];
    const ids: string[] = [];
    for (const borrower of borrowers) {
      for (let r = 0; r < PER_BORROWER; r += 1) {
        const made = await call(app, 'POST', '/home/fund/requests', borrower.token, requestBody({
          amount: '1000', dailyRatePercent: '0.1', termDays: 1, tranches: 1, releasePeriodDays: 0, collateralAsset: 'USDT', collateralAmount: '1200',
        }));
        if (made.code !== 200) throw new Error(`publish: ${made.msg}`);
        ids.push(made.data.id);
      }
    }
    // Reviewed (the review itself is tested through the API in fund.test.ts).
    await setupDb.query(`UPDATE fund_requests SET status = 'open', reviewed_at_ms = $1, opened_at_ms = $1, window_ends_at_ms = $2`, [pastMs, pastMs + 3_600_000]);
    for (const id of ids) {
      for (const [index, amount] of ['333.33', '333.33', '333.34'].entries()) {
        const invested = await call(app, 'POST', `/home/fund/requests/${id}/investments`, investors[index]!.token, { amount, paymentPassword: '135790' });
        if (invested.code !== 200) throw new Error(`invest: ${invested.msg}`);
      }
    }
    await releaseTranches({ db: setupDb, now: () => new Date(pastMs) });
    await app.close();
    expect(await statuses(setupDb)).toEqual({ funded: TOTAL });
    expect((await checkLedger(setupDb)).problems).toEqual([]);
    await setupDb.close();

    const crashing = world.spawnScript('apps/server/test/helpers/fund-settle-crash.ts');
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toContain('killing myself inside the second batch');

    const midway = await world.openDb();
    expect(await statuses(midway)).toEqual({ repaid: 20, funded: TOTAL - 20 });
    expect((await checkLedger(midway)).problems).toEqual([]);
    await midway.close();

    const server = await world.startServer({}, SWEPT_LINE);
    const doneBy = Date.now() + 120_000;
    const repaidSoFar = () =>
      server.output
        .join('')
        .split('\n')
        .filter((line) => line.includes(SWEPT_LINE))
        .reduce((sum, line) => sum + (JSON.parse(line) as { repaid: number }).repaid, 0);
    while (repaidSoFar() < TOTAL - 20) {
      if (Date.now() > doneBy) throw new Error(`requests still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
      await sleep(250);
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);

    const db = await world.openDb();
    try {
      expect(await statuses(db)).toEqual({ repaid: TOTAL });
      const [entries] = await db.query<{ n: number; keyed: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keyed FROM journal_entries WHERE reason = 'fund.repay'`,
      );
      expect(entries).toEqual({ n: TOTAL, keyed: TOTAL });
      // 1,001 due on each: 333.66333, 333.66333, 333.67334 (the remainder to the last).
      const paid = await db.query<{ paid: string; n: number }>('SELECT paid_minor::text AS paid, count(*)::int AS n FROM fund_investments GROUP BY 1 ORDER BY 1');
      expect(paid).toEqual([
        { paid: usdt('333.66333').toString(), n: 2 * TOTAL },
        { paid: usdt('333.67334').toString(), n: TOTAL },
      ]);
      const balances = await db.query<{ username: string; available: string }>(
        `SELECT u.username, a.available_minor::text AS available FROM ledger_accounts a JOIN users u ON u.id = a.user_id
          WHERE a.kind = 'coin' AND a.asset = 'USDT' AND u.username LIKE 'fundcrashi%' ORDER BY u.username`,
      );
      expect(balances.map((row) => BigInt(row.available))).toEqual([
        usdt('20000') + (usdt('333.66333') - usdt('333.33')) * BigInt(TOTAL),
        usdt('20000') + (usdt('333.66333') - usdt('333.33')) * BigInt(TOTAL),
        usdt('20000') + (usdt('333.67334') - usdt('333.34')) * BigInt(TOTAL),
      ]);
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
