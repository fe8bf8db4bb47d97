import type { Db } from '../persistence/db.ts';
import { appendAudit } from '../persistence/audit.repository.ts';
import { hashPassword } from '../security/passwords.ts';
import { newInitialPassword, newInviteCode } from '../security/tokens.ts';

export interface SeedResult {
  /** Set only when the first staff account was created now; printed once and never stored in clear. */
  staff?: { username: string; password: string };
  demoUser?: { username: string; password: string };
}

/**
 * Fills an empty database with the first staff account (role admin) and one demo user with a
 * welcome message. Runs in one transaction and does nothing when staff already exist.
 */
export async function seedDemoData(db: Db, now: Date): Promise<SeedResult> {
  const staffPassword = newInitialPassword();
  const demoPassword = newInitialPassword();
  const [staffHash, demoHash] = await Promise.all([hashPassword(staffPassword), hashPassword(demoPassword)]);
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE staff IN EXCLUSIVE MODE');
    const existing = await tx.query('SELECT 1 FROM staff LIMIT 1');
    if (existing.length > 0) return {};
    const [staff] = await tx.query<{ id: bigint }>(
      `INSERT INTO staff (username, password_hash, roles) VALUES ('admin', $1, ARRAY['admin']::text[]) RETURNING id`,
      [staffHash],
    );
    await appendAudit(tx, { staffId: null, action: 'seed.staff.created', targetType: 'staff', targetId: staff!.id.toString(), at: now });
    const [user] = await tx.query<{ id: bigint }>(
      `INSERT INTO users (username, password_hash, invite_code, is_demo, created_at)
       VALUES ('demo01', $1, $2, true, $3) ON CONFLICT DO NOTHING RETURNING id`,
      [demoHash, newInviteCode(), now],
    );
    if (!user) return { staff: { username: 'admin', password: staffPassword } };
    await tx.query('INSERT INTO messages (user_id, title, body, created_at) VALUES ($1, $2, $3, $4)', [
      user.id,
      'Welcome to Keel',
      'This is a demo account. Every balance change you will see is a journal entry you can inspect.',
      now,
    ]);
    return { staff: { username: 'admin', password: staffPassword }, demoUser: { username: 'demo01', password: demoPassword } };
  });
}
