import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, multilineText, pageQuerySchema, plainText, secretText, typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { twoPersonReasonSchema } from '../admin/two-person.contracts.ts';
import { validationMessages } from '../validation.ts';

/**
 * C2C fiat deposits and withdrawals through merchants (issue 19, ADR 0043). A user asks to buy
 * USDT with fiat (a deposit) or sell USDT for fiat (a withdrawal) in a country; a matching job
 * offers the request to online merchants by the published fair rule; the merchant accepts within
 * the offer window; the payer pays within the payment window; the receiver confirms. A deposit's
 * USDT is held on the merchant's float from the acceptance; a withdrawal's on the user's fiat
 * account from the request. A dispute goes to support. Nothing is released on silence.
 */

export const c2cKinds = ['deposit', 'withdrawal'] as const;
export const c2cStatuses = ['matching', 'offered', 'awaiting_payment', 'paid', 'appealing', 'succeeded', 'failed'] as const;
export const c2cKindSchema = z.enum(c2cKinds);
export const c2cStatusSchema = z.enum(c2cStatuses);
export const countryCodeSchema = typedText(2).regex(/^[A-Z]{2}$/, validationMessages.countryCode).describe('ISO 3166 alpha-2, e.g. "DE"');

/** The spec's bank detail fields of a C2C withdrawal; each is checked by the country's formats on the server. */
export const bankDetailsSchema = z.object({
  payeeName: typedText(80).default(''),
  cardNumber: typedText(32).default(''),
  routingNumber: typedText(32).default(''),
  branchNumber: typedText(32).default(''),
  bankName: typedText(80).default(''),
  accountName: typedText(80).default(''),
  accountNumber: typedText(40).default('').describe('the IBAN in countries that use IBANs'),
  bankCode: typedText(32).default(''),
  swiftCode: typedText(16).default(''),
  bankAddress: typedText(200).default(''),
  branchCode: typedText(32).default(''),
  remarks: typedText(200).default(''),
});

/** The published rules of the C2C channel: its windows, in minutes. */
export const c2cWindowsSchema = z.object({
  matchMinutes: z.number().int().describe('an unmatched request fails after this, nothing moved'),
  offerSeconds: z.number().int().describe('how long one merchant has to accept before the next is offered'),
  paymentMinutes: z.number().int().describe('a matched order must be paid within this'),
  confirmMinutes: z.number().int().describe('a paid withdrawal the user leaves unanswered this long goes to support (never released on silence)'),
});

export const c2cCountrySchema = z.object({
  country: z.string(),
  currency: z.string(),
  /** The best price of an online merchant for this kind (lowest for a deposit, highest for a withdrawal), fiat per USDT; null when none serves the country now. */
  bestPrice: z.string().nullable(),
  /** The smallest and largest order in USDT that some online merchant takes; null when none. */
  minUsdt: z.string().nullable(),
  maxUsdt: z.string().nullable(),
});

export const getC2cOptionsContract = defineContract({
  id: 'c2c.options',
  method: 'GET',
  path: '/home/c2c/options',
  summary:
    'The countries of the C2C channel with their currency and, for deposits or withdrawals, the best price of an online merchant and the order limits; the published windows; the user’s unfinished order, if any.',
  caller: 'user',
  query: z.object({ kind: c2cKindSchema.default('deposit') }),
  data: z.object({ countries: z.array(c2cCountrySchema), windows: c2cWindowsSchema, unfinishedOrderId: idSchema.nullable() }),
  errors: [],
});

export const c2cRequestSchema = z.object({
  id: idSchema,
  orderNo: z.string(),
  kind: c2cKindSchema,
  status: c2cStatusSchema,
  country: z.string(),
  currency: z.string(),
  usdt: z.string().describe('the USDT of the order'),
  quotedPrice: z.string().describe('the price the user was shown; no merchant at a worse price is offered the request'),
  price: z.string().nullable().describe('the accepting merchant’s price, fiat per USDT'),
  fiat: z.string().nullable().describe('the fiat of the order at that price (a deposit pays it, a withdrawal is paid it)'),
  merchant: z.object({ id: idSchema, name: z.string() }).nullable(),
  /** A deposit once accepted: where to pay the fiat (the merchant’s published details). */
  paymentDetails: z.string().nullable(),
  bankDetails: bankDetailsSchema.nullable(),
  proofUploadId: idSchema.nullable().describe('a deposit’s transaction screenshot'),
  paymentReference: z.string().nullable().describe('a withdrawal: the merchant’s bank transaction number'),
  matchDeadlineMs: z.number().int(),
  offerDeadlineMs: z.number().int().nullable(),
  paymentDeadlineMs: z.number().int().nullable(),
  paidAtMs: z.number().int().nullable(),
  /** A paid withdrawal: when it goes to support if the user neither confirms nor appeals. */
  confirmDeadlineMs: z.number().int().nullable(),
  appeal: z.object({ by: z.enum(['user', 'merchant', 'system']), reason: z.string() }).nullable(),
  failReason: z.enum(['unmatched', 'unpaid', 'cancelled', 'support']).nullable(),
  resolution: z.object({ outcome: z.enum(['complete', 'fail']), note: z.string() }).nullable(),
  closingEntryId: idSchema.nullable(),
  createdAtMs: z.number().int(),
  endedAtMs: z.number().int().nullable(),
});

