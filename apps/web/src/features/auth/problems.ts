import { errorCatalogue } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { I18n } from '../../shared/i18n/I18nProvider.tsx';
import type { FieldProblem } from './validation.ts';

const problemKeys: Record<Exclude<FieldProblem, 'passwordsInconsistent'>, MessageKey> = {
  required: 'web.validation.required',
  usernameFormat: 'web.validation.usernameFormat',
  passwordLength: 'web.validation.passwordLength',
  passwordTooLong: 'web.validation.passwordTooLong',
  passwordCharacters: 'web.validation.passwordCharacters',
  inviteCodeLength: 'web.validation.inviteCodeLength',
  agreementRequired: 'web.validation.agreementRequired',
  invalid: 'web.validation.invalid',
  emailFormat: 'web.auth.problem.emailFormat',
  phoneFormat: 'web.auth.problem.phoneFormat',
  codeFormat: 'web.auth.problem.codeFormat',
  sixDigits: 'web.auth.problem.sixDigits',
};

/** The text of a field problem; "passwords inconsistent" is the server's own catalogue message. */
export function problemText(i18n: Pick<I18n, 't' | 'tServer'>, problem: FieldProblem | undefined): string | undefined {
  if (!problem) return undefined;
  if (problem === 'passwordsInconsistent') return i18n.tServer(errorCatalogue.PASSWORDS_INCONSISTENT.msg);
  return i18n.t(problemKeys[problem]);
}
