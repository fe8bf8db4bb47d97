import type { StaffRole } from '@keel/contracts';
import { type StaffSetupStep, staffSetupStep } from '@keel/domain';
import type { Queryable } from './db.ts';

export interface StaffRow {
  id: bigint;
  username: string;
  password_hash: string;
  roles: StaffRole[];
  active: boolean;
  created_at: Date;
  /** The password is a one-time password (ADR 0020): it only lets its holder set their own. */
  password_one_time: boolean;
  /** When the one-time password stops working; null for a password the member chose. */
  password_expires_at: Date | null;
  totp_pending_secret: string | null;
  totp_secret: string | null;
  totp_last_step: bigint | null;
  created_by: bigint | null;
  updated_at: Date;
}

/** The first-login step the member still has to take, or null (ADR 0020). */
export function setupStepOf(row: StaffRow): StaffSetupStep | null {
  return staffSetupStep({ passwordOneTime: row.password_one_time, totpEnrolled: row.totp_secret !== null });
}

export function toPublicStaff(row: StaffRow) {
  return {
    id: row.id.toString(),
    username: row.username,
    roles: row.roles,
    setupStep: setupStepOf(row),
    oneTimePasswordExpiresAt: row.password_one_time ? (row.password_expires_at?.toISOString() ?? null) : null,
  };
}

export async function findStaffByUsername(db: Queryable, username: string): Promise<StaffRow | undefined> {
  const [row] = await db.query<StaffRow>('SELECT * FROM staff WHERE username = $1', [username]);
  return row;
}

/** A staff account as an admin sees it: the row, who created it, and its open sessions. */
export interface StaffAccountRow extends StaffRow {
  created_by_username: string | null;
  active_sessions: number;
  last_seen_at: Date | null;
}

const STAFF_ACCOUNT_SELECT = `
  SELECT st.*, creator.username AS created_by_username,
         (SELECT count(*)::int FROM staff_sessions s WHERE s.staff_id = st.id AND s.ended_at IS NULL AND s.expires_at > $1) AS active_sessions,
         (SELECT max(coalesce(s.last_seen_at, s.created_at)) FROM staff_sessions s WHERE s.staff_id = st.id) AS last_seen_at
  FROM staff st LEFT JOIN staff creator ON creator.id = st.created_by`;

export function toStaffAccount(row: StaffAccountRow) {
  return {
    ...toPublicStaff(row),
    active: row.active,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by_username,
    activeSessions: row.active_sessions,
    lastSeenAt: row.last_seen_at?.toISOString() ?? null,
  };
}

export async function findStaffAccount(db: Queryable, staffId: bigint, now: Date): Promise<StaffAccountRow | undefined> {
  const [row] = await db.query<StaffAccountRow>(`${STAFF_ACCOUNT_SELECT} WHERE st.id = $2`, [now, staffId]);
  return row;
}

/** Staff accounts by username (case-insensitively), optionally those whose name contains `fragment`. */
export async function listStaffAccounts(
  db: Queryable,
  input: { fragment?: string; limit: number; offset: number; now: Date },
): Promise<{ items: StaffAccountRow[]; total: number }> {
  // The fragment is matched literally: LIKE's wildcards in it are escaped.
  const pattern = input.fragment ? `%${input.fragment.toLowerCase().replaceAll(/[\\%_]/g, (char) => `\\${char}`)}%` : null;
  const items = await db.query<StaffAccountRow>(
    `${STAFF_ACCOUNT_SELECT} WHERE ($2::text IS NULL OR lower(st.username) LIKE $2) ORDER BY lower(st.username), st.id LIMIT $3 OFFSET $4`,
    [input.now, pattern, input.limit, input.offset],
  );
  const [count] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM staff WHERE ($1::text IS NULL OR lower(username) LIKE $1)', [
    pattern,
  ]);
  return { items, total: count?.total ?? 0 };
}

export interface StaffSessionRow {
  id: bigint;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  last_seen_at: Date | null;
  client_ip: string | null;
  user_agent: string | null;
}

/** A member's open (not ended, not expired) sessions, newest first. */
export async function listOpenStaffSessions(db: Queryable, staffId: bigint, now: Date): Promise<StaffSessionRow[]> {
  return db.query<StaffSessionRow>(
    `SELECT id, token_hash, created_at, expires_at, last_seen_at, client_ip, user_agent FROM staff_sessions
     WHERE staff_id = $1 AND ended_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id DESC LIMIT 100`,
    [staffId, now],
  );
}

export function toStaffSessionView(row: StaffSessionRow, currentTokenHash: string) {
  return {
    id: row.id.toString(),
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastSeenAt: row.last_seen_at?.toISOString() ?? null,
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    current: row.token_hash === currentTokenHash,
  };
}

/** Ends one open session of a member; false when it is not theirs or already ended. */
export async function endStaffSessionById(db: Queryable, staffId: bigint, sessionId: bigint, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE staff_sessions SET ended_at = $3 WHERE id = $1 AND staff_id = $2 AND ended_at IS NULL RETURNING id', [
    sessionId,
    staffId,
    now,
  ]);
  return rows.length > 0;
}

/** Ends every open session of a member (all but `keepTokenHash`, when given); answers how many. */
export async function endStaffSessions(db: Queryable, staffId: bigint, now: Date, keepTokenHash?: string): Promise<number> {
  const rows = await db.query(
    'UPDATE staff_sessions SET ended_at = $2 WHERE staff_id = $1 AND ended_at IS NULL AND token_hash IS DISTINCT FROM $3 RETURNING id',
    [staffId, now, keepTokenHash ?? null],
  );
  return rows.length;
}
