import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../helpers/test-app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { openConfiguredDb } from '../../../src/persistence/open-db.ts';

// Issue 15 (ADR 0031): the embedded database's page cache is what the configuration says, not
// PostgreSQL's 128 MB default, which it would allocate in memory that never shrinks. (An embedded
// database of its own, whichever database the suite runs on.)

let db: Db | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

describe('the configured embedded database', () => {
  it('has the page cache of PGLITE_SHARED_BUFFERS_MB, 32 MB unless set', async () => {
    db = await openConfiguredDb(testConfig({ DATA_DIR: 'memory://' }));
    expect(await db.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '32MB' }]);
    await db.close();
    db = await openConfiguredDb(testConfig({ DATA_DIR: 'memory://', PGLITE_SHARED_BUFFERS_MB: '8' }));
    expect(await db.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '8MB' }]);
  });
});
