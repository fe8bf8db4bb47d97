import { AppError, type LocaleCode } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { findUserByInviteCode, findUserById, type UserRow } from '../../persistence/users.repository.ts';
import { createUserSession, type NewSession } from '../../persistence/sessions.repository.ts';
import { hashPassword } from '../../security/passwords.ts';
import { newInviteCode } from '../../security/tokens.ts';

export interface RegisterUserInput {
  username: string;
  password: string;
  confirmPassword: string;
  inviteCode?: string;
  language?: LocaleCode;
  clientIp?: string;
  userAgent?: string;
}

const UNIQUE_VIOLATION = '23505';

/** Registers a user by username and opens their first session. */
export async function registerUser(deps: Deps, input: RegisterUserInput): Promise<{ user: UserRow; session: NewSession }> {
  if (input.password !== input.confirmPassword) throw new AppError('PASSWORDS_INCONSISTENT');
  const inviteCode = input.inviteCode?.trim() || undefined;
  if (!inviteCode && deps.config.INVITE_CODE_REQUIRED) throw new AppError('INVALID_INVITATION_CODE');

  // Hash before the transaction: it is the slow part and needs no lock.
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      let invitedBy: bigint | null = null;
      if (inviteCode) {
        const inviter = await findUserByInviteCode(tx, inviteCode);
        if (!inviter) throw new AppError('INVALID_INVITATION_CODE');
        invitedBy = inviter.id;
      }
      const existing = await tx.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [input.username]);
      if (existing.length > 0) throw new AppError('USERNAME_TAKEN');
      const [inserted] = await tx.query<{ id: bigint }>(
        `INSERT INTO users (username, password_hash, language, invite_code, invited_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [input.username, passwordHash, input.language ?? 'en', newInviteCode(), invitedBy, now],
      );
      const user = (await findUserById(tx, inserted!.id))!;
      const session = await createUserSession(tx, {
        userId: user.id,
        now,
        ttlHours: deps.config.SESSION_TTL_HOURS,
        clientIp: input.clientIp,
        userAgent: input.userAgent,
      });
      return { user, session };
    });
  } catch (error) {
    // Two registrations of one name at once: the unique index decides, the loser hears "taken".
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new AppError('USERNAME_TAKEN');
    throw error;
  }
}
