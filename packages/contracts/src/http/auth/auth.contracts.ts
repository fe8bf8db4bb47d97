import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { localeSchema, passwordSchema, publicUserSchema, usernameSchema } from '../common.ts';

const sessionData = z.object({
  token: z.string().describe('opaque session token; send it in the Authorization header'),
  userId: z.string(),
  expiresAt: z.string(),
  user: publicUserSchema,
});

export const registerContract = defineContract({
  id: 'auth.register',
  method: 'POST',
  path: '/home/auth/register',
  summary: 'Register by username and password; answers with a session.',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    username: usernameSchema,
    password: passwordSchema,
    confirmPassword: z.string().max(128),
    agreement: z.literal(true, { error: 'the user agreement must be accepted' }),
    inviteCode: z.string().trim().max(16).optional(),
    language: localeSchema.optional(),
  }),
  data: sessionData,
  errors: ['PASSWORDS_INCONSISTENT', 'USERNAME_TAKEN', 'INVALID_INVITATION_CODE', 'TOO_MANY_REQUESTS'],
});

export const loginContract = defineContract({
  id: 'auth.login',
  method: 'POST',
  path: '/home/auth/login',
  summary: 'Log in by username and password; answers with a session.',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    account: z.string().trim().max(64),
    password: z.string().max(128),
    agreement: z.literal(true, { error: 'the user agreement must be accepted' }),
  }),
  data: sessionData,
  errors: ['ACCOUNT_AND_PASSWORD_EMPTY', 'ACCOUNT_OR_PASSWORD_INCORRECT', 'ACCOUNT_BANNED', 'TOO_MANY_REQUESTS'],
});

export const logoutContract = defineContract({
  id: 'auth.logout',
  method: 'POST',
  path: '/home/auth/logout',
  summary: 'End the current session.',
  caller: 'user',
  data: z.null(),
  errors: [],
});
