import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, multilineText, pageQuerySchema, secretText, typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { loanPriceSchema } from '../loans/loans.contracts.ts';
import { validationMessages } from '../validation.ts';

/**
 * The fund section (issue 18, ADR 0037): funding requests by borrowers with advanced verification,
 * backed by pledged collateral; compliance review; investments from other users' coin accounts;
 * tranches released to the borrower; principal and interest paid to every investor pro rata at
 * term, or the collateral sold at a recorded price and paid out the same way. Ratings and the
 * credit limit are computed by published rules and shown with their inputs.
 */

export const fundRequestStatuses = ['review', 'rejected', 'open', 'expired', 'funded', 'repaid', 'defaulted'] as const;
export const fundRequestStatusSchema = z.enum(fundRequestStatuses);
export const fundRatingSchema = z.enum(['A', 'B', 'C', 'D']);

export const fundTrancheSchema = z.object({
  number: z.number().int(),
  amount: z.string(),
  releaseAtMs: z.number().int().nullable().describe('when it is (or was) due; null before the request fills'),
  releasedAtMs: z.number().int().nullable(),
  entryId: idSchema.nullable(),
});

export const fundRequestSchema = z.object({
  id: idSchema,
  requestNo: z.string(),
  borrower: z.string().describe('the borrower’s public name (never a contact)'),
  borrowerType: z.enum(['institution', 'individual']),
  title: z.string(),
  purpose: z.string(),
  asset: z.literal('USDT'),
  amount: z.string().describe('the issued amount asked for'),
  dailyRatePercent: z.string(),
  termDays: z.number().int(),
  interest: z.string().describe('amount × daily rate × term days'),
  totalDue: z.string(),
  tranches: z.number().int(),
  releasePeriodDays: z.number().int(),
  windowHours: z.number().int(),
  collateralAsset: z.string(),
  collateralAmount: z.string(),
  collateralLtvPercent: z.string(),
  creditLimit: z.string().describe('the collateral’s value at the published price × its LTV'),
  publishedPrice: loanPriceSchema,
  creditRating: fundRatingSchema,
  creditScore: z.number().int().describe('the borrower’s credit score (the loans’ published rule) the credit rating comes from'),
  investmentRating: fundRatingSchema,
  collateralCoverPercent: z.string().describe('the collateral’s value ÷ the total due, at the published price: the investment rating comes from it'),
  status: fundRequestStatusSchema,
  publishedAtMs: z.number().int(),
  reviewedAtMs: z.number().int().nullable(),
  rejectReason: z.string().nullable(),
  openedAtMs: z.number().int().nullable(),
  windowEndsAtMs: z.number().int().nullable(),
  raised: z.string(),
  remaining: z.string(),
  investors: z.number().int(),
  filledAtMs: z.number().int().nullable(),
  released: z.string(),
  dueAtMs: z.number().int().nullable(),
  closedAtMs: z.number().int().nullable(),
  schedule: z.array(fundTrancheSchema),
  settlement: z
    .object({
      kind: z.enum(['repaid', 'defaulted', 'refunded']),
      paidOut: z.string().describe('what investors received in all'),
      tickId: idSchema.nullable(),
      price: z.string().nullable(),
      sold: z.string().nullable().describe('collateral sold (defaulted)'),
      shortfall: z.string().nullable().describe('what the collateral did not cover: the investors’ loss, pro rata'),
      entryId: idSchema,
    })
    .nullable(),
  mine: z.boolean().describe('the caller is the borrower'),
  myInvestment: z.string().describe('what the caller has invested in it (0 when none)'),
});

export const fundInvestmentSchema = z.object({
  id: idSchema,
  investmentNo: z.string(),
  requestId: idSchema,
  requestNo: z.string(),
  title: z.string(),
  amount: z.string(),
  investedAtMs: z.number().int(),
  status: z.enum(['held', 'invested', 'refunded']),
  requestStatus: fundRequestStatusSchema,
  dailyRatePercent: z.string(),
  termDays: z.number().int(),
  expectedReturn: z.string().describe('the pro-rata part of principal and interest if the request fills and is repaid'),
  dueAtMs: z.number().int().nullable(),
  paid: z.string().nullable().describe('what came back at the end; null before'),
  entryId: idSchema,
  paidEntryId: idSchema.nullable(),
});

export const fundPolicySchema = z.object({
  collateralLtvPercent: z.record(z.string(), z.string()),
  minAmount: z.string(),
  maxAmount: z.string(),
  maxDailyRatePercent: z.string(),
  maxTermDays: z.number().int(),
  maxTranches: z.number().int(),
  minWindowHours: z.number().int(),
  maxWindowHours: z.number().int(),
  minInvestment: z.string(),
  creditRatingBands: z.array(z.object({ rating: fundRatingSchema, minScore: z.number().int() })),
  investmentRatingBands: z.array(z.object({ rating: fundRatingSchema, minCoverPercent: z.string() })),
});

