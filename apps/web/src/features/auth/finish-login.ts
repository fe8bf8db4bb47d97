import type { LocaleCode } from '@keel/contracts';
import { session } from '../../shared/api/session.ts';
import { storedLocale } from '../../shared/i18n/locale.ts';

/**
 * Starts the session a login or registration answered with. A device that never chose a language
 * takes the account's, so a user sees their language on a new phone.
 */
export function finishLogin(answer: { token: string; userId: string; user: { language: LocaleCode } }, adoptLocale: (locale: LocaleCode) => void) {
  session.start(answer.token, answer.userId);
  if (storedLocale() === null && answer.user.language !== 'en') adoptLocale(answer.user.language);
}
