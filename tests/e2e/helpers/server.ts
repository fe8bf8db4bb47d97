import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../apps/server/src/app.ts';
import { SimulatorFeed } from '../../../apps/server/src/integrations/market-feed/simulator-feed.ts';
import { MarketService } from '../../../apps/server/src/market/market.service.ts';
import { createEncryptedStorage } from '../../../apps/server/src/integrations/storage/encrypted.storage.ts';
import { createLocalFolderStorage } from '../../../apps/server/src/integrations/storage/local-folder.storage.ts';
import type { Db } from '../../../apps/server/src/persistence/db.ts';
import { testConfig } from '../../../apps/server/test/helpers/test-app.ts';
import { createTestDb } from '../../../apps/server/test/helpers/test-db.ts';

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
  const testDb = await createTestDb();
  const config = testConfig({ SERVICE_URL, WEB_DIST_DIR, ADMIN_DIST_DIR, ...options.env });
  const storageRoot = await mkdtemp(join(tmpdir(), 'keel-e2e-uploads-'));
  const storage = createEncryptedStorage(createLocalFolderStorage(storageRoot), randomBytes(32));
  const market =
    options.market === false
      ? undefined
      : new MarketService({
          db: testDb.db,
          symbols: config.MARKET_SYMBOLS,
          feed:
            options.market === 'recorded'
              ? undefined
              : new SimulatorFeed({ symbols: config.MARKET_SYMBOLS, seed: 'e2e', tickIntervalMs: 100 }),
          flushIntervalMs: 50,
          tailIntervalMs: 50,
        });
  const app = await buildApp({ config, db: testDb.db, market, storage });
  await market?.start(app.log);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server did not report a TCP port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    db: testDb.db,
    app,
    market,
    async close() {
      await app.close();
      await market?.stop();
      await testDb.dispose();
      await rm(storageRoot, { recursive: true, force: true });
    },
  };
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
