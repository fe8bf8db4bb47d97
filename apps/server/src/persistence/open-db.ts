import { resolve } from 'node:path';
import type { Config } from '../config/env.ts';
import { openPglite, openPostgres, type Db } from './db.ts';

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export function openConfiguredDb(config: Config): Promise<Db> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  // memory:// keeps everything in memory (tests, throw-away demos); anything else is a folder.
  const options = { sharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB };
  if (config.DATA_DIR.startsWith('memory://')) return openPglite(config.DATA_DIR, options);
  return openPglite(resolve(config.DATA_DIR, 'pgdata'), options);
}
