/**
 * Client-side checks that mirror the server's contracts (spec section 5), so most mistakes are
 * shown before a round trip. The server stays the authority: its answer is always shown too.
 */

export type FieldProblem =
  | 'required'
  | 'usernameFormat'
  | 'passwordLength'
  | 'passwordTooLong'
  | 'passwordCharacters'
  | 'passwordsInconsistent'
  | 'inviteCodeLength'
  | 'agreementRequired'
  | 'invalid'
  // Issue 4: phone, e-mail, codes and the payment password.
  | 'emailFormat'
  | 'phoneFormat'
  | 'codeFormat'
  | 'sixDigits';

export interface RegistrationInput {
  username: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
  agreement: boolean;
}

export type RegistrationField = keyof RegistrationInput;
export type FieldProblems<F extends string> = Partial<Record<F, FieldProblem>>;

const USERNAME = /^[A-Za-z0-9]{6,32}$/;
const PASSWORD_MAX = 128;
const INVITE_CODE_MAX = 16;

/** The password rule of the register contract: 6 to 128 characters with a letter or a digit. */
export function passwordProblem(password: string): FieldProblem | undefined {
  if (password === '') return 'required';
  if (password.length < 6) return 'passwordLength';
  if (password.length > PASSWORD_MAX) return 'passwordTooLong';
  if (!/[A-Za-z0-9]/.test(password)) return 'passwordCharacters';
  return undefined;
}

export function validateRegistration(input: RegistrationInput): FieldProblems<RegistrationField> {
  const problems: FieldProblems<RegistrationField> = {};
  const username = input.username.trim();
  if (username === '') problems.username = 'required';
  else if (!USERNAME.test(username)) problems.username = 'usernameFormat';
  const password = passwordProblem(input.password);
  if (password) problems.password = password;
  if (input.confirmPassword === '') problems.confirmPassword = 'required';
  else if (input.confirmPassword !== input.password) problems.confirmPassword = 'passwordsInconsistent';
  if (input.inviteCode.trim().length > INVITE_CODE_MAX) problems.inviteCode = 'inviteCodeLength';
  if (!input.agreement) problems.agreement = 'agreementRequired';
  return problems;
}

export interface LoginInput {
  account: string;
  password: string;
  agreement: boolean;
}

/** 'empty' matches the server's "account and password cannot be empty". */
export function validateLogin(input: LoginInput): { empty: boolean; agreement?: FieldProblem } {
  return {
    empty: input.account.trim() === '' || input.password === '',
    agreement: input.agreement ? undefined : 'agreementRequired',
  };
}

/** What each field's server-side failure means to the user, by the field's name. */
const serverFieldProblem: Record<string, FieldProblem> = {
  username: 'usernameFormat',
  inviteCode: 'inviteCodeLength',
  agreement: 'agreementRequired',
  confirmPassword: 'invalid',
  account: 'invalid',
};

/**
 * Reads `data.fields` of a "parameter error" answer ([{ field: 'body.username', message }]) into
 * problems per form field. The server's messages are English developer text, so each field gets
 * the translated rule for that field instead.
 */
export function problemsFromServer<F extends string>(data: unknown, known: readonly F[]): FieldProblems<F> {
  const fields = (data as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return {};
  const problems: FieldProblems<F> = {};
  for (const entry of fields) {
    const path = typeof (entry as { field?: unknown })?.field === 'string' ? ((entry as { field: string }).field) : '';
    const name = path.replace(/^body\./, '').split('.')[0] as F;
    if (!known.includes(name) || problems[name]) continue;
    problems[name] = name === 'password' ? 'passwordLength' : (serverFieldProblem[name] ?? 'invalid');
  }
  return problems;
}
