import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, pageQuerySchema, secretText, staffRoles, typedText } from '../common.ts';
import { staffSetupSteps } from './admin.contracts.ts';
import { validationMessages } from '../validation.ts';

// Staff management (issue 13, ADR 0020): admins create staff accounts with roles and a one-time
// password, change roles, disable and re-enable, reset; each member sets their own password and
// enrols an authenticator on first login, and sees and ends their own sessions.

/** Hours a one-time password works after it is issued, unless the operator configured otherwise. */
export const DEFAULT_STAFF_ONE_TIME_PASSWORD_TTL_HOURS = 72;

/** A staff member's own password: longer than a user's (staff reach everyone's data). */
export const STAFF_PASSWORD_MIN_LENGTH = 10;

export const staffUsernameSchema = typedText(32).regex(
  /^[A-Za-z0-9][A-Za-z0-9._-]{2,31}$/,
  validationMessages.staffUsernameFormat,
);

export const staffPasswordSchema = secretText(128).min(STAFF_PASSWORD_MIN_LENGTH, validationMessages.staffPasswordLength);

/** One role or more, each at most once. */
export const staffRolesSchema = z
  .array(z.enum(staffRoles))
  .min(1, validationMessages.atLeastOneRole)
  .max(staffRoles.length)
  .refine((roles) => new Set(roles).size === roles.length, validationMessages.eachRoleOnce);

