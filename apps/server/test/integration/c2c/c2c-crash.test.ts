import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { createStaff, registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { call, verifyUser } from '../../helpers/wallet.ts';
import { deposit, floatOf, makeMerchant, type Merchant, merchantStep } from './c2c-helpers.ts';

// Issue 19, "a crash test" of C2C matching: 45 deposit requests of 10 USDT waiting for a merchant,
// 5 merchants online with float for 20 orders each. A C2C job process offers them 20 per
// transaction and dies by SIGKILL inside the second batch's transaction, after 5 of its offers
// were written (test/helpers/c2c-offer-crash.ts): one batch committed, the second lost. Then the
// real server starts on the same database; its C2C job must offer every request still waiting —
// each request offered exactly once, none lost — and the merchants accept them all: one accepted
// offer and one float hold each, the ledger check clean. PGlite (a data folder the process owns)
// and PostgreSQL (a fresh schema). The requests are made with the real clock just before, so the
// restarted server (which runs on the real clock) finds them inside their 5-minute window, and
// the first batch's offers inside their 60-second one.

const MERCHANTS = 5;
const REQUESTS = 45;
const BATCH = 20;
const SWEPT_LINE = 'c2c: swept';
const OFFER_WINDOW_MS = 60_000;
const world = crashWorld('c2c-crash');

afterAll(() => world.dispose());

const statuses = async (db: Db) =>
  Object.fromEntries((await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM c2c_requests GROUP BY status')).map((row) => [row.status, row.n]));
const offerRows = (db: Db) =>
  db.query<{ request_id: bigint; merchant_id: bigint; outcome: string | null }>('SELECT request_id, merchant_id, outcome FROM c2c_offers ORDER BY request_id, merchant_id');

describe('a crash in the middle of offering C2C requests to merchants', () => {
  it('offers each request exactly once after SIGKILL and a restart, and loses none', { timeout: 300_000 }, async () => {
    const setupDb = await world.openDb();
    await migrate(setupDb);
    const config = testConfig({ DATA_DIR: '/nonexistent' });
    const setupApp = await buildApp({ config, db: setupDb, storage: storageNotUsedInThisTest });
    await setupApp.ready();
    const finance: [string, string] = [await createStaff(setupApp, setupDb, 'c2ccrashfin1', ['finance']), await createStaff(setupApp, setupDb, 'c2ccrashfin2', ['finance'])];
    const merchants: Merchant[] = [];
    for (let m = 0; m < MERCHANTS; m += 1) merchants.push(await makeMerchant(setupApp, setupDb, `c2ccrashm${m}`, { country: 'DE', maxUsdt: '100', float: '200', finance }));
    const users = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, index) => {
        const session = await registerViaApi(setupApp, `c2ccrash${String(index).padStart(2, '0')}`);
        await verifyUser(setupDb, session.userId);
        return session;
      }),
    );
    const made = [];
    for (const user of users) made.push(await deposit(setupApp, user.token, { amount: '10' }));
    expect(made.map((answer) => answer.msg)).toEqual(made.map(() => 'success'));
    const ids = made.map((answer) => answer.data.id as string).sort((a, b) => Number(a) - Number(b));
    await setupApp.close();
    expect(await statuses(setupDb)).toEqual({ matching: REQUESTS });
    await setupDb.close();

    const crashing = world.spawnScript('apps/server/test/helpers/c2c-offer-crash.ts');
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toContain('committed offer batch 1');
    expect(crashing.output.join('')).toContain('killing myself inside the second batch');

    // The first batch committed (the 20 oldest, to the first merchant by the fair rule); the second is gone, its 5 offers with it.
    const midway = await world.openDb();
    expect(await statuses(midway)).toEqual({ offered: BATCH, matching: REQUESTS - BATCH });
    const before = await offerRows(midway);
    expect(before.map((row) => row.request_id.toString())).toEqual(ids.slice(0, BATCH));
    expect(before.every((row) => row.merchant_id.toString() === merchants[0]!.id && row.outcome === null)).toBe(true);
    const [offeredAt] = await midway.query<{ first_ms: string; deadline_ms: string }>(
      `SELECT (extract(epoch FROM min(o.offered_at)) * 1000)::bigint::text AS first_ms, min(r.offer_deadline_ms)::text AS deadline_ms
         FROM c2c_offers o JOIN c2c_requests r ON r.id = o.request_id`,
    );
    expect(Number(offeredAt!.deadline_ms)).toBe(Number(offeredAt!.first_ms) + OFFER_WINDOW_MS);
    expect((await checkLedger(midway)).problems).toEqual([]);
    await midway.close();

    const server = await world.startServer({}, SWEPT_LINE);
    const doneBy = Date.now() + 120_000;
    const offeredSoFar = () =>
      server.output
        .join('')
        .split('\n')
        .filter((line) => line.includes(SWEPT_LINE))
        .reduce((sum, line) => sum + (JSON.parse(line) as { offered: number }).offered, 0);
    while (offeredSoFar() < REQUESTS - BATCH) {
      if (Date.now() > doneBy) throw new Error(`requests still waiting 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
      await sleep(250);
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);
    // The server's sweeps ran on the real clock: had the first batch's offers lapsed meanwhile, they would have gone to the next merchant.
    expect(Date.now(), 'the restart took longer than an offer window; the first offers lapsed').toBeLessThan(Number(offeredAt!.deadline_ms));
    const swept = server.output
      .join('')
      .split('\n')
      .filter((line) => line.includes(SWEPT_LINE))
      .map((line) => JSON.parse(line) as { offered: number; lapsed: number; unmatched: number });
    expect(swept.reduce((sum, line) => sum + line.lapsed + line.unmatched, 0)).toBe(0);

    const db = await world.openDb();
    const app = await buildApp({ config, db, storage: storageNotUsedInThisTest });
    try {
      await app.ready();
      // Every request offered, each exactly once: one open offer row each, none lost, none twice.
      expect(await statuses(db)).toEqual({ offered: REQUESTS });
      const after = await offerRows(db);
      expect(after.map((row) => row.request_id.toString())).toEqual(ids);
      expect(after.every((row) => row.outcome === null)).toBe(true);
      const offeredTo = await db.query<{ id: bigint; offered_merchant_id: bigint }>(`SELECT id, offered_merchant_id FROM c2c_requests ORDER BY id`);
      expect(offeredTo.map((row) => `${row.id}:${row.offered_merchant_id}`)).toEqual(after.map((row) => `${row.request_id}:${row.merchant_id}`));
      // By the fair rule with the first batch's offers counted against the first float: the next 20 to the second merchant, the last 5 to the third.
      const perMerchant = merchants.map((merchant) => after.filter((row) => row.merchant_id.toString() === merchant.id).length);
      expect(perMerchant).toEqual([20, 20, 5, 0, 0]);

      // The merchants accept them all, through the API of a server on that database.
      const answers = (
        await Promise.all(
          merchants.map(async (merchant) => {
            const offers = await call(app, 'GET', '/home/admin/c2c/merchant/requests?state=offers&pageSize=100', merchant.token);
            expect(offers.code).toBe(200);
            return Promise.all(offers.data.items.map((offer: { id: string }) => merchantStep(app, merchant, offer.id, 'accept')));
          }),
        )
      ).flat();
      expect(answers.map((answer) => answer.msg)).toEqual(ids.map(() => 'success'));
      expect(await statuses(db)).toEqual({ awaiting_payment: REQUESTS });
      const accepted = await db.query<{ request_id: bigint; n: number }>(
        `SELECT request_id, count(*) FILTER (WHERE outcome = 'accepted')::int AS n FROM c2c_offers GROUP BY request_id ORDER BY request_id`,
      );
      expect(accepted.map((row) => [row.request_id.toString(), row.n])).toEqual(ids.map((id) => [id, 1]));
      const holds = await db.query<{ reference_id: string; n: number; held: string }>(
        `SELECT h.reference_id, count(*)::int AS n, sum(h.amount_minor)::text AS held FROM ledger_holds h JOIN c2c_requests r ON r.hold_id = h.id
          WHERE h.reference_type = 'c2c_request' AND h.status = 'open' GROUP BY h.reference_id ORDER BY h.reference_id::bigint`,
      );
      expect(holds.map((row) => [row.reference_id, row.n, row.held])).toEqual(ids.map((id) => [id, 1, '10000000']));
      const [allHolds] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_holds WHERE reference_type = 'c2c_request'`);
      expect(allHolds!.n).toBe(REQUESTS);
      expect(await Promise.all(merchants.map((merchant) => floatOf(app, merchant)))).toEqual([
        { available: '0.000000', held: '200.000000' },
        { available: '0.000000', held: '200.000000' },
        { available: '150.000000', held: '50.000000' },
        { available: '200.000000', held: '0.000000' },
        { available: '200.000000', held: '0.000000' },
      ]);
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
