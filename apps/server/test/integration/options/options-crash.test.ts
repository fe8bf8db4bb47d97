import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { configVariableNames } from '../../../src/config/env.ts';
import { type Db, openPostgres } from '../../../src/persistence/db.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { openConfiguredDb } from '../../../src/persistence/open-db.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { testDbKind } from '../../helpers/test-db.ts';
import { call, verifyUser } from '../../helpers/wallet.ts';
import { fundOptions } from './options-helpers.ts';

// Issue 7, "a crash test": orders are placed on a real server process, which is then killed with
// SIGKILL before they expire (no shutdown code runs; whatever was in flight is lost), and started
// again on the same database. Every order must settle exactly once — one settlement entry each,
// no order left open, no stake left frozen — and the ledger check must pass. Runs on PGlite (a data
// folder the process owns) and on PostgreSQL (a fresh schema), like the rest of this project.

const ROOT = resolve(import.meta.dirname, '../../../../..');
const START_TIMEOUT_MS = 60_000;
const CYCLE_SECONDS = 5;
const ORDERS_PER_USER = 6;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

const dataDir = mkdtempSync(join(tmpdir(), 'keel-options-crash-'));
const schema = `keel_options_crash_${randomBytes(4).toString('hex')}`;
const children: ChildProcess[] = [];
let admin: Db | undefined;

/** The database the server process uses, opened by this test while the process is NOT running (PGlite has one owner). */
async function openDb(): Promise<Db> {
  if (testDbKind === 'pglite') return openConfiguredDb(testConfig({ DATA_DIR: dataDir }));
  const url = process.env.TEST_DATABASE_URL!;
  if (!admin) {
    admin = await openPostgres(url, 1);
    await admin.exec(`CREATE SCHEMA ${schema}`);
  }
  return openPostgres(url, 2, schema);
}

function serverEnv(): Record<string, string> {
  // Only the variables set here configure the server (none of Keel's inherited from the shell).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key, value]) => value !== undefined && !configVariableNames.includes(key)));
  const database: Record<string, string> = { DATA_DIR: dataDir };
  if (testDbKind === 'postgres') {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    database.DATABASE_URL = url.toString();
  }
  return {
    ...(inherited as Record<string, string>),
    ...database,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    UPLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MARKET_FEED: 'simulator',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    WEB_DIST_DIR: '/nonexistent',
    ADMIN_DIST_DIR: '/nonexistent',
    OPTIONS_PRODUCTS: `${CYCLE_SECONDS}/80/1/1000`,
    // The restart (and, on PostgreSQL, the feed lease running out) may take longer than the
    // default 10 s; this test is about exactly-once, not about voiding late orders.
    OPTIONS_CLOSE_TICK_MAX_DELAY_MS: '120000',
    OPTIONS_SETTLE_INTERVAL_MS: '100',
  };
}

async function startServer(): Promise<{ child: ChildProcess; baseUrl: string; output: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: ROOT, env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  let port: string | undefined;
  while (!port) {
    if (exited(child)) throw new Error(`the server exited before listening:\n${output.join('').slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`the server did not listen within ${START_TIMEOUT_MS} ms:\n${output.join('').slice(-3000)}`);
    port = /user app\s+http:\/\/[^:/]+:(\d+)\//.exec(output.join(''))?.[1];
    if (!port) await sleep(100);
  }
  return { child, baseUrl: `http://127.0.0.1:${port}`, output };
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

afterAll(async () => {
  for (const child of children) if (!exited(child)) child.kill('SIGKILL');
  if (admin) {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

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
    await new Promise<void>((done) => (exited(first.child) ? done() : first.child.once('exit', () => done())));
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
    await new Promise<void>((done) => (exited(second.child) ? done() : second.child.once('exit', () => done())));

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
