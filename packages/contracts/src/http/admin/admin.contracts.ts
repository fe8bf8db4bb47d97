import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, pageQuerySchema, publicUserSchema, staffRoles, userStatuses } from '../common.ts';

export const staffSchema = z.object({
  id: idSchema,
  username: z.string(),
  roles: z.array(z.enum(staffRoles)),
});

export const staffLoginContract = defineContract({
  id: 'admin.login',
  method: 'POST',
  path: '/home/admin/auth/login',
  summary: 'Staff login (staff accounts are separate from users).',
  caller: 'public',
  rateLimited: true,
  body: z.object({ username: z.string().trim().max(64), password: z.string().max(128) }),
  data: z.object({ token: z.string(), expiresAt: z.string(), staff: staffSchema }),
  errors: ['ACCOUNT_AND_PASSWORD_EMPTY', 'ACCOUNT_OR_PASSWORD_INCORRECT', 'TOO_MANY_REQUESTS'],
});

export const staffLogoutContract = defineContract({
  id: 'admin.logout',
  method: 'POST',
  path: '/home/admin/auth/logout',
  summary: 'End the staff session.',
  caller: 'staff',
  data: z.null(),
  errors: [],
});

export const staffMeContract = defineContract({
  id: 'admin.me',
  method: 'GET',
  path: '/home/admin/me',
  summary: 'The logged-in staff member.',
  caller: 'staff',
  data: staffSchema,
  errors: [],
});

export const listUsersContract = defineContract({
  id: 'admin.listUsers',
  method: 'GET',
  path: '/home/admin/users',
  summary: 'Users, newest first, optionally filtered by a username fragment.',
  caller: 'staff',
  query: pageQuerySchema.extend({ q: z.string().trim().max(32).optional() }),
  data: z.object({ items: z.array(publicUserSchema), total: z.number().int() }),
  errors: [],
});

export const setUserStatusContract = defineContract({
  id: 'admin.setUserStatus',
  method: 'PUT',
  path: '/home/admin/users/:userId/status',
  summary: "Change a user's status (suspend, ban, forbid withdrawals, reactivate); audited.",
  caller: 'staff',
  staffRoles: ['admin', 'support', 'compliance'],
  params: z.object({ userId: idSchema }),
  body: z.object({ status: z.enum(userStatuses), reason: z.string().trim().min(3).max(500) }),
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
  query: pageQuerySchema.extend({ target: z.string().trim().max(254).optional() }),
  data: z.object({ items: z.array(notificationSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});
