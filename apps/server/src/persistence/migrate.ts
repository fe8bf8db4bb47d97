import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

export const migrationsDir = fileURLToPath(new URL('../../migrations', import.meta.url));

// Any fixed number: every server process takes the same advisory lock, so two starting at once
// apply each migration exactly once.
const MIGRATION_LOCK_ID = 7_242_001;

/** Applies, in name order, every migration file not yet recorded. Forward only: there is no "down". */
export async function migrate(db: Db, dir: string = migrationsDir): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((name) => /^\d{14}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name),
    );
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      await tx.exec(readFileSync(`${dir}/${name}`, 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    }
    return applied;
  });
}
