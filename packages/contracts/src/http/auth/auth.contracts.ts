import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { localeSchema, passwordSchema, publicUserSchema, secretText, typedText, usernameSchema } from '../common.ts';
import { validationMessages } from '../validation.ts';

const sessionData = z.object({
  token: z.string().describe('opaque session token; send it in the Authorization header'),
  userId: z.string(),
  expiresAt: z.string(),
  user: publicUserSchema,
});
/** A new session, as every login answers (password or wallet). */
export const authSessionSchema = sessionData;

/** Where a code is sent: an e-mail address or a phone (SMS). */
export const codeChannelSchema = z.enum(['email', 'sms']);
export const verificationCodeSchema = typedText(12).describe('the 6-digit code that was sent');

/** The registration fields, before the rule across them (forms pick from this; zod cannot pick from a refined object). */
export const registerFields = z.object({
  username: usernameSchema.optional(),
  email: typedText(254).optional(),
  phone: typedText(32).optional(),
  code: verificationCodeSchema.optional(),
  password: passwordSchema,
  confirmPassword: secretText(128),
  agreement: z.literal(true, { error: validationMessages.agreementRequired }),
  inviteCode: typedText(16).optional(),
  language: localeSchema.optional(),
});

export const registerContract = defineContract({
  id: 'auth.register',
  method: 'POST',
  path: '/home/auth/register',
  summary:
    'Register by username, e-mail or phone (exactly one) and a password; e-mail and phone need the code sent by POST /home/auth/code. Answers with a session.',
  caller: 'public',
  rateLimited: true,
  body: registerFields.refine((body) => [body.username, body.email, body.phone].filter((each) => each !== undefined && each !== '').length === 1, {
      path: ['username'],
      message: validationMessages.oneOfUsernameEmailPhone,
    }),
  data: sessionData,
  errors: [
    'PASSWORDS_INCONSISTENT',
    'USERNAME_TAKEN',
    'PHONE_OR_EMAIL_REGISTERED',
    'WRONG_VERIFICATION_CODE',
    'WRONG_PHONE_NUMBER',
    'INVALID_INVITATION_CODE',
    'TOO_MANY_REQUESTS',
  ],
});

export const sendCodeContract = defineContract({
  id: 'auth.code',
  method: 'POST',
  path: '/home/auth/code',
  summary:
    'Send a 6-digit code (valid 5 minutes, single use) to an e-mail address or phone, to register or to reset a password. At most one per minute and five per hour per target, twenty per hour per client address.',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    channel: codeChannelSchema,
    target: typedText(254),
    purpose: z.enum(['register', 'reset_password']),
    language: localeSchema.optional(),
  }),
  data: z.object({ expiresAtMs: z.number().int(), resendAfterMs: z.number().int() }),
  errors: ['PHONE_OR_EMAIL_REGISTERED', 'WRONG_PHONE_NUMBER', 'EMAIL_REQUIRED', 'PHONE_REQUIRED', 'TOO_MANY_REQUESTS'],
});

export const resetPasswordContract = defineContract({
  id: 'auth.password.reset',
  method: 'POST',
  path: '/home/auth/password/reset',
  summary:
    'Set a new login password with a code sent to the account\'s e-mail or phone. Ends every session; withdrawals lock for 24 h (a published rule).',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    channel: codeChannelSchema,
    target: typedText(254),
    code: verificationCodeSchema,
    password: passwordSchema,
    confirmPassword: secretText(128),
  }),
  data: z.null(),
  errors: ['WRONG_VERIFICATION_CODE', 'PASSWORDS_INCONSISTENT', 'WRONG_PHONE_NUMBER', 'TOO_MANY_REQUESTS'],
});

export const loginContract = defineContract({
  id: 'auth.login',
  method: 'POST',
  path: '/home/auth/login',
  summary:
    'Log in by username, e-mail or phone (+ and digits) and password; answers with a session. Failures are counted per account name and client address (an IPv6 /64 is one address): 3 are free, then each try waits 1, 2, 4 … s, and the 10th locks that address out of that name for 30 minutes — at the 5th while the name has 20 failures in the hour from all addresses (ADR 0018; 429 with data.retryAfterSeconds and Retry-After).',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    account: typedText(64),
    password: secretText(128),
    totp: typedText(12).optional().describe('the authenticator code, for accounts with two-step login'),
    agreement: z.literal(true, { error: validationMessages.agreementRequired }),
  }),
  data: sessionData,
  errors: ['ACCOUNT_AND_PASSWORD_EMPTY', 'ACCOUNT_OR_PASSWORD_INCORRECT', 'TWO_STEP_CODE_REQUIRED', 'WRONG_VERIFICATION_CODE', 'ACCOUNT_BANNED', 'TOO_MANY_REQUESTS'],
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
