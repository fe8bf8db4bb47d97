import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, pageQuerySchema, secretText } from '../common.ts';
import { defineContract } from '../contract.ts';

/**
 * Earn (issue 17, ADR 0035): lock-up mining and financial products. A subscription locks its
 * principal in the user's DeFi account, is paid interest once a day at the product's payout time
 * from the earn treasury (a ledger account whose balance every product page shows), and returns
 * the principal at maturity; redeemed early, less the published penalty. Amounts are decimal
 * strings of the product's asset; rates are percent strings with four decimals and their ppm.
 */

export const earnKinds = ['lockup', 'financial'] as const;
export const earnKindSchema = z.enum(earnKinds);
export const earnSubscriptionStatuses = ['active', 'completed', 'redeemed'] as const;
export const earnSubscriptionStatusSchema = z.enum(earnSubscriptionStatuses);

/** The version of the earn terms text in the catalogues (`web.earn.ack.*`); a new text gets a new number. */
export const EARN_TERMS_VERSION = 1;

export const earnProductSchema = z.object({
  id: idSchema,
  kind: earnKindSchema,
  name: z.string(),
  asset: z.string(),
  cycleDays: z.number().int(),
  dailyRatePercent: z.string().describe('e.g. "0.3000" for 0.3 % a day'),
  dailyRatePpm: z.number().int(),
  penaltyRatePercent: z.string().describe('per remaining day, of the principal; "0.0000" when there is none'),
  penaltyRatePpm: z.number().int(),
  earlyRedemption: z.boolean(),
  payoutTimeUtc: z.string().describe('HH:MM, UTC: the daily time interest is paid'),
  payoutMinuteUtc: z.number().int(),
  minAmount: z.string().describe('per subscription'),
  maxAmount: z.string().describe('per subscription'),
  userQuota: z.string().describe('the most one user may hold in active subscriptions of the product'),
  totalQuota: z.string().describe('the most all users together may hold in active subscriptions'),
  remainingQuota: z.string().describe('totalQuota − the active principal of everyone'),
  userActive: z.string().describe('the caller’s own active principal in the product'),
  open: z.boolean().describe('false: closed to new subscriptions'),
  termsVersion: z.number().int(),
});

export const earnTreasurySchema = z.object({
  asset: z.string(),
  accountId: idSchema.describe('the ledger account that pays the yield and receives penalties'),
  balance: z.string().describe('its balance now'),
  owed: z.string().describe('the interest every active subscription is still owed to maturity'),
});

export const earnOverviewSchema = z.object({
  products: z.array(earnProductSchema),
  treasuries: z.array(earnTreasurySchema).describe('one per asset a product is in'),
  acknowledgement: z.object({
    version: z.number().int(),
    acceptedAt: z.string().nullable().describe('ISO time the user acknowledged this version; null: not yet'),
  }),
  balances: z.array(z.object({ asset: z.string(), available: z.string() })).describe('the coin account, where principal comes from and returns to'),
  serverTimeMs: z.number().int(),
});

export const earnPayoutSchema = z.object({
  day: z.number().int(),
  dueAtMs: z.number().int(),
  paidAtMs: z.number().int(),
  interest: z.string(),
  entryId: idSchema.nullable().describe('the journal entry; null when the day’s interest rounded to nothing'),
});

export const earnSubscriptionSchema = z.object({
  id: idSchema,
  subscriptionNo: z.string(),
  productId: idSchema,
  productName: z.string(),
  kind: earnKindSchema,
  asset: z.string(),
  principal: z.string(),
  termsVersion: z.number().int(),
  cycleDays: z.number().int(),
  dailyRatePercent: z.string().describe('the rate it was sold at: a later change to the product never reaches it'),
  penaltyRatePercent: z.string(),
  earlyRedemption: z.boolean(),
  payoutTimeUtc: z.string(),
  dailyInterest: z.string(),
  estimatedIncome: z.string().describe('what it earns if held to maturity'),
  subscribedAtMs: z.number().int(),
  maturesAtMs: z.number().int(),
  nextPayoutAtMs: z.number().int().nullable(),
  paidDays: z.number().int(),
  remainingDays: z.number().int().describe('days not yet come due, now'),
  interestPaid: z.string().describe('total interest paid so far'),
  penaltyIfRedeemedNow: z.string().nullable().describe('penalty rate × remaining days × principal, now; null when it cannot be redeemed early'),
  status: earnSubscriptionStatusSchema,
  closedAtMs: z.number().int().nullable(),
  penalty: z.string().nullable().describe('what an early redemption cost; null otherwise'),
  returned: z.string().nullable().describe('the principal returned at the end (less the penalty); null while active'),
  subscribeEntryId: idSchema,
  closeEntryId: idSchema.nullable(),
  payouts: z.array(earnPayoutSchema).describe('every day paid, newest first (only in the detail; empty in lists)'),
});

