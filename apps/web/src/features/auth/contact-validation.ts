import { CODE_TTL_MS, normalizeEmail, normalizePhone } from '@keel/domain';
import { type FieldProblem, type FieldProblems, passwordProblem } from './validation.ts';

/**
 * Client-side checks for the phone and e-mail flows of issue 4 (register, recover, bind), mirroring
 * the server's rules (spec section 5: required fields, "incorrect email format", passwords must
 * match, the agreement). The server stays the authority; its answer is always shown as well.
 */

export type CodeChannel = 'email' | 'sms';
/** How a user registers: by phone, by e-mail or by username (spec section 2). */
export type RegisterChannel = CodeChannel | 'username';

export function emailProblem(text: string): FieldProblem | undefined {
  if (text.trim() === '') return 'required';
  return normalizeEmail(text) ? undefined : 'emailFormat';
}

/** An international number: + (or 00) and 8–15 digits; spaces, dots, dashes and brackets are fine. */
export function phoneProblem(text: string): FieldProblem | undefined {
  if (text.trim() === '') return 'required';
  return normalizePhone(text) ? undefined : 'phoneFormat';
}

export function targetProblem(channel: CodeChannel, text: string): FieldProblem | undefined {
  return channel === 'email' ? emailProblem(text) : phoneProblem(text);
}

/** The 6-digit code that was sent. */
export function codeProblem(text: string): FieldProblem | undefined {
  if (text.trim() === '') return 'required';
  return /^\d{6}$/.test(text.trim()) ? undefined : 'codeFormat';
}

/** The payment password: exactly six digits, separate from the login password. */
export function sixDigitsProblem(text: string): FieldProblem | undefined {
  if (text === '') return 'required';
  return /^\d{6}$/.test(text) ? undefined : 'sixDigits';
}

export function confirmProblem(password: string, confirm: string): FieldProblem | undefined {
  if (confirm === '') return 'required';
  return confirm === password ? undefined : 'passwordsInconsistent';
}

function drop<F extends string>(problems: Partial<Record<F, FieldProblem | undefined>>): FieldProblems<F> {
  const found: FieldProblems<F> = {};
  for (const [field, problem] of Object.entries(problems) as [F, FieldProblem | undefined][]) {
    if (problem) found[field] = problem;
  }
  return found;
}

export interface ContactRegistrationInput {
  target: string;
  code: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
  agreement: boolean;
}

export type ContactRegistrationField = keyof ContactRegistrationInput;

/** Registration by phone or e-mail: the address, its code, the password twice, the agreement. */
export function validateContactRegistration(channel: CodeChannel, input: ContactRegistrationInput): FieldProblems<ContactRegistrationField> {
  return drop<ContactRegistrationField>({
    target: targetProblem(channel, input.target),
    code: codeProblem(input.code),
    password: passwordProblem(input.password),
    confirmPassword: confirmProblem(input.password, input.confirmPassword),
    inviteCode: input.inviteCode.trim().length > 16 ? 'inviteCodeLength' : undefined,
    agreement: input.agreement ? undefined : 'agreementRequired',
  });
}

export interface ResetInput {
  target: string;
  code: string;
  password: string;
  confirmPassword: string;
}

export type ResetField = keyof ResetInput;

/** Password recovery by phone or e-mail. */
export function validateReset(channel: CodeChannel, input: ResetInput): FieldProblems<ResetField> {
  return drop<ResetField>({
    target: targetProblem(channel, input.target),
    code: codeProblem(input.code),
    password: passwordProblem(input.password),
    confirmPassword: confirmProblem(input.password, input.confirmPassword),
  });
}

/**
 * How long to wait before another code may be sent, from the server's answer. The answer's times
 * are on the server's clock; their difference is not, so a device whose clock is off still counts
 * down the right number of seconds (expiresAtMs = sent + 5 min, resendAfterMs = sent + cooldown).
 */
export function resendWaitMs(answer: { expiresAtMs: number; resendAfterMs: number }): number {
  return Math.max(0, Math.min(CODE_TTL_MS, CODE_TTL_MS - (answer.expiresAtMs - answer.resendAfterMs)));
}

/** `data.retryAfterSeconds` of a 429 answer ("too many requests"), if there is one. */
export function retryAfterSeconds(data: unknown): number | undefined {
  const value = (data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}
