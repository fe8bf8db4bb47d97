import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../apps/server/src/app.ts';
import { configVariableNames } from '../../../apps/server/src/config/env.ts';
import { SimulatorFeed } from '../../../apps/server/src/integrations/market-feed/simulator-feed.ts';
import { MarketService } from '../../../apps/server/src/market/market.service.ts';
import { createEncryptedStorage } from '../../../apps/server/src/integrations/storage/encrypted.storage.ts';
import { createLocalFolderStorage } from '../../../apps/server/src/integrations/storage/local-folder.storage.ts';
import type { Db } from '../../../apps/server/src/persistence/db.ts';
import type { EventBus } from '../../../apps/server/src/realtime/event-bus.ts';
import { eventBusFromConfig } from '../../../apps/server/src/realtime/event-bus-from-config.ts';
import { createRedisEventBus } from '../../../apps/server/src/realtime/redis-event-bus.ts';
import { testConfig } from '../../../apps/server/test/helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../../apps/server/test/helpers/test-db.ts';

const root = resolve(import.meta.dirname, '../../..');
export const WEB_DIST_DIR = resolve(root, 'apps/web/dist');
export const ADMIN_DIST_DIR = resolve(root, 'apps/admin/dist');
export const SERVICE_URL = 'https://support.keel.example/';

export interface E2eServer {
  baseUrl: string;
  db: Db;
  app: FastifyInstance;
  /** The running market (simulator, or only recorded ticks), unless started with `{ market: false }`. */
  market?: MarketService;
  /**
   * The node's per-user event bus (the one given as `events`, else the configuration's: in process),
   * e.g. for a test's JobRunner `afterCommit`, so a job's events reach this node's /ws connections.
   */
  events: EventBus;
  /** The server's clock: the real time plus `clock.offsetMs` when started with a `clock`. */
  now: () => Date;
  /** Closes the node; a first node (the database's owner) also drops the database, so close second nodes first. */
  close: () => Promise<void>;
}

export interface StartServerOptions {
  /**
   * Run a real MarketService with the simulator (fixed seed, fast ticks), so pages see live prices
   * and /ws. On by default; record known prices with recordTicksForTest(server.db, …).
   * 'recorded': a MarketService with no feed, so the only prices are the ones a test records
   * (helpers/market.ts recordKnownTicks) and every figure derived from them is known.
   */
  market?: boolean | 'recorded';
  /** Configuration overrides (environment variable names), e.g. the wallet's deposit keys. */
  env?: Record<string, string>;
  /**
   * The server's clock as real time plus `offsetMs`, read on every call: a test moves time on by
   * changing `offsetMs` (e.g. past an appeal's waiting time) instead of waiting. The browser's
   * clock is not moved.
   */
  clock?: { offsetMs: number };
  /**
   * The per-user event bus given to buildApp (e.g. `redisEventBus(prefix)`, so events cross
   * nodes). It stays the caller's: close it after the server. Without it, the bus buildApp would
   * make from the configuration (in process unless `env` sets REDIS_URL), closed with the server.
   */
  events?: EventBus;
  /**
   * Start another node on `sharedDb`'s database instead of a fresh one (its own connection pool on
   * PostgreSQL, the same instance on in-memory PGlite). Close it before `sharedDb`, which owns the
   * database. Such a node runs no market feed (`market` is ignored: one feed per database).
   */
  sharedDb?: E2eServer;
  /** Listen on this port of 127.0.0.1 instead of a free one (a test that must know its origin beforehand, e.g. PUBLIC_ORIGIN). */
  port?: number;
}

/** The fresh database each first node creates, by server, for second nodes to open another pool on. */
const databases = new WeakMap<E2eServer, TestDb>();

/** Redis for the browser tests' buses (TEST_REDIS_URL overrides), as the integration suite uses it. */
export const E2E_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A channel prefix of its own for a run (or a test), so runs sharing one Redis never hear each
 * other's users (user ids repeat across runs' fresh databases).
 */
export function randomBusPrefix(): string {
  return `keel-e2e-${randomBytes(6).toString('hex')}:`;
}

/**
 * A Redis event bus (its own two connections) on `prefix`: give each node its own bus with the
 * same prefix and an event published on one node reaches connections on the other. The caller
 * closes it after the server.
 */
export function redisEventBus(prefix: string): EventBus {
  return createRedisEventBus(E2E_REDIS_URL, { prefix });
}

