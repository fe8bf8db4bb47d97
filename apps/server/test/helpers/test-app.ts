import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createEncryptedStorage } from '../../src/integrations/storage/encrypted.storage.ts';
import { createLocalFolderStorage } from '../../src/integrations/storage/local-folder.storage.ts';
import { type BuildAppOptions, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config/env.ts';
import type { Db } from '../../src/persistence/db.ts';
import { hashPassword } from '../../src/security/passwords.ts';
import { base32Decode, hotp, totpStepAt } from '../../src/security/totp.ts';
import { startTestMarket, type TestMarket } from './market.ts';
import { createTestDb, type TestDb } from './test-db.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  testDb: TestDb;
  /** Set when asked for with `extra.market`: the app's MarketService (tail only) and `record` for known prices. */
  market?: TestMarket;
  /** The folder holding this app's (encrypted) uploads. */
  storageRoot: string;
  close: () => Promise<void>;
}

/**
 * Configuration for tests: quiet, no demo data, rate limits out of the way, no market feed, no
 * session cache (tests change sessions and users in the database under the app and expect the next
 * call to see it; the cache's own tests turn it on); `env` overrides.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    MARKET_FEED: 'off',
    SESSION_CACHE_TTL_MS: '0',
    ...env,
  });
}

/** The real app on a fresh database, with test-friendly configuration overrides. */
export async function createTestApp(
  env: Record<string, string> = {},
  extra: {
    now?: () => Date;
    extraRoutes?: (app: FastifyInstance) => void;
    market?: boolean;
    chainWatchIntervalMs?: number;
    afterHandlerCommitted?: BuildAppOptions['afterHandlerCommitted'];
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDb();
  const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent', ...env });
  const market = extra.market ? await startTestMarket(testDb.db, { symbols: config.MARKET_SYMBOLS }) : undefined;
  const storageRoot = await mkdtemp(join(tmpdir(), 'keel-uploads-'));
  const storage = createEncryptedStorage(createLocalFolderStorage(storageRoot), randomBytes(32));
  const app = await buildApp({
    config,
    db: testDb.db,
    now: extra.now,
    extraRoutes: extra.extraRoutes,
    market: market?.service,
    storage,
    chainWatchIntervalMs: extra.chainWatchIntervalMs,
    afterHandlerCommitted: extra.afterHandlerCommitted,
  });
  await app.ready();
  if (extra.now) appClocks.set(app, extra.now);
  return {
    app,
    db: testDb.db,
    config,
    testDb,
    market,
    storageRoot,
    async close() {
      await app.close();
      await market?.stop();
      await testDb.dispose();
      await rm(storageRoot, { recursive: true, force: true });
    },
  };
}

/** Registers a user through the API and returns the session token. */
export async function registerViaApi(app: FastifyInstance, username: string, password = 'secret12') {
  const response = await app.inject({
    method: 'POST',
    url: '/home/auth/register',
    payload: { username, password, confirmPassword: password, agreement: true },
  });
  const body = response.json() as { code: number; data: { token: string; userId: string } };
  if (body.code !== 200) throw new Error(`register failed: ${response.body}`);
  return body.data;
}

/** The clock of each app made with `extra.now`, so staff logins can compute the authenticator code at the app's time. */
const appClocks = new WeakMap<FastifyInstance, () => Date>();

/** The authenticator secret of every staff member `createStaff` makes (base32, as enrolment stores it). */
export const TEST_STAFF_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** What an authenticator app holding `secret` shows at `at`. */
export function staffTotpCode(at: Date, secret = TEST_STAFF_TOTP_SECRET): string {
  return hotp(base32Decode(secret), totpStepAt(at.getTime()));
}

/**
 * Creates a staff member directly (an admin would create them, ADR 0020), already through the
 * first-login steps — own password set, authenticator enrolled with TEST_STAFF_TOTP_SECRET — and
 * logs them in with a code computed at the app's clock.
 */
export async function createStaff(app: FastifyInstance, db: Db, username: string, roles: string[], password = 'staffpass1') {
  await db.query('INSERT INTO staff (username, password_hash, roles, totp_secret) VALUES ($1, $2, $3, $4)', [
    username,
    await hashPassword(password),
    roles,
    TEST_STAFF_TOTP_SECRET,
  ]);
  const now = appClocks.get(app)?.() ?? new Date();
  const response = await app.inject({
    method: 'POST',
    url: '/home/admin/auth/login',
    payload: { username, password, totpCode: staffTotpCode(now) },
  });
  const body = response.json() as { code: number; data: { token: string } };
  if (body.code !== 200) throw new Error(`staff login of ${username} failed: ${response.body}`);
  return body.data.token;
}

/** For tests that build Deps by hand and never touch files: any use is a test bug, said loudly. */
export const storageNotUsedInThisTest = {
  put: async () => {
    throw new Error('this test does not expect file storage to be used');
  },
  get: async () => {
    throw new Error('this test does not expect file storage to be used');
  },
  delete: async () => {
    throw new Error('this test does not expect file storage to be used');
  },
};
