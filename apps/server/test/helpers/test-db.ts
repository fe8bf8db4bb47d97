import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type Db } from '../../src/persistence/db.ts';
import { migrate } from '../../src/persistence/migrate.ts';

/** Which database the integration suite runs on: set by scripts/test.mjs per run. */
export const testDbKind: 'pglite' | 'postgres' = process.env.KEEL_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestDb {
  db: Db;
  /** Opens another connection (pool) to the same database, e.g. for a second job runner. */
  openAnother: () => Promise<Db>;
  dispose: () => Promise<void>;
}

/**
 * A fresh, migrated database for one test file. On PostgreSQL each file gets its own schema, so
 * files can run side by side on one server; on PGlite each file gets its own in-memory instance.
 */
export async function createTestDb(): Promise<TestDb> {
  if (testDbKind === 'pglite') {
    const db = await openPglite('memory://');
    await migrate(db);
    return { db, openAnother: async () => db, dispose: () => db.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('KEEL_TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `keel_test_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(url, 1);
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const opened: Db[] = [];
  const open = async () => {
    const db = await openPostgres(url, 10, schema);
    opened.push(db);
    return db;
  };
  const db = await open();
  await migrate(db);
  return {
    db,
    openAnother: open,
    async dispose() {
      for (const each of opened) await each.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}
