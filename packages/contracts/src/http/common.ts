import { normalizeEmail, normalizePhone } from '@keel/domain';
import { z } from 'zod';
import { validationMessages } from './validation.ts';
import { localeCodes } from '../i18n/locales.ts';

export const localeSchema = z.enum(localeCodes);

export const userStatuses = ['active', 'suspended', 'banned', 'withdrawal_forbidden'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const staffRoles = ['admin', 'compliance', 'finance', 'support', 'content', 'merchant'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** The largest id a PostgreSQL `bigint` column holds (2^63 − 1). */
export const MAX_ID = 9_223_372_036_854_775_807n;

/**
 * Ids are bigint in the database and decimal strings on the wire. Nineteen digits can still pass
 * the column's range, so the value is bounded too: a larger one is "parameter error", never a
 * database error (issue 13).
 */
export const idSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, validationMessages.idFormat)
  .refine(withinIdRange, validationMessages.idFormat);

/** A position before an id, for "after this one": 0 (before the first) or an id, bounded the same way. */
export const idCursorSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,18})$/, validationMessages.idCursorFormat)
  .refine(withinIdRange, validationMessages.idCursorFormat);

/** zod runs a refinement even when the pattern before it failed, so this must not assume digits. */
function withinIdRange(value: string): boolean {
  return !/^[0-9]{19}$/.test(value) || BigInt(value) <= MAX_ID;
}

/**
 * Control characters (NUL included) and lone UTF-16 surrogates have no place in anything a person
 * types: PostgreSQL refuses NUL in text and a lone surrogate in JSON, and neither is a character.
 */
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cs}]*$/u;
const NO_CONTROL_CHARACTERS_OR_MARKUP = /^[^\p{Cc}\p{Cs}<>]*$/u;

/**
 * Text a person types that others may read (a remark, a reason, a note, a name): trimmed, at most
 * `max` characters, no control characters and no angle brackets. Chain `.min(n)` for a required one.
 */
export const plainText = (max: number) =>
  z.string().trim().max(max).regex(NO_CONTROL_CHARACTERS_OR_MARKUP, validationMessages.noMarkup);

/**
 * A typed value that is matched or looked up, never shown as markup (an account name, a search
 * term, an address, a code): trimmed, at most `max` characters, no control characters.
 */
export const typedText = (max: number) => z.string().trim().max(max).regex(NO_CONTROL_CHARACTERS, validationMessages.noControlCharacters);

/**
 * Text typed in a multi-line box and always shown as text, never as markup (a chat message, a
 * staff member's reason): trimmed, at most `max` characters, line breaks and tabs allowed, no
 * other control characters.
 */
export const multilineText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u, validationMessages.noControlCharactersButLineBreaks);

/** A secret as typed (a password): not trimmed, at most `max` characters, no control characters. */
export const secretText = (max: number) => z.string().max(max).regex(NO_CONTROL_CHARACTERS, validationMessages.noControlCharacters);

/** Spec section 5: at least 6 characters of letters or digits. The upper bound is a Keel limit. */
export const usernameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{6,32}$/, validationMessages.usernameFormat);

/**
 * Spec section 5 asks for at least 6 letters or digits; Keel also allows symbols (they only make
 * a password stronger) and bounds the length so hashing cost stays bounded.
 */
export const passwordSchema = z
  .string()
  .min(6, validationMessages.passwordLength)
  .max(128, validationMessages.passwordTooLong)
  .regex(/[A-Za-z0-9]/, validationMessages.passwordCharacters)
  .regex(NO_CONTROL_CHARACTERS, validationMessages.noControlCharacters);

/**
 * An e-mail address as the domain's `normalizeEmail` accepts it (spec section 5: "incorrect email
 * format"). The forms check it before a code is asked for; the use cases normalise with the same function.
 */
export const emailAddressSchema = typedText(254).refine((text) => normalizeEmail(text) !== undefined, validationMessages.emailFormat);

/**
 * A phone number in international form as the domain's `normalizePhone` accepts it: + (or 00) and
 * 8–15 digits, spaces, dots, dashes and brackets allowed.
 */
export const phoneNumberSchema = typedText(32).refine((text) => normalizePhone(text) !== undefined, validationMessages.phoneFormat);

export const publicUserSchema = z.object({
  id: idSchema,
  username: z.string().nullable().describe('null for users who registered by phone or e-mail'),
  email: z.string().nullable(),
  phone: z.string().nullable().describe('E.164, e.g. +491701234567'),
  nickname: z.string().nullable(),
  status: z.enum(userStatuses),
  language: localeSchema,
  inviteCode: z.string(),
  createdAt: z.string().describe('ISO 8601 time of registration'),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const nullData = z.null();
