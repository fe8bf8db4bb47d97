import type { Queryable } from './db.ts';
import { hashToken, newSessionToken } from '../security/tokens.ts';

export interface NewSession {
  token: string;
  expiresAt: Date;
}

export async function createUserSession(
  db: Queryable,
  input: { userId: bigint; now: Date; ttlHours: number; clientIp?: string; userAgent?: string },
): Promise<NewSession> {
  const token = newSessionToken();
  const expiresAt = new Date(input.now.getTime() + input.ttlHours * 3_600_000);
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, created_at, expires_at, client_ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [hashToken(token), input.userId, input.now, expiresAt, input.clientIp ?? null, input.userAgent?.slice(0, 300) ?? null],
  );
  return { token, expiresAt };
}

export async function createStaffSession(
  db: Queryable,
  input: { staffId: bigint; now: Date; ttlHours: number; clientIp?: string; userAgent?: string },
): Promise<NewSession> {
  const token = newSessionToken();
  const expiresAt = new Date(input.now.getTime() + input.ttlHours * 3_600_000);
  await db.query(
    `INSERT INTO staff_sessions (token_hash, staff_id, created_at, expires_at, client_ip, user_agent, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $3)`,
    [hashToken(token), input.staffId, input.now, expiresAt, input.clientIp ?? null, input.userAgent?.slice(0, 300) ?? null],
  );
  return { token, expiresAt };
}
