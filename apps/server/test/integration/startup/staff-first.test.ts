import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../src/security/passwords.ts';
import { createFirstStaffFromCommandLine } from '../../../src/use-cases/admin/manage-staff.ts';
import { crashWorld, whenExited } from '../../helpers/crash-server.ts';
import { createTestDb } from '../../helpers/test-db.ts';

// `npm run staff:first -- <username>` (ADR 0041): the first admin of a production deployment, which
// may not seed demo data. Run as the operator runs it, a process in production mode on the
// deployment's database: it creates the admin once, with a one-time password printed on its own
// output, and refuses once any staff account exists.

const world = crashWorld('staff-first');
// Opening it once makes the database (on PostgreSQL, the schema the processes' search_path names).
beforeAll(async () => (await world.openDb()).close());
afterAll(() => world.dispose());

async function staffFirst(...args: string[]) {
  const run = world.spawnScript('apps/server/src/scripts/staff-first.ts', {}, args);
  await whenExited(run.child);
  return { code: run.child.exitCode, output: run.output.join('').trim() };
}

describe('npm run staff:first', () => {
  it('creates the first admin once, with a one-time password shown once and audited; refuses when staff exist', async () => {
    const first = await staffFirst('ops.lead');
    expect(first.code, first.output).toBe(0);
    const password = /First admin ops\.lead created\. One-time password, shown once: (\S+)/.exec(first.output)?.[1];
    expect(password, first.output).toBeDefined();
    expect(first.output).toMatch(/valid until \d{4}-\d\d-\d\dT/);

    let db = await world.openDb();
    try {
      const [staff] = await db.query<{ id: bigint; roles: string[]; password_one_time: boolean; password_hash: string; password_expires_at: Date; active: boolean }>(
        'SELECT id, roles, password_one_time, password_hash, password_expires_at, active FROM staff',
      );
      expect(staff).toMatchObject({ roles: ['admin'], password_one_time: true, active: true });
      // Only the hash is stored; it is the hash of what the operator was shown.
      expect(staff!.password_hash).not.toContain(password!);
      expect(await verifyPassword(staff!.password_hash, password!)).toBe(true);
      // The published lifetime (72 h by default) from now.
      expect(staff!.password_expires_at.getTime() - Date.now()).toBeGreaterThan(71 * 3_600_000);
      const audit = await db.query<{ staff_id: bigint | null; target_id: string; detail: Record<string, unknown> }>(
        `SELECT staff_id, target_id, detail FROM audit_log WHERE action = 'staff.first.created'`,
      );
      expect(audit).toEqual([{ staff_id: null, target_id: staff!.id.toString(), detail: expect.objectContaining({ username: 'ops.lead', by: 'command line', roles: ['admin'] }) }]);
    } finally {
      await db.close();
    }

    // Staff exist now: a second first admin is refused, and nothing changes.
    const second = await staffFirst('another');
    expect(second.code, second.output).toBe(1);
    expect(second.output).toContain('staff accounts exist already');
    expect(second.output).not.toContain('One-time password');
    db = await world.openDb();
    try {
      expect(await db.query('SELECT username FROM staff')).toEqual([{ username: 'ops.lead' }]);
      expect(await db.query(`SELECT 1 FROM audit_log WHERE action = 'staff.first.created'`)).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it('needs a username that staff usernames allow', async () => {
    const missing = await staffFirst();
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('usage: npm run staff:first -- <staff username>');
    const bad = await staffFirst('-x');
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('must be 3 to 32 letters');
  });
});

// The use case behind the script, on its own: two first admins asked for at once — one is made.
describe('createFirstStaffFromCommandLine', () => {
  it('makes exactly one of two racing first admins', async () => {
    const t = await createTestDb();
    try {
      const now = new Date();
      const results = await Promise.all(['racer.one', 'racer.two'].map((username) => createFirstStaffFromCommandLine(t.db, { username, ttlHours: 72, now })));
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect(await t.db.query('SELECT 1 FROM staff')).toHaveLength(1);
    } finally {
      await t.dispose();
    }
  });
});