/**
 * The real server, in this process, on a fresh migrated database, serving the built apps on a free
 * port of 127.0.0.1. The build is the test script's job (`npm run build`); without it the browser
 * tests would only see API errors, so this says so at once.
 */
export async function startServer(options: StartServerOptions = {}): Promise<E2eServer> {
  if (!existsSync(resolve(WEB_DIST_DIR, 'index.html'))) {
    throw new Error(`${WEB_DIST_DIR}/index.html is missing: run \`npm run build\` before the browser tests`);
  }
  const shared = options.sharedDb ? databases.get(options.sharedDb) : undefined;
  if (options.sharedDb && !shared) throw new Error('sharedDb must be a server started by startServer (a first node)');
  const testDb = shared ?? (await createTestDb());
  const db = shared ? await shared.openAnother() : testDb.db;
  const config = testConfig({ SERVICE_URL, WEB_DIST_DIR, ADMIN_DIST_DIR, ...options.env });
  const storageRoot = await mkdtemp(join(tmpdir(), 'keel-e2e-uploads-'));
  const storage = createEncryptedStorage(createLocalFolderStorage(storageRoot), randomBytes(32));
  const clock = options.clock;
  const now = clock ? () => new Date(Date.now() + clock.offsetMs) : () => new Date();
  // Made here rather than by buildApp so the test can reach it (server.events); the same choice buildApp makes.
  const events = options.events ?? eventBusFromConfig(config);
  const market =
    options.market === false || shared
      ? undefined
      : new MarketService({
          db,
          symbols: config.MARKET_SYMBOLS,
          feed:
            options.market === 'recorded'
              ? undefined
              : new SimulatorFeed({ symbols: config.MARKET_SYMBOLS, seed: 'e2e', tickIntervalMs: 100 }),
          flushIntervalMs: 50,
          tailIntervalMs: 50,
        });
  // `now` only when asked for, so a server without a clock is built exactly as before.
  const app = await buildApp({ config, db, market, storage, events, optionsSettleIntervalMs: 200, ...(clock ? { now } : {}) });
  await market?.start(app.log);
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server did not report a TCP port');
  const server: E2eServer = {
    baseUrl: `http://127.0.0.1:${address.port}`,
    db,
    app,
    market,
    events,
    now,
    async close() {
      await app.close();
      await market?.stop();
      if (!options.events) await events.close();
      // A second node's pool is closed with the database by the first node (TestDb keeps every pool it opened).
      if (!shared) await testDb.dispose();
      await rm(storageRoot, { recursive: true, force: true });
    },
  };
  if (!shared) databases.set(server, testDb);
  return server;
}

/** Another node on `first`'s database: `startServer({ ...options, sharedDb: first })`. */
export function startSecondNode(first: E2eServer, options: Omit<StartServerOptions, 'sharedDb' | 'market'> = {}): Promise<E2eServer> {
  return startServer({ ...options, sharedDb: first });
}

/** Registers a user through the API, as the app would, and returns the session. */
export async function registerUser(baseUrl: string, username: string, password = 'secret12') {
  const response = await fetch(`${baseUrl}/home/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, confirmPassword: password, agreement: true }),
  });
  const body = (await response.json()) as { code: number; msg: string; data: { token: string; userId: string } };
  if (body.code !== 200) throw new Error(`register ${username} failed: ${body.msg}`);
  return { ...body.data, username, password };
}

let counter = 0;

/** A username no other test of this run uses (6–32 letters or digits). */
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`.slice(0, 32);
}

/**
 * The environment of a server process in a test of several processes: only these variables
 * configure it (none of Keel's inherited from the shell), on `schema` of `postgresUrl` and on
 * `redisUrl`, in production mode, quiet, without a market feed or demo data; `overrides` last.
 */
export function serverProcessEnv(postgresUrl: string, schema: string, redisUrl: string, overrides: Record<string, string> = {}): Record<string, string> {
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !configVariableNames.includes(entry[0])),
  );
  return {
    ...inherited,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: url.toString(),
    DATABASE_POOL_SIZE: '4',
    REDIS_URL: redisUrl,
    UPLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MARKET_FEED: 'off',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ...overrides,
  };
}

/** `npm run serve`'s arguments to node (package.json): a test that starts the built server starts what `npm start` starts. */
export function serveNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: { serve: string } };
  return scripts.serve.replace(/^node /, '').split(' ');
}