const amountInSchema = z.enum(['fiat', 'usdt']).describe('whether the amount is the fiat to pay or the USDT to receive');

const placeErrors = [
  'C2C_ORDER_UNFINISHED',
  'C2C_NO_MERCHANT',
  'C2C_PRICE_CHANGED',
  'WRONG_AMOUNT',
  'IDENTITY_VERIFICATION_REQUIRED',
  'ADVANCED_VERIFICATION_REQUIRED',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_IN_PROGRESS',
] as const;

export const createC2cDepositContract = defineContract({
  id: 'c2c.createDeposit',
  method: 'POST',
  path: '/home/c2c/deposits',
  summary:
    'Buy USDT with fiat through a merchant: the country, the amount (fiat or USDT) and the price the user was shown. Matching starts at once; nothing moves until a merchant accepts (then the USDT is held on the merchant’s float). One unfinished C2C order per user. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({ country: countryCodeSchema, amount: decimalAmountSchema, amountIn: amountInSchema, quotedPrice: decimalAmountSchema }),
  data: c2cRequestSchema,
  errors: placeErrors,
});

export const createC2cWithdrawalContract = defineContract({
  id: 'c2c.createWithdrawal',
  method: 'POST',
  path: '/home/c2c/withdrawals',
  summary:
    'Sell USDT for fiat through a merchant: the country, the USDT (or the fiat wanted), the price shown, the bank details (checked by the country’s formats and saved for the next time) and the payment password. Judged by the published withdrawal rules and counted in the same daily count and limit. The USDT is held on the fiat account at once; it reaches the merchant only when the user confirms the fiat arrived. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    country: countryCodeSchema,
    amount: decimalAmountSchema,
    amountIn: amountInSchema,
    quotedPrice: decimalAmountSchema,
    bankDetails: bankDetailsSchema,
    paymentPassword: secretText(64),
  }),
  data: c2cRequestSchema,
  errors: [
    ...placeErrors,
    'INSUFFICIENT_BALANCE',
    'PAYMENT_PASSWORD_NOT_SET',
    'WRONG_PAYMENT_PASSWORD',
    'PAYMENT_PASSWORD_LOCKED',
    'WITHDRAWAL_IMPOSSIBLE',
    'DAILY_WITHDRAWAL_COUNT_LIMIT',
    'TRANSACTION_TIME_LIMITED',
    'WITHDRAWAL_CLOSED',
    'WITHDRAWAL_FORBIDDEN',
    'WITHDRAWAL_PERIOD',
  ],
});

export const listC2cRequestsContract = defineContract({
  id: 'c2c.requests',
  method: 'GET',
  path: '/home/c2c/requests',
  summary: 'The user’s C2C deposits or withdrawals, newest first.',
  caller: 'user',
  query: pageQuerySchema.extend({ kind: c2cKindSchema.default('deposit') }),
  data: z.object({ items: z.array(c2cRequestSchema), total: z.number().int() }),
  errors: [],
});

export const getC2cRequestContract = defineContract({
  id: 'c2c.request',
  method: 'GET',
  path: '/home/c2c/requests/:requestId',
  summary: 'One of the user’s C2C orders.',
  caller: 'user',
  params: z.object({ requestId: idSchema }),
  data: c2cRequestSchema,
  errors: ['RECORD_NOT_FOUND'],
});

const stepErrors = ['RECORD_NOT_FOUND', 'ORDER_STATE_CHANGED', 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'REQUEST_IN_PROGRESS'] as const;

export const markC2cPaidContract = defineContract({
  id: 'c2c.markPaid',
  method: 'POST',
  path: '/home/c2c/requests/:requestId/paid',
  summary: 'A deposit’s user says they paid the merchant, with the transaction screenshot (an upload of purpose c2c_proof). Only within the payment window. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ requestId: idSchema }),
  body: z.object({ uploadId: idSchema }),
  data: c2cRequestSchema,
  errors: stepErrors,
});

