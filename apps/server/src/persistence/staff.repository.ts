import type { StaffRole } from '@keel/contracts';
import type { Queryable } from './db.ts';

export interface StaffRow {
  id: bigint;
  username: string;
  password_hash: string;
  roles: StaffRole[];
  active: boolean;
  created_at: Date;
}

export function toPublicStaff(row: StaffRow) {
  return { id: row.id.toString(), username: row.username, roles: row.roles };
}

export async function findStaffByUsername(db: Queryable, username: string): Promise<StaffRow | undefined> {
  const [row] = await db.query<StaffRow>('SELECT * FROM staff WHERE username = $1', [username]);
  return row;
}