const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
const paymentErrors = ['PAYMENT_PASSWORD_NOT_SET', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED'] as const;
const idempotencyErrors = ['IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'REQUEST_IN_PROGRESS'] as const;

export const getFundOverviewContract = defineContract({
  id: 'fund.overview',
  method: 'GET',
  path: '/home/fund/overview',
  summary:
    'The fund section’s published rules (collateral LTVs, limits, the rating bands), the caller’s verification tier and whether they may publish (advanced verification), their coin balances, the escrow’s ledger balance, and the latest collateral prices.',
  caller: 'user',
  data: z.object({
    policy: fundPolicySchema,
    tier: z.number().int(),
    mayPublish: z.boolean(),
    balances: z.array(z.object({ asset: z.string(), available: z.string() })),
    escrow: z.object({ accountId: idSchema.nullable(), balance: z.string() }).describe('the fund escrow: investors’ money between a fill and the tranches’ release'),
    prices: z.array(loanPriceSchema),
    serverTimeMs: z.number().int(),
  }),
  errors: [],
});

export const publishFundRequestContract = defineContract({
  id: 'fund.requests.publish',
  method: 'POST',
  path: '/home/fund/requests',
  summary:
    'Publish a funding request (advanced verification needed): the collateral is pledged in one entry, the credit limit and ratings computed at the latest recorded price, and the request waits for compliance review. Needs the payment password and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    borrowerType: z.enum(['institution', 'individual']),
    title: typedText(80).min(1),
    purpose: multilineText(1000).min(1),
    amount: decimalAmountSchema,
    dailyRatePercent: decimalAmountSchema.describe('e.g. "0.05" for 0.05 % a day; at most 0.5'),
    termDays: z.number().int(),
    tranches: z.number().int(),
    releasePeriodDays: z.number().int(),
    windowHours: z.number().int(),
    collateralAsset: z.enum(['BTC', 'ETH', 'USDT']),
    collateralAmount: decimalAmountSchema,
    paymentPassword: secretText(64),
  }),
  data: fundRequestSchema,
  errors: ['ADVANCED_VERIFICATION_REQUIRED', 'PARAMETER_ERROR', 'WRONG_AMOUNT', 'LOAN_QUOTA_INSUFFICIENT', 'INSUFFICIENT_BALANCE', 'PRICE_UNAVAILABLE', ...paymentErrors, ...idempotencyErrors],
});

export const listFundPoolContract = defineContract({
  id: 'fund.pool',
  method: 'GET',
  path: '/home/fund/pool',
  summary: 'Requests in the pool: `open` (taking investments, soonest window end first) or `funded` (filled; being released or awaiting term, newest first).',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['open', 'funded']).default('open') }),
  data: listOf(fundRequestSchema),
  errors: [],
});

export const listMyFundRequestsContract = defineContract({
  id: 'fund.requests.mine',
  method: 'GET',
  path: '/home/fund/requests',
  summary: 'The caller’s own funding requests, newest first, in any state.',
  caller: 'user',
  query: pageQuerySchema,
  data: listOf(fundRequestSchema),
  errors: [],
});

export const getFundRequestContract = defineContract({
  id: 'fund.requests.get',
  method: 'GET',
  path: '/home/fund/requests/:requestId',
  summary: 'One request: in the pool or after it (anyone), or the caller’s own in any state; its ratings with their inputs, its schedule and its settlement.',
  caller: 'user',
  params: z.object({ requestId: idSchema }),
  data: fundRequestSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const investFundContract = defineContract({
  id: 'fund.invest',
  method: 'POST',
  path: '/home/fund/requests/:requestId/investments',
  summary:
    'Invest in an open request from the coin account: the amount is held (frozen) until the request fills — then it moves to the fund escrow — or its window ends — then it returns. At most what remains; not in one’s own request. Needs the payment password and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ requestId: idSchema }),
  body: z.object({ amount: decimalAmountSchema, paymentPassword: secretText(64) }),
  data: fundInvestmentSchema,
  errors: ['RECORD_NOT_FOUND', 'FUND_NOT_OPEN', 'FUND_OWN_REQUEST', 'WRONG_AMOUNT', 'AMOUNT_OUT_OF_RANGE', 'INSUFFICIENT_BALANCE', ...paymentErrors, ...idempotencyErrors],
});

export const listFundInvestmentsContract = defineContract({
  id: 'fund.investments',
  method: 'GET',
  path: '/home/fund/investments',
  summary: 'The caller’s investments, newest first, with what has been paid.',
  caller: 'user',
  query: pageQuerySchema,
  data: listOf(fundInvestmentSchema),
  errors: [],
});

export const getFundInvestmentContract = defineContract({
  id: 'fund.investments.get',
  method: 'GET',
  path: '/home/fund/investments/:investmentId',
  summary: 'One of the caller’s investments.',
  caller: 'user',
  params: z.object({ investmentId: idSchema }),
  data: fundInvestmentSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const fundReviewRoles = ['compliance'] as const;

export const listStaffFundRequestsContract = defineContract({
  id: 'admin.fund.requests',
  method: 'GET',
  path: '/home/admin/fund/requests',
  summary: 'Funding requests by state: `review` oldest first (the queue), the others newest first.',
  caller: 'staff',
  staffRoles: fundReviewRoles,
  query: pageQuerySchema.extend({ status: fundRequestStatusSchema.default('review') }),
  data: listOf(fundRequestSchema.extend({ userId: idSchema })),
  errors: ['PERMISSION_DENIED'],
});

export const decideFundRequestContract = defineContract({
  id: 'admin.fund.requests.decide',
  method: 'POST',
  path: '/home/admin/fund/requests/:requestId/decision',
  summary:
    'Approve a request in review (it enters the pool for its window) or reject it with the reason the borrower reads (the collateral returns). Audited. No staff call sets a rating, a limit, an amount or an outcome.',
  caller: 'staff',
  staffRoles: fundReviewRoles,
  params: z.object({ requestId: idSchema }),
  body: z
    .object({ decision: z.enum(['approve', 'reject']), reason: multilineText(500).optional() })
    .refine((body) => body.decision === 'approve' || (body.reason ?? '').length > 0, { path: ['reason'], message: validationMessages.rejectionReason }),
  data: fundRequestSchema.extend({ userId: idSchema }),
  errors: ['RECORD_NOT_FOUND', 'PERMISSION_DENIED', 'NOT_PENDING_REVIEW'],
});

export type FundRequestView = z.infer<typeof fundRequestSchema>;
export type FundInvestmentView = z.infer<typeof fundInvestmentSchema>;