export const staffAccountSchema = z.object({
  id: idSchema,
  username: z.string(),
  roles: z.array(z.enum(staffRoles)),
  active: z.boolean().describe('false once an admin disabled the account; its sessions ended then'),
  setupStep: z.enum(staffSetupSteps).nullable().describe('the first-login step the member still has to take'),
  oneTimePasswordExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable().describe('username of the admin who created it; null for the first (seeded) admin'),
  activeSessions: z.number().int(),
  lastSeenAt: z.string().nullable().describe('the latest use of any of its sessions (to the minute)'),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;

export const staffSessionSchema = z.object({
  id: idSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  lastSeenAt: z.string().nullable(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean().describe('the session making this call'),
});
export type StaffSessionView = z.infer<typeof staffSessionSchema>;

const oneTimePasswordData = z.object({
  staff: staffAccountSchema,
  oneTimePassword: z.string().describe('shown once; Keel keeps only its hash'),
  expiresAt: z.string(),
});

const staffIdParams = z.object({ staffId: idSchema });

export const listStaffContract = defineContract({
  id: 'admin.staff.list',
  method: 'GET',
  path: '/home/admin/staff',
  summary: 'Staff accounts with their roles and state, by username; optionally filtered by a username fragment.',
  caller: 'staff',
  staffRoles: ['admin'],
  query: pageQuerySchema.extend({ q: typedText(32).optional() }),
  data: z.object({ items: z.array(staffAccountSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const createStaffContract = defineContract({
  id: 'admin.staff.create',
  method: 'POST',
  path: '/home/admin/staff',
  summary:
    'Create a staff account with roles. Answers its one-time password once (only its hash is kept); it expires after STAFF_ONE_TIME_PASSWORD_TTL_HOURS (72 by default). Audited.',
  caller: 'staff',
  staffRoles: ['admin'],
  body: z.object({ username: staffUsernameSchema, roles: staffRolesSchema }),
  data: oneTimePasswordData,
  errors: ['PERMISSION_DENIED', 'USERNAME_TAKEN'],
});

export const setStaffRolesContract = defineContract({
  id: 'admin.staff.setRoles',
  method: 'PUT',
  path: '/home/admin/staff/:staffId/roles',
  summary: "Replace a staff member's roles (not one's own; the last active admin keeps the admin role). Audited.",
  caller: 'staff',
  staffRoles: ['admin'],
  params: staffIdParams,
  body: z.object({ roles: staffRolesSchema }),
  data: staffAccountSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'OWN_STAFF_ACCOUNT', 'LAST_ACTIVE_ADMIN'],
});

export const disableStaffContract = defineContract({
  id: 'admin.staff.disable',
  method: 'POST',
  path: '/home/admin/staff/:staffId/disable',
  summary: 'Disable a staff account and end its sessions at once (not one\'s own; never the last active admin). Audited.',
  caller: 'staff',
  staffRoles: ['admin'],
  params: staffIdParams,
  data: staffAccountSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'OWN_STAFF_ACCOUNT', 'LAST_ACTIVE_ADMIN'],
});

export const enableStaffContract = defineContract({
  id: 'admin.staff.enable',
  method: 'POST',
  path: '/home/admin/staff/:staffId/enable',
  summary: 'Enable a disabled staff account again. Audited.',
  caller: 'staff',
  staffRoles: ['admin'],
  params: staffIdParams,
  data: staffAccountSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'OWN_STAFF_ACCOUNT'],
});

export const resetStaffPasswordContract = defineContract({
  id: 'admin.staff.resetPassword',
  method: 'POST',
  path: '/home/admin/staff/:staffId/password-reset',
  summary:
    'Issue a new one-time password (shown once) for a member who lost their password or authenticator: their password and authenticator are replaced, their sessions end, and they take the first-login steps again. Audited.',
  caller: 'staff',
  staffRoles: ['admin'],
  params: staffIdParams,
  data: oneTimePasswordData,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'OWN_STAFF_ACCOUNT'],
});

export const listStaffSessionsContract = defineContract({
  id: 'admin.staff.sessions',
  method: 'GET',
  path: '/home/admin/staff/:staffId/sessions',
  summary: "A staff member's open sessions, newest first.",
  caller: 'staff',
  staffRoles: ['admin'],
  params: staffIdParams,
  data: z.object({ items: z.array(staffSessionSchema) }),
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const endStaffSessionContract = defineContract({
  id: 'admin.staff.endSession',
  method: 'DELETE',
  path: '/home/admin/staff/:staffId/sessions/:sessionId',
  summary: "Revoke one of a staff member's sessions. Audited.",
  caller: 'staff',
  staffRoles: ['admin'],
  params: z.object({ staffId: idSchema, sessionId: idSchema }),
  data: z.null(),
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const setOwnStaffPasswordContract = defineContract({
  id: 'admin.me.password',
  method: 'POST',
  path: '/home/admin/me/password',
  summary: `Set one's own password with the current (or one-time) one; at least ${STAFF_PASSWORD_MIN_LENGTH} characters, not the current one. Other sessions end. Audited.`,
  caller: 'staff',
  staffSetupStep: true,
  rateLimited: true,
  body: z.object({ currentPassword: secretText(128), newPassword: staffPasswordSchema }),
  data: z.null(),
  errors: ['WRONG_ORIGINAL_PASSWORD', 'NEW_PASSWORD_SAME_AS_OLD', 'TOO_MANY_REQUESTS'],
});

export const startStaffTotpContract = defineContract({
  id: 'admin.me.totp.setup',
  method: 'POST',
  path: '/home/admin/me/totp/setup',
  summary: 'Start enrolling an authenticator (after the own password is set): a new secret and its otpauth:// link for a QR code.',
  caller: 'staff',
  staffSetupStep: true,
  data: z.object({ secret: z.string(), otpauthUri: z.string() }),
  errors: ['STAFF_PASSWORD_CHANGE_REQUIRED', 'STAFF_TOTP_ALREADY_ENROLLED'],
});

export const enableStaffTotpContract = defineContract({
  id: 'admin.me.totp.enable',
  method: 'POST',
  path: '/home/admin/me/totp/enable',
  summary: 'Confirm the authenticator with a current code; from then on staff login needs a code too. Audited.',
  caller: 'staff',
  staffSetupStep: true,
  rateLimited: true,
  body: z.object({ code: typedText(12) }),
  data: z.null(),
  errors: ['STAFF_PASSWORD_CHANGE_REQUIRED', 'STAFF_TOTP_ALREADY_ENROLLED', 'WRONG_VERIFICATION_CODE', 'TOO_MANY_REQUESTS'],
});

export const listOwnStaffSessionsContract = defineContract({
  id: 'admin.me.sessions',
  method: 'GET',
  path: '/home/admin/me/sessions',
  summary: "The staff member's own open sessions, newest first.",
  caller: 'staff',
  data: z.object({ items: z.array(staffSessionSchema) }),
  errors: [],
});

export const endOwnStaffSessionContract = defineContract({
  id: 'admin.me.endSession',
  method: 'DELETE',
  path: '/home/admin/me/sessions/:sessionId',
  summary: 'End one of the own sessions (log a browser out). Audited.',
  caller: 'staff',
  params: z.object({ sessionId: idSchema }),
  data: z.null(),
  errors: ['RECORD_NOT_FOUND'],
});
