import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, migrationsDir } from '../../../src/persistence/migrate.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

describe('migrations', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.dispose());

  it('a second run applies nothing', async () => {
    expect(await migrate(t.db)).toEqual([]);
  });

  it('apply a new file once, even when two processes start together', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-migrations-'));
    // The shipped migrations are already applied here; only the extra file is new.
    for (const name of readdirSync(migrationsDir)) writeFileSync(join(dir, name), '-- already applied');
    writeFileSync(join(dir, '20991231000000_extra_table.sql'), 'CREATE TABLE extra_table (id int);');
    const other = await t.openAnother();
    const [first, second] = await Promise.all([migrate(t.db, dir), migrate(other, dir)]);
    expect([...first, ...second]).toEqual(['20991231000000_extra_table.sql']);
    expect(await t.db.query('SELECT count(*)::int AS n FROM extra_table')).toEqual([{ n: 0 }]);
  });

  it('the shipped folder holds only timestamped forward migrations', () => {
    expect(migrationsDir).toMatch(/migrations$/);
  });
});
