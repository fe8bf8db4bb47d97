import { translate } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';

/**
 * The line every e-mail to a user carries once they set an anti-phishing code: a mail claiming to
 * be from Keel without it is not from Keel.
 */
export function antiPhishingLine(user: Pick<UserRow, 'anti_phishing_code' | 'language'> | undefined, channel: 'email' | 'sms'): string {
  if (!user?.anti_phishing_code || channel !== 'email') return '';
  return `\n\n${translate(user.language, 'notify.antiPhishing', { code: user.anti_phishing_code })}`;
}

export async function setAntiPhishingCode(deps: Deps, userId: bigint, code: string): Promise<void> {
  await deps.db.query('UPDATE users SET anti_phishing_code = $2 WHERE id = $1', [userId, code]);
}
