import { AppError, type LocaleCode, parameterErrorField } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { findUserByInviteCode, findUserById, type UserRow } from '../../persistence/users.repository.ts';
import { createUserSession, type NewSession } from '../../persistence/sessions.repository.ts';
import { hashPassword } from '../../security/passwords.ts';
import { newInviteCode } from '../../security/tokens.ts';
import { checkCode, consumeCode } from '../../persistence/verification-codes.store.ts';
import { findUserByContact, normalizeTarget } from './contact-target.ts';
import { recordInvitation } from '../invitations/invite-rewards.ts';

export interface RegisterUserInput {
  /** Exactly one of username, email and phone (the contract checks it). */
  username?: string;
  email?: string;
  phone?: string;
  /** The code sent to the e-mail or phone; not used for a username. */
  code?: string;
  password: string;
  confirmPassword: string;
  inviteCode?: string;
  language?: LocaleCode;
  clientIp?: string;
  userAgent?: string;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Registers a user by username, e-mail or phone and opens their first session. E-mail and phone
 * need the code sent to them: it is checked first (a wrong guess counts even though the
 * registration then fails) and consumed inside the registration's transaction, so one code makes
 * one account.
 */
export async function registerUser(deps: Deps, input: RegisterUserInput): Promise<{ user: UserRow; session: NewSession }> {
  if (input.password !== input.confirmPassword) throw new AppError('PASSWORDS_INCONSISTENT');
  const inviteCode = input.inviteCode?.trim() || undefined;
  if (!inviteCode && deps.config.INVITE_CODE_REQUIRED) throw new AppError('INVALID_INVITATION_CODE');
  const contact = input.email
    ? { channel: 'email' as const, target: normalizeTarget('email', input.email, 'body.email') }
    : input.phone
      ? { channel: 'sms' as const, target: normalizeTarget('sms', input.phone, 'body.phone') }
      : undefined;
  let codeId: bigint | undefined;
  if (contact) {
    if (!input.code) throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField('body.code', 'required')] });
    const check = await checkCode(deps.db, { purpose: 'register', target: contact.target, code: input.code, now: deps.now() });
    if (!check.ok) throw new AppError('WRONG_VERIFICATION_CODE');
    codeId = check.codeId;
  }

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
      if (input.username) {
        const existing = await tx.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [input.username]);
        if (existing.length > 0) throw new AppError('USERNAME_TAKEN');
      }
      if (contact) {
        if (await findUserByContact(tx, contact.channel, contact.target)) throw new AppError('PHONE_OR_EMAIL_REGISTERED');
        if (!(await consumeCode(tx, codeId!, now))) throw new AppError('WRONG_VERIFICATION_CODE');
      }
      const [inserted] = await tx.query<{ id: bigint }>(
        `INSERT INTO users (username, email, phone, password_hash, language, invite_code, invited_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          input.username || null,
          contact?.channel === 'email' ? contact.target : null,
          contact?.channel === 'sms' ? contact.target : null,
          passwordHash,
          input.language ?? 'en',
          newInviteCode(),
          invitedBy,
          now,
        ],
      );
      // Who invited them, under the reward rule published now (issue 20, ADR 0045); nothing is paid for the sign-up itself.
      if (invitedBy !== null) await recordInvitation(tx, deps.config, inserted!.id, invitedBy, now);
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
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new AppError(contact ? 'PHONE_OR_EMAIL_REGISTERED' : 'USERNAME_TAKEN');
    throw error;
  }
}
