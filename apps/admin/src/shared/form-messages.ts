import { zodResolver } from '@hookform/resolvers/zod';
import { describeIssue, type FieldProblem, type IssueLike, ruleOfMessage, STAFF_PASSWORD_MIN_LENGTH, type ValidationRule } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

// Every back-office form is react-hook-form with the body schema of its contract (ADR 0028): the
// rule lives in packages/contracts, the form shows it before sending, and the server still
// decides. Field errors are catalogue keys, translated when shown: zod's English never reaches
// the page: a problem is named by rule as the contracts name it (ADR 0027) and said with an
// admin.* key. This file is the part without React (unit-tested); forms.tsx the hook and the text.

/** A field error as the form keeps it: a catalogue key and its values, encoded in the error's message. */
export interface FieldMessage {
  key: MessageKey;
  vars?: Record<string, string | number>;
}

const SEPARATOR = '\u241f';

/** A catalogue key (and its values) as the text a form error carries. */
export function fieldMessage(key: MessageKey, vars?: Record<string, string | number>): string {
  return vars ? `${key}${SEPARATOR}${JSON.stringify(vars)}` : key;
}

/** The catalogue key a form error carries, or null for any other text (a message the contract wrote in English). */
export function readFieldMessage(text: string | undefined): FieldMessage | null {
  const [key, vars] = (text ?? '').split(SEPARATOR);
  // A key is one word of dotted names (`admin.form.tooLong`); an English message has spaces.
  if (!key || !/^(admin|error)\.[\w.]+$/.test(key)) return null;
  return { key: key as MessageKey, ...(vars ? { vars: JSON.parse(vars) as Record<string, string | number> } : {}) };
}

/**
 * The back-office's sentence for a problem, named by rule as the contracts name it (ADR 0027:
 * `describeIssue`, `validationMessages`): the rules its forms can meet have their own text; any
 * other reads "check this value". Numbers travel with the key (`{ min: 3 }`).
 */
export function problemMessage(problem: FieldProblem): string {
  const sentence = ruleSentences[problem.rule] ?? ruleSentences.invalid!;
  return sentence(problem.values ?? {});
}

type Sentence = (values: Record<string, number | string>) => string;
const say =
  (key: MessageKey): Sentence =>
  () =>
    fieldMessage(key);

const ruleSentences: Partial<Record<ValidationRule, Sentence>> = {
  required: say('admin.form.required'),
  tooShort: (values) => fieldMessage('admin.form.tooShort', { min: values.minimum ?? 0 }),
  tooLong: (values) => fieldMessage('admin.form.tooLong', { max: values.maximum ?? 0 }),
  noControlCharacters: say('admin.form.invalidCharacters'),
  noControlCharactersButLineBreaks: say('admin.form.invalidCharacters'),
  noMarkup: say('admin.form.invalidCharacters'),
  idFormat: say('admin.form.idFormat'),
  staffUsernameFormat: say('admin.staff.usernameHint'),
  staffPasswordLength: () => fieldMessage('admin.password.tooShort', { min: STAFF_PASSWORD_MIN_LENGTH }),
  atLeastOneRole: say('admin.staff.rolesHint'),
  eachRoleOnce: say('admin.staff.rolesHint'),
  rejectionReason: say('admin.verifications.reasonRequired'),
  appealNote: say('admin.appeals.noteTooShort'),
  invalid: say('admin.form.invalid'),
};

/** What a zod issue means, as zod's error map asks it for issues whose schema wrote no message of its own. */
export function issueMessage(issue: z.core.$ZodRawIssue): string {
  return problemMessage(describeIssue(issue as IssueLike));
}

/**
 * The message of a field for an issue code (`too_small`, `invalid_format`, `custom` …, or `*` for
 * any), where the form has a better sentence than the rule's own (a rejection's reason in the
 * finance queues, which the contract wants 3 characters long): `{ reason: { custom: fieldMessage('admin.finance.reasonTooShort') } }`.
 */
export type FieldMessages = Record<string, Partial<Record<string, string>>>;

/**
 * Replaces every error's message with a catalogue key: the form's own for the field and issue,
 * else the one `issueMessage` chose, else — for a message the contract wrote, the English of
 * `validationMessages` — the sentence of the rule it names.
 */
export function localizeErrors(errors: FieldErrors, messages: FieldMessages, prefix = ''): void {
  for (const [name, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const path = `${prefix}${name}`;
    const error = value as FieldError;
    if (typeof error.type !== 'string') {
      localizeErrors(value as FieldErrors, messages, `${path}.`);
      continue;
    }
    const own = messages[path]?.[error.type] ?? messages[path]?.['*'];
    if (own) error.message = own;
    else if (!readFieldMessage(error.message)) {
      const rule = ruleOfMessage(error.message ?? '');
      error.message = problemMessage({ rule: rule ?? 'invalid' });
    }
  }
}

/** A contract's schema as the resolver of a form, its errors as catalogue keys. */
export function contractResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  messages: FieldMessages = {},
): Resolver<Input, unknown, Output> {
  const resolve = zodResolver(schema, { error: issueMessage }) as unknown as Resolver<Input, unknown, Output>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    localizeErrors(result.errors, messages);
    return result;
  };
}
