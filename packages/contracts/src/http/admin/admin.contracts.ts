import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, pageQuerySchema, plainText, publicUserSchema, secretText, staffRoles, typedText, userStatuses } from '../common.ts';

export const staffSchema = z.object({
  id: idSchema,
  username: z.string(),
  roles: z.array(z.enum(staffRoles)),
});

/** The first-login steps (ADR 0020), in the order they are taken. */
export const staffSetupSteps = ['set_password', 'enrol_totp'] as const;

/**
 * The logged-in staff member, with the first-login step still missing (ADR 0020): `set_password`
 * while they hold a one-time password, `enrol_totp` until an authenticator is enrolled, else null.
 */
export const staffMeSchema = staffSchema.extend({
  setupStep: z.enum(staffSetupSteps).nullable(),
  oneTimePasswordExpiresAt: z.string().nullable().describe('when the one-time password stops working, while setupStep is set_password'),
});

export const staffLoginContract = defineContract({
  id: 'admin.login',
  method: 'POST',
  path: '/home/admin/auth/login',
  summary:
    'Staff login (staff accounts are separate from users). A member with an authenticator sends its current code too (a wrong code counts as a failed login); a one-time password works until it expires and then only for the first-login steps. Failures lock as users’ do, per name and client address (ADR 0018: 3 free, then 1, 2, 4 … s waits, locked 30 minutes at the 10th; 429 with data.retryAfterSeconds).',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    username: typedText(64),
    password: secretText(128),
    totpCode: typedText(12).optional().describe('the authenticator code; required once the member has enrolled one'),
  }),
  data: z.object({ token: z.string(), expiresAt: z.string(), staff: staffMeSchema }),
  errors: [
    'ACCOUNT_AND_PASSWORD_EMPTY',
    'ACCOUNT_OR_PASSWORD_INCORRECT',
    'TWO_STEP_CODE_REQUIRED',
    'WRONG_VERIFICATION_CODE',
    'ONE_TIME_PASSWORD_EXPIRED',
    'TOO_MANY_REQUESTS',
  ],
});

export const staffLogoutContract = defineContract({
  id: 'admin.logout',
  method: 'POST',
  path: '/home/admin/auth/logout',
  summary: 'End the staff session.',
  caller: 'staff',
  staffSetupStep: true,
  data: z.null(),
  errors: [],
});

export const staffMeContract = defineContract({
  id: 'admin.me',
  method: 'GET',
  path: '/home/admin/me',
  summary: 'The logged-in staff member and the first-login step they still have to take, if any.',
  caller: 'staff',
  staffSetupStep: true,
  data: staffMeSchema,
  errors: [],
});

/**
 * Staff roles that read users' e-mail addresses and phone numbers in full (ADR 0023): admin runs
 * the accounts, compliance has to tie an account to a person. Any other role a view is open to
 * reads them masked (`maskEmail`, `maskPhone`), and every staff queue names users with
 * `publicUserName` whoever reads it.
 */
export const fullContactRoles = ['admin', 'compliance'] as const;

/** Who may list users: those who run accounts, and support and finance, who have to identify the user a case is about. */
export const usersListRoles = ['admin', 'compliance', 'support', 'finance'] as const;

/** Whether staff with `roles` read users' contacts in full. */
export function readsFullContacts(roles: readonly string[]): boolean {
  return roles.some((role) => (fullContactRoles as readonly string[]).includes(role));
}

export const listUsersContract = defineContract({
  id: 'admin.listUsers',
  method: 'GET',
  path: '/home/admin/users',
  summary:
    "Users, newest first, optionally filtered by a username fragment or a user's whole e-mail or phone. Roles admin and compliance read contacts in full and may search by a fragment of them; support and finance read them masked (ADR 0023).",
  caller: 'staff',
  staffRoles: usersListRoles,
  // Long enough for a whole e-mail address, which is how a masked role finds a user by contact.
  query: pageQuerySchema.extend({ q: typedText(254).optional() }),
  data: z.object({
    items: z.array(publicUserSchema),
    total: z.number().int(),
    contactsMasked: z.boolean().describe("true when the caller's roles read e-mail addresses and phone numbers masked"),
  }),
  errors: ['PERMISSION_DENIED'],
});

export const setUserStatusContract = defineContract({
  id: 'admin.setUserStatus',
  method: 'PUT',
  path: '/home/admin/users/:userId/status',
  summary:
    "Change a user's status (suspend, ban, forbid withdrawals, reactivate); audited. A suspension or ban ends the user's live connections. The answer shows contacts as the caller's roles read them (ADR 0023).",
  caller: 'staff',
  staffRoles: ['admin', 'support', 'compliance'],
  params: z.object({ userId: idSchema }),
  body: z.object({ status: z.enum(userStatuses), reason: plainText(500).min(3) }),
  data: publicUserSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const auditEntrySchema = z.object({
  id: idSchema,
  staffId: idSchema.nullable(),
  staffUsername: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const listAuditContract = defineContract({
  id: 'admin.listAudit',
  method: 'GET',
  path: '/home/admin/audit',
  summary: 'The append-only audit log of staff actions, newest first.',
  caller: 'staff',
  staffRoles: ['admin', 'compliance'],
  query: pageQuerySchema,
  data: z.object({ items: z.array(auditEntrySchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const notificationSchema = z.object({
  id: idSchema,
  channel: z.enum(['email', 'sms']),
  target: z.string(),
  subject: z.string(),
  body: z.string().describe('blanked once a provider delivered it'),
  topic: z.string(),
  status: z.enum(['pending', 'delivered', 'outbox_only']),
  provider: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});

export const listNotificationsContract = defineContract({
  id: 'admin.notifications',
  method: 'GET',
  path: '/home/admin/notifications',
  summary:
    'The notification outbox, newest first: what Keel sent or would send. With no mail server or SMS provider configured, messages (codes included) stay here for staff. Every view is audited.',
  caller: 'staff',
  staffRoles: ['admin', 'support'],
  query: pageQuerySchema.extend({ target: typedText(254).optional() }),
  data: z.object({ items: z.array(notificationSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});