export const confirmC2cReceivedContract = defineContract({
  id: 'c2c.confirm',
  method: 'POST',
  path: '/home/c2c/requests/:requestId/confirm',
  summary: 'A withdrawal’s user confirms the merchant’s fiat arrived, with the payment password: the held USDT goes to the merchant’s float in one entry. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ requestId: idSchema }),
  body: z.object({ paymentPassword: secretText(64) }),
  data: c2cRequestSchema,
  errors: [...stepErrors, 'PAYMENT_PASSWORD_NOT_SET', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED'],
});

export const cancelC2cRequestContract = defineContract({
  id: 'c2c.cancel',
  method: 'POST',
  path: '/home/c2c/requests/:requestId/cancel',
  summary: 'Call an order off: a deposit until the user has paid, a withdrawal until a merchant accepted. Whatever was held is released. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ requestId: idSchema }),
  data: c2cRequestSchema,
  errors: stepErrors,
});

export const appealC2cRequestContract = defineContract({
  id: 'c2c.appeal',
  method: 'POST',
  path: '/home/c2c/requests/:requestId/appeal',
  summary: 'Send a paid order to support with a reason (the held USDT stays held until support decides). Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ requestId: idSchema }),
  body: z.object({ reason: plainText(500).pipe(z.string().min(3, validationMessages.appealNote)) }),
  data: c2cRequestSchema,
  errors: stepErrors,
});

export const getC2cBankDetailsContract = defineContract({
  id: 'c2c.bankDetails',
  method: 'GET',
  path: '/home/c2c/bank-details',
  summary: 'The bank details the user gave at their last C2C withdrawal in a country, for reuse; null when none.',
  caller: 'user',
  query: z.object({ country: countryCodeSchema }),
  data: bankDetailsSchema.nullable(),
  errors: [],
});

// ---- The merchant console (staff with the merchant role) ----

const merchantRoles = ['merchant'] as const;

export const merchantTermsSchema = z.object({
  country: countryCodeSchema,
  price: decimalAmountSchema.describe('fiat per USDT'),
  minUsdt: decimalAmountSchema,
  maxUsdt: decimalAmountSchema,
});

export const merchantFloatEntrySchema = z.object({
  entryId: idSchema,
  reason: z.string(),
  memo: z.string().nullable(),
  available: z.string().describe('the change of what is free'),
  frozen: z.string().describe('the change of what is held'),
  createdAtMs: z.number().int(),
});

export const merchantProfileSchema = z.object({
  merchantId: idSchema,
  displayName: z.string(),
  paymentDetails: z.string(),
  online: z.boolean(),
  terms: z.array(merchantTermsSchema.extend({ currency: z.string() })),
  float: z.object({ available: z.string(), held: z.string(), entries: z.array(merchantFloatEntrySchema) }),
});

export const getMerchantProfileContract = defineContract({
  id: 'admin.c2cMerchant',
  method: 'GET',
  path: '/home/admin/c2c/merchant',
  summary: 'The calling merchant’s profile: name users see, payment details, online switch, terms per country, float (free and held) and its latest entries. RECORD_NOT_FOUND until the profile is saved once.',
  caller: 'staff',
  staffRoles: merchantRoles,
  data: merchantProfileSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const saveMerchantProfileContract = defineContract({
  id: 'admin.c2cSaveMerchant',
  method: 'PUT',
  path: '/home/admin/c2c/merchant',
  summary: 'Save the calling merchant’s profile. Terms apply to requests offered from now on; an accepted order keeps its price.',
  caller: 'staff',
  staffRoles: merchantRoles,
  body: z.object({
    displayName: typedText(40).pipe(z.string().min(2)),
    paymentDetails: multilineText(500),
    online: z.boolean(),
    terms: z.array(merchantTermsSchema).max(20),
  }),
  data: merchantProfileSchema,
  errors: ['PERMISSION_DENIED', 'WRONG_AMOUNT'],
});

export const merchantRequestSchema = c2cRequestSchema.extend({
  user: z.string().describe('the user’s public name (masked contact at most)'),
});

export const listMerchantRequestsContract = defineContract({
  id: 'admin.c2cMerchantRequests',
  method: 'GET',
  path: '/home/admin/c2c/merchant/requests',
  summary: 'The calling merchant’s C2C work: offers waiting for an answer (with their deadline), orders in progress, or history.',
  caller: 'staff',
  staffRoles: merchantRoles,
  query: pageQuerySchema.extend({ state: z.enum(['offers', 'open', 'history']).default('offers') }),
  data: z.object({ items: z.array(merchantRequestSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

const merchantStep = (id: string, path: string, summary: string, body?: z.ZodType) =>
  defineContract({
    id,
    method: 'POST',
    path: `/home/admin/c2c/merchant/requests/:requestId/${path}`,
    summary: `${summary} Needs an Idempotency-Key header.`,
    caller: 'staff',
    staffRoles: merchantRoles,
    idempotent: true,
    params: z.object({ requestId: idSchema }),
    ...(body ? { body } : {}),
    data: merchantRequestSchema,
    errors: ['PERMISSION_DENIED', ...stepErrors, 'INSUFFICIENT_BALANCE'],
  });

export const acceptC2cOfferContract = merchantStep(
  'admin.c2cAccept',
  'accept',
  'Accept an offer within its window. A deposit’s USDT is then held on the merchant’s float (refused when the free float no longer covers it).',
);
export const declineC2cOfferContract = merchantStep('admin.c2cDecline', 'decline', 'Decline an offer: the next merchant is offered the request.');
export const confirmC2cFiatReceivedContract = merchantStep(
  'admin.c2cConfirm',
  'confirm',
  'A deposit: the merchant confirms the user’s fiat arrived; the held USDT goes to the user’s fiat account in one entry.',
);
export const markC2cFiatSentContract = merchantStep(
  'admin.c2cPaid',
  'paid',
  'A withdrawal: the merchant says the fiat was sent, with the bank’s transaction number as proof; the user then confirms or appeals.',
  z.object({ paymentReference: typedText(100).pipe(z.string().min(4)) }),
);
export const appealC2cAsMerchantContract = merchantStep(
  'admin.c2cMerchantAppeal',
  'appeal',
  'A deposit marked paid whose fiat did not arrive: the merchant sends it to support with a reason.',
  z.object({ reason: plainText(500).pipe(z.string().min(3, validationMessages.appealNote)) }),
);

export const getC2cProofImageContract = defineContract({
  id: 'admin.c2cProof',
  method: 'GET',
  path: '/home/admin/c2c/requests/:requestId/proof',
  summary: 'A deposit’s transaction screenshot, for the merchant of the order, or support once the order was sent to them; each view is written to the audit log.',
  caller: 'staff',
  staffRoles: ['merchant', 'support'],
  params: z.object({ requestId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

// ---- Support: C2C appeals ----

export const c2cAppealSchema = merchantRequestSchema.extend({
  proposal: z.object({ outcome: z.enum(['complete', 'fail']), note: z.string(), staff: z.string(), atMs: z.number().int() }).nullable(),
  twoPersonReason: twoPersonReasonSchema.nullable(),
  resolvedBy: z.string().nullable(),
});

export const listC2cAppealsContract = defineContract({
  id: 'admin.c2cAppeals',
  method: 'GET',
  path: '/home/admin/c2c/appeals',
  summary: 'C2C orders sent to support: open ones oldest first, resolved ones newest first.',
  caller: 'staff',
  staffRoles: ['support'],
  query: pageQuerySchema.extend({ status: z.enum(['open', 'resolved']).default('open') }),
  data: z.object({ items: z.array(c2cAppealSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const resolveC2cAppealContract = defineContract({
  id: 'admin.c2cResolve',
  method: 'POST',
  path: '/home/admin/c2c/appeals/:requestId/resolve',
  summary:
    'Resolve a C2C appeal: complete the order (the held USDT to the receiver: the user of a deposit, the merchant’s float of a withdrawal) or fail it (the hold released), with a note both sides read. No amount is typed. Above the published appeal threshold, or past the one-person limits, the first member only proposes and a second member carries it out (ADR 0022). Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: ['support'],
  idempotent: true,
  params: z.object({ requestId: idSchema }),
  body: z.object({ outcome: z.enum(['complete', 'fail']), note: plainText(500).pipe(z.string().min(3, validationMessages.appealNote)) }),
  data: c2cAppealSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'ORDER_STATE_CHANGED', 'SECOND_APPROVER_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED'],
});

// ---- Finance: the merchants and their floats ----

export const merchantSummarySchema = z.object({
  merchantId: idSchema,
  displayName: z.string(),
  staffUsername: z.string(),
  online: z.boolean(),
  countries: z.array(z.string()),
  floatAvailable: z.string(),
  floatHeld: z.string(),
});

export const listMerchantsContract = defineContract({
  id: 'admin.c2cMerchants',
  method: 'GET',
  path: '/home/admin/c2c/merchants',
  summary: 'Every C2C merchant with their float (free and held), for finance staff who fund floats by house corrections (maker and checker).',
  caller: 'staff',
  staffRoles: ['admin', 'finance'],
  data: z.object({ items: z.array(merchantSummarySchema) }),
  errors: ['PERMISSION_DENIED'],
});