export const getEarnOverviewContract = defineContract({
  id: 'earn.overview',
  method: 'GET',
  path: '/home/earn/products',
  summary:
    'The earn products (lock-up mining and financial), each with its terms, limits and remaining quota; the treasury that pays the yield with its ledger balance and what it owes; the acknowledgement state and the coin balances.',
  caller: 'user',
  query: z.object({ kind: earnKindSchema.optional() }),
  data: earnOverviewSchema,
  errors: [],
});

export const acknowledgeEarnTermsContract = defineContract({
  id: 'earn.acknowledge',
  method: 'POST',
  path: '/home/earn/acknowledgement',
  summary: 'Records that the user read the earn terms of the stated version (once; again it answers the first acknowledgement).',
  caller: 'user',
  body: z.object({ version: z.number().int() }),
  data: z.object({ version: z.number().int(), acceptedAt: z.string() }),
  errors: ['PARAMETER_ERROR'],
});

export const subscribeEarnContract = defineContract({
  id: 'earn.subscribe',
  method: 'POST',
  path: '/home/earn/subscriptions',
  summary:
    'Subscribe to a product: the principal moves from the coin account into the DeFi account, locked, in one journal entry. Needs the acknowledged terms, the payment password and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    productId: idSchema,
    amount: decimalAmountSchema,
    paymentPassword: secretText(64),
    termsVersion: z.number().int().describe('the terms version the user saw: a product changed meanwhile is refused, not sold on other terms'),
  }),
  data: earnSubscriptionSchema,
  errors: [
    'RISK_DISCLOSURE_REQUIRED',
    'PRODUCT_NOT_FOUND',
    'PRODUCT_CLOSED',
    'WRONG_AMOUNT',
    'AMOUNT_OUT_OF_RANGE',
    'PURCHASE_LIMIT_EXCEEDED',
    'INSUFFICIENT_BALANCE',
    'PAYMENT_PASSWORD_NOT_SET',
    'WRONG_PAYMENT_PASSWORD',
    'PAYMENT_PASSWORD_LOCKED',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
});

export const listEarnSubscriptionsContract = defineContract({
  id: 'earn.subscriptions.list',
  method: 'GET',
  path: '/home/earn/subscriptions',
  summary: 'The user’s subscriptions: `active` (in progress, soonest maturity first) or `ended` (completed or redeemed, newest first).',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['active', 'ended']).default('active') }),
  data: z.object({ items: z.array(earnSubscriptionSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  errors: [],
});

export const getEarnSubscriptionContract = defineContract({
  id: 'earn.subscriptions.get',
  method: 'GET',
  path: '/home/earn/subscriptions/:subscriptionId',
  summary: 'One of the user’s subscriptions with every day paid and its journal entries.',
  caller: 'user',
  params: z.object({ subscriptionId: idSchema }),
  data: earnSubscriptionSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const redeemEarnSubscriptionContract = defineContract({
  id: 'earn.subscriptions.redeem',
  method: 'POST',
  path: '/home/earn/subscriptions/:subscriptionId/redeem',
  summary:
    'Redeem a subscription before maturity: the principal less the penalty (penalty rate × remaining days × principal) returns to the coin account and the penalty goes to the treasury, in one entry; interest already paid stays paid. Needs the payment password and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ subscriptionId: idSchema }),
  body: z.object({ paymentPassword: secretText(64) }),
  data: earnSubscriptionSchema,
  errors: [
    'RECORD_NOT_FOUND',
    'EARLY_REDEMPTION_NOT_ALLOWED',
    'SUBSCRIPTION_NOT_ACTIVE',
    'PAYMENT_PASSWORD_NOT_SET',
    'WRONG_PAYMENT_PASSWORD',
    'PAYMENT_PASSWORD_LOCKED',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
});

export type EarnProduct = z.infer<typeof earnProductSchema>;
export type EarnOverview = z.infer<typeof earnOverviewSchema>;
export type EarnSubscription = z.infer<typeof earnSubscriptionSchema>;
export type EarnPayout = z.infer<typeof earnPayoutSchema>;
