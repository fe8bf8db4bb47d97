import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { call, verifyUser } from '../../helpers/wallet.ts';
import { fundOptions } from './options-helpers.ts';

// Issue 7, "a crash test": orders are placed on a real server process, which is then killed with
// SIGKILL before they expire (no shutdown code runs; whatever was in flight is lost), and started
// again on the same database. Every order must settle exactly once — one settlement entry each,
// no order left open, no stake left frozen — and the ledger check must pass. Runs on PGlite (a data
// folder the process owns) and on PostgreSQL (a fresh schema), like the rest of this project.

const CYCLE_SECONDS = 5;
const ORDERS_PER_USER = 6;
const SERVER_ENV = {
  // Prices from the simulator: the crash server runs with NODE_ENV=production, where only a
  // deployment that declares itself a demo may use it (ADR 0041).
  MARKET_FEED: 'simulator',
  KEEL_DEMO: 'true',
  LOG_LEVEL: 'warn',
  OPTIONS_PRODUCTS: `${CYCLE_SECONDS}/80/1/1000`,
  // The restart (and, on PostgreSQL, the feed lease running out) may take longer than the
  // default 10 s; this test is about exactly-once, not about voiding late orders.
  OPTIONS_CLOSE_TICK_MAX_DELAY_MS: '120000',
  OPTIONS_SETTLE_INTERVAL_MS: '100',
};
const world = crashWorld('options-crash');
const { dataDir, openDb } = world;

/** The real server on the test's database, listening. */
async function startServer() {
  const started = await world.startServer(SERVER_ENV);
  return { ...started, baseUrl: started.baseUrl! };
}

async function api(baseUrl: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: token, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: read field by field; the shape is the contract's.
  return (await response.json()) as { code: number; msg: string; data: any };
}

afterAll(() => world.dispose());

describe('a crash before expiry', () => {
  it('every order settles exactly once after SIGKILL and restart, and the ledger check passes', { timeout: 180_000 }, async () => {
    // Users prepared in-process on the server's database, before the server runs.
    const setupDb = await openDb();
    await migrate(setupDb);
    const setupApp = await buildApp({ config: testConfig({ DATA_DIR: dataDir }), db: setupDb, storage: storageNotUsedInThisTest });
    const users: { token: string; userId: string }[] = [];
    for (const name of ['crashtrader1', 'crashtrader2', 'crashtrader3']) {
      const user = await registerViaApi(setupApp, name);
      await verifyUser(setupDb, user.userId);
      await fundOptions(setupDb, user.userId, '1000');
      expect((await call(setupApp, 'POST', '/home/options/disclosure', user.token, { version: 1 })).code).toBe(200);
      users.push(user);
    }
    await setupApp.close();
    await setupDb.close();

    const first = await startServer();
    // The simulator's first ticks must be recorded before an order can open.
    const placed: string[] = [];
    const deadline = Date.now() + 20_000;
    for (const user of users) {
      for (let n = 0; n < ORDERS_PER_USER; n += 1) {
        for (;;) {
          const answer = await api(first.baseUrl, 'POST', '/home/options/orders', user.token, {
            symbol: 'BTC/USDT',
            direction: n % 2 === 0 ? 'up' : 'down',
            cycleSeconds: CYCLE_SECONDS,
            amount: `${10 + n}`,
          });
          if (answer.code === 200) {
            placed.push(answer.data.id);
            break;
          }
          expect(answer.msg).toBe('market price unavailable');
          if (Date.now() > deadline) throw new Error('no price was recorded within 20 s');
          await sleep(200);
        }
      }
    }
    const firstExpiry = Math.min(...(await Promise.all(users.map((user) => api(first.baseUrl, 'GET', '/home/options/orders?scope=open&pageSize=100', user.token)))).flatMap(
      (answer) => answer.data.items.map((item: { expiresAtMs: number }) => item.expiresAtMs),
    ));
    expect(Date.now()).toBeLessThan(firstExpiry);
    first.child.kill('SIGKILL');
    await whenExited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await startServer();
    const settledBy = Date.now() + 90_000;
    for (;;) {
      const open = await Promise.all(users.map((user) => api(second.baseUrl, 'GET', '/home/options/orders?scope=open', user.token)));
      if (open.every((answer) => answer.data.total === 0)) break;
      if (Date.now() > settledBy) throw new Error(`orders still open 90 s after the restart:\n${second.output.join('').slice(-3000)}`);
      await sleep(250);
    }
    const history = await Promise.all(users.map((user) => api(second.baseUrl, 'GET', '/home/options/orders?scope=history&pageSize=100', user.token)));
    const settled = history.flatMap((answer) => answer.data.items);
    expect(settled.map((item: { id: string }) => item.id).sort()).toEqual([...placed].sort());
    for (const item of settled) {
      expect(['won', 'lost', 'flat']).toContain(item.status);
      expect(item.closeTick.atMs).toBeGreaterThanOrEqual(item.expiresAtMs);
    }
    second.child.kill('SIGTERM');
    await whenExited(second.child);

    const db = await openDb();
    try {
      const perOrder = await db.query<{ reference_id: string; n: number }>(
        `SELECT reference_id, count(*)::int AS n FROM journal_entries WHERE reason = 'options.settle' GROUP BY reference_id`,
      );
      expect(perOrder.map((row) => row.reference_id).sort()).toEqual([...placed].sort());
      expect(perOrder.every((row) => row.n === 1)).toBe(true);
      const [frozen] = await db.query<{ total: string }>(`SELECT COALESCE(sum(frozen_minor), 0)::text AS total FROM ledger_accounts WHERE kind = 'options'`);
      expect(frozen!.total).toBe('0');
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
