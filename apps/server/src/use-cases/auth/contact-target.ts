import { AppError, parameterErrorField } from '@keel/contracts';
import { type CodeChannel, normalizeEmail, normalizePhone } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import type { UserRow } from '../../persistence/users.repository.ts';

/**
 * The e-mail address or phone number a code goes to, normalised, with the catalogue's errors:
 * "e-mail required" / "phone required" when empty, "wrong phone number", and for a malformed
 * e-mail the spec's "incorrect email format" as a parameter error on the field.
 */
export function normalizeTarget(channel: CodeChannel, text: string, field = 'body.target'): string {
  if (text.trim() === '') throw new AppError(channel === 'email' ? 'EMAIL_REQUIRED' : 'PHONE_REQUIRED');
  if (channel === 'email') {
    const email = normalizeEmail(text);
    if (!email) throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField(field, 'emailFormat')] });
    return email;
  }
  const phone = normalizePhone(text);
  if (!phone) throw new AppError('WRONG_PHONE_NUMBER');
  return phone;
}

export async function findUserByContact(db: Queryable, channel: CodeChannel, target: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(channel === 'email' ? 'SELECT * FROM users WHERE email = $1' : 'SELECT * FROM users WHERE phone = $1', [
    target,
  ]);
  return row;
}
