import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../apps/server/src/app.ts';
import type { MarketPrices } from '../../../apps/server/src/market/market-prices.ts';
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
  close: () => Promise<void>;
}

/**
 * The real server, in this process, on a fresh migrated database, serving the built apps on a free
 * port of 127.0.0.1. The build is the test script's job (`npm run build`); without it the browser
 * tests would only see API errors, so this says so at once. `market` sets where swap quotes take
 * their prices from (none by default).
 */
export async function startServer(options: { market?: MarketPrices } = {}): Promise<E2eServer> {
  if (!existsSync(resolve(WEB_DIST_DIR, 'index.html'))) {
    throw new Error(`${WEB_DIST_DIR}/index.html is missing: run \`npm run build\` before the browser tests`);
  }
  const testDb = await createTestDb();
  const config = testConfig({ SERVICE_URL, WEB_DIST_DIR, ADMIN_DIST_DIR });
  const app = await buildApp({ config, db: testDb.db, market: options.market });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server did not report a TCP port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    db: testDb.db,
    app,
    async close() {
      await app.close();
      await testDb.dispose();
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
