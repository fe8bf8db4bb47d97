import { normalizeEmail, normalizePhone } from '@keel/domain';
import { z } from 'zod';
import { codeChannelSchema, verificationCodeSchema } from '../auth/auth.contracts.ts';
import { defineContract } from '../contract.ts';
import { idSchema, passwordSchema, plainText, publicUserSchema, secretText, typedText } from '../common.ts';
import { validationMessages } from '../validation.ts';

export const contactMethodKinds = ['phone', 'email', 'telegram', 'whatsapp', 'wechat', 'line', 'other'] as const;
export type ContactMethodKind = (typeof contactMethodKinds)[number];

/** A contact method as stored and shown (also those saved before the per-kind rules below). */
export const contactMethodSchema = z.object({
  kind: z.enum(contactMethodKinds),
  value: plainText(64).min(2),
});

/**
 * What a contact value of each kind must look like, so a P2P partner can use it: a phone number
 * (also WhatsApp's id) in international form, an e-mail address, a Telegram username (5–32
 * letters, digits or underscores, @ optional), a WeChat ID (6–20, starting with a letter) or a
 * LINE ID (4–20 letters, digits, dots, dashes or underscores, @ optional). "other" is free text.
 */
export const contactValueRules: Record<ContactMethodKind, { accepts: (value: string) => boolean; rule: keyof typeof validationMessages } | null> = {
  phone: { accepts: (value) => normalizePhone(value) !== undefined, rule: 'phoneFormat' },
  whatsapp: { accepts: (value) => normalizePhone(value) !== undefined, rule: 'phoneFormat' },
  email: { accepts: (value) => normalizeEmail(value) !== undefined, rule: 'emailFormat' },
  telegram: { accepts: (value) => /^@?[A-Za-z0-9_]{5,32}$/.test(value), rule: 'telegramHandle' },
  wechat: { accepts: (value) => /^[A-Za-z][A-Za-z0-9_-]{5,19}$/.test(value), rule: 'wechatId' },
  line: { accepts: (value) => /^@?[A-Za-z0-9._-]{4,20}$/.test(value), rule: 'lineId' },
  other: null,
};

/** A contact method as the user sets it: 2–64 characters of plain text, shaped as its kind needs. */
export const contactMethodInputSchema = z
  .object({
    kind: z.enum(contactMethodKinds),
    value: plainText(64).min(2, validationMessages.contactValue),
  })
  .superRefine((method, context) => {
    // Runs even when a field failed already (zod reports both): only a well-formed pair is checked.
    if (!Object.hasOwn(contactValueRules, method.kind) || typeof method.value !== 'string') return;
    const check = contactValueRules[method.kind];
    if (check && method.value.length >= 2 && !check.accepts(method.value)) {
      context.addIssue({ code: 'custom', path: ['value'], message: validationMessages[check.rule], input: method.value });
    }
  });

export const securityOverviewSchema = z.object({
  email: z.string().nullable(),
  phone: z.string().nullable(),
  nicknameSet: z.boolean(),
  paymentPasswordSet: z.boolean(),
  totpEnabled: z.boolean().describe('two-step login with an authenticator app'),
  antiPhishingCodeSet: z.boolean(),
  /** A published rule: withdrawals wait 24 h after the login password changes. */
  loginPasswordChangedAt: z.string().nullable(),
  withdrawalsLockedUntil: z.string().nullable().describe('ISO time until which withdrawals are locked, or null'),
  /** A published rule (ADR 0018): wrong payment passwords lock it; where the user stands now. */
  paymentPasswordLock: z
    .object({
      maxFailures: z.number().int().describe('wrong payment passwords within 24 h that lock it'),
      lockMinutes: z.number().int().describe('how long it then stays locked'),
      failuresLeft: z.number().int().describe('wrong ones the user may still make before it locks'),
      lockedUntil: z.string().nullable().describe('ISO time until which it is locked, or null'),
    })
    .describe('the payment-password lock: the rule and where the user stands'),
  contactMethods: z.array(contactMethodSchema),
});

export const securityOverviewContract = defineContract({
  id: 'user.security',
  method: 'GET',
  path: '/home/user/security',
  summary: "The user's security settings at a glance (what is set, not the secrets) and the withdrawal lock, if any.",
  caller: 'user',
  data: securityOverviewSchema,
  errors: [],
});

export const setNicknameContract = defineContract({
  id: 'user.nickname',
  method: 'PUT',
  path: '/home/user/nickname',
  summary: 'Set the nickname; it can be set only once (spec sections 3 and 4).',
  caller: 'user',
  body: z.object({
    nickname: plainText(20).min(2),
  }),
  data: publicUserSchema,
  errors: ['NICKNAME_ALREADY_SET'],
});

export const changeLoginPasswordContract = defineContract({
  id: 'user.password',
  method: 'PUT',
  path: '/home/user/password',
  summary: "Change the login password. Every other session ends; withdrawals lock for 24 h (a published rule).",
  caller: 'user',
  rateLimited: true,
  body: z.object({ oldPassword: secretText(128), password: passwordSchema, confirmPassword: secretText(128) }),
  data: z.null(),
  errors: ['WRONG_ORIGINAL_PASSWORD', 'PASSWORDS_INCONSISTENT', 'TOO_MANY_REQUESTS'],
});

