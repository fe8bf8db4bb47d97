import { z } from 'zod';

/** Locales of the 13 catalogues (decisions page). Kept here so server and apps agree. */
export const localeCodes = [
  'en', 'de', 'es', 'fr', 'fr-pro', 'it', 'it-pro', 'ru', 'zh-Hans', 'zh-Hant', 'ja', 'vi', 'ar',
] as const;
export type LocaleCode = (typeof localeCodes)[number];
export const localeSchema = z.enum(localeCodes);

export const userStatuses = ['active', 'suspended', 'banned', 'withdrawal_forbidden'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const staffRoles = ['admin', 'compliance', 'finance', 'support', 'content', 'merchant'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** Ids are bigint in the database and decimal strings on the wire. */
export const idSchema = z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer id');

/** Spec section 5: at least 6 characters of letters or digits. The upper bound is a Keel limit. */
export const usernameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{6,32}$/, 'must be 6 to 32 letters or digits');

/**
 * Spec section 5 asks for at least 6 letters or digits; Keel also allows symbols (they only make
 * a password stronger) and bounds the length so hashing cost stays bounded.
 */
export const passwordSchema = z
  .string()
  .min(6, 'must be at least 6 characters')
  .max(128, 'must be at most 128 characters')
  .regex(/[A-Za-z0-9]/, 'must contain a letter or a digit');

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

/** How a user is named on screen: nickname, else username, else the e-mail or phone they registered with. */
export function userDisplayName(user: Pick<PublicUser, 'id' | 'nickname' | 'username' | 'email' | 'phone'>): string {
  return user.nickname ?? user.username ?? user.email ?? user.phone ?? `#${user.id}`;
}

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const nullData = z.null();
