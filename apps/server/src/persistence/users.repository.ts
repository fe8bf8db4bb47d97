import type { LocaleCode, PublicUser, UserStatus } from '@keel/contracts';
import type { Queryable } from './db.ts';

export interface UserRow {
  id: bigint;
  username: string | null;
  email: string | null;
  phone: string | null;
  password_hash: string;
  payment_password_hash: string | null;
  anti_phishing_code: string | null;
  contact_methods: unknown;
  login_password_changed_at: Date | null;
  totp_pending_secret: string | null;
  totp_secret: string | null;
  totp_last_step: bigint | null;
  nickname: string | null;
  status: UserStatus;
  language: LocaleCode;
  invite_code: string;
  invited_by: bigint | null;
  created_at: Date;
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id.toString(),
    username: row.username,
    email: row.email,
    phone: row.phone,
    nickname: row.nickname,
    status: row.status,
    language: row.language,
    inviteCode: row.invite_code,
    createdAt: row.created_at.toISOString(),
  };
}

export async function findUserById(db: Queryable, id: bigint): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  return row;
}

export async function findUserByInviteCode(db: Queryable, code: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>('SELECT * FROM users WHERE invite_code = upper($1)', [code]);
  return row;
}