export const paymentPasswordSchema = z.string().regex(/^\d{6}$/, validationMessages.sixDigits);

export const setPaymentPasswordContract = defineContract({
  id: 'user.paymentPassword',
  method: 'PUT',
  path: '/home/user/payment-password',
  summary:
    'Set the payment password (six digits, separate from the login password) with the login password, or change it with the current payment password.',
  caller: 'user',
  rateLimited: true,
  body: z.object({
    loginPassword: secretText(128).optional().describe('to set it the first time'),
    oldPaymentPassword: secretText(12).optional().describe('to change it'),
    paymentPassword: paymentPasswordSchema,
    confirmPaymentPassword: secretText(12),
  }),
  data: z.null(),
  errors: ['WRONG_LOGIN_PASSWORD', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED', 'PASSWORDS_INCONSISTENT', 'TOO_MANY_REQUESTS'],
});

export const sendContactCodeContract = defineContract({
  id: 'user.contact.code',
  method: 'POST',
  path: '/home/user/contact/code',
  summary: 'Send a code to an e-mail address or phone the user wants to bind (or change to).',
  caller: 'user',
  rateLimited: true,
  body: z.object({ channel: codeChannelSchema, target: typedText(254) }),
  data: z.object({ expiresAtMs: z.number().int(), resendAfterMs: z.number().int() }),
  errors: ['PHONE_OR_EMAIL_REGISTERED', 'WRONG_PHONE_NUMBER', 'EMAIL_REQUIRED', 'PHONE_REQUIRED', 'TOO_MANY_REQUESTS'],
});

export const bindContactContract = defineContract({
  id: 'user.contact.bind',
  method: 'PUT',
  path: '/home/user/contact',
  summary: 'Bind or change the e-mail address or phone with the code sent to it.',
  caller: 'user',
  body: z.object({ channel: codeChannelSchema, target: typedText(254), code: verificationCodeSchema }),
  data: publicUserSchema,
  errors: ['WRONG_VERIFICATION_CODE', 'PHONE_OR_EMAIL_REGISTERED', 'WRONG_PHONE_NUMBER'],
});

export const setContactMethodsContract = defineContract({
  id: 'user.contactMethods',
  method: 'PUT',
  path: '/home/user/contact-methods',
  summary:
    'Replace the contact methods shown to P2P trade partners (at most 5). Each value is checked by its kind: phone and WhatsApp an international number, e-mail an address, Telegram a username (5–32 letters, digits or underscores, @ optional), WeChat an ID (6–20, starting with a letter), LINE an ID (4–20 letters, digits, dots, dashes or underscores).',
  caller: 'user',
  body: z.object({ methods: z.array(contactMethodInputSchema).max(5) }),
  data: z.object({ methods: z.array(contactMethodSchema) }),
  errors: [],
});

export const setAntiPhishingCodeContract = defineContract({
  id: 'user.antiPhishing',
  method: 'PUT',
  path: '/home/user/anti-phishing',
  summary: 'Set the anti-phishing code that every e-mail from Keel will show (4–20 letters or digits).',
  caller: 'user',
  body: z.object({ code: z.string().trim().regex(/^[A-Za-z0-9]{4,20}$/, validationMessages.antiPhishingFormat) }),
  data: z.null(),
  errors: [],
});

export const sessionViewSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});

export const listSessionsContract = defineContract({
  id: 'user.sessions',
  method: 'GET',
  path: '/home/user/sessions',
  summary: "The user's active sessions (devices), newest first.",
  caller: 'user',
  data: z.object({ items: z.array(sessionViewSchema) }),
  errors: [],
});

export const endSessionContract = defineContract({
  id: 'user.sessions.end',
  method: 'DELETE',
  path: '/home/user/sessions/:sessionId',
  summary: "End one of the user's sessions (log a device out).",
  caller: 'user',
  params: z.object({ sessionId: idSchema }),
  data: z.null(),
  errors: ['RECORD_NOT_FOUND'],
});

export const startTotpSetupContract = defineContract({
  id: 'user.totp.setup',
  method: 'POST',
  path: '/home/user/totp/setup',
  summary: 'Start two-step login: a new authenticator secret (and its otpauth:// link for a QR code); it takes effect once confirmed.',
  caller: 'user',
  data: z.object({ secret: z.string(), otpauthUri: z.string() }),
  errors: [],
});

export const enableTotpContract = defineContract({
  id: 'user.totp.enable',
  method: 'POST',
  path: '/home/user/totp/enable',
  summary: 'Confirm the authenticator with a current code; from then on login asks for a code too.',
  caller: 'user',
  rateLimited: true,
  body: z.object({ code: verificationCodeSchema }),
  data: z.null(),
  errors: ['WRONG_VERIFICATION_CODE', 'TOO_MANY_REQUESTS'],
});

export const disableTotpContract = defineContract({
  id: 'user.totp.disable',
  method: 'POST',
  path: '/home/user/totp/disable',
  summary: 'Turn two-step login off, with the login password and a current code.',
  caller: 'user',
  rateLimited: true,
  body: z.object({ password: secretText(128), code: verificationCodeSchema }),
  data: z.null(),
  errors: ['WRONG_LOGIN_PASSWORD', 'WRONG_VERIFICATION_CODE', 'TOO_MANY_REQUESTS'],
});
