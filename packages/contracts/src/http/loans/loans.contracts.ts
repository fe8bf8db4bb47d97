import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, pageQuerySchema, secretText } from '../common.ts';
import { defineContract } from '../contract.ts';

/**
 * Loans (issue 18, ADR 0036): USDT lent against pledged collateral (BTC, ETH or USDT, held in the
 * coin account's frozen part) by a published credit policy — the available credit, the credit
 * score and every threshold are computed, never set by a person. Amounts are decimal strings;
 * rates and ratios percent strings with four decimals and their ppm; prices are the recorded ticks'
 * (8 decimals), always with the tick's id.
 */

export const loanStatuses = ['pending', 'passed', 'rejected', 'repaid', 'liquidated'] as const;
export const loanStatusSchema = z.enum(loanStatuses);

/** A recorded market price and the tick it came from; USDT is priced at 1 with no tick. */
export const loanPriceSchema = z.object({
  asset: z.string(),
  symbol: z.string().nullable().describe('the market, e.g. "BTC/USDT"; null for USDT'),
  price: z.string().nullable().describe('USDT per unit; null when no recent tick exists'),
  tickId: idSchema.nullable(),
  atMs: z.number().int().nullable(),
});

export const loanCollateralTermSchema = z.object({
  asset: z.string(),
  ltvPercent: z.string().describe('the share of the pledge’s market value lent against it'),
  ltvPpm: z.number().int(),
});

export const loanProductSchema = z.object({
  id: idSchema,
  name: z.string(),
  asset: z.literal('USDT'),
  cycleDays: z.number().int(),
  dailyRatePercent: z.string(),
  dailyRatePpm: z.number().int(),
  minAmount: z.string(),
  maxAmount: z.string(),
  collateral: z.array(loanCollateralTermSchema),
  marginCallLtvPercent: z.string(),
  liquidationLtvPercent: z.string(),
  open: z.boolean(),
  termsVersion: z.number().int(),
});

export const creditPolicySchema = z.object({
  tierCapsUsdt: z.object({ none: z.string(), identity: z.string(), advanced: z.string() }),
  score: z.object({
    base: z.number().int(),
    perRepaidOnTime: z.number().int(),
    repaidOnTimeCounted: z.number().int(),
    perLiquidatedAtDue: z.number().int(),
    perLiquidatedEarly: z.number().int(),
    min: z.number().int(),
    max: z.number().int(),
  }),
  bands: z.array(z.object({ minScore: z.number().int(), capMultiplierPercent: z.string() })),
  twoPersonAboveUsdt: z.string().describe('applications above this need two compliance staff to approve'),
});

export const creditSchema = z.object({
  tier: z.number().int().describe('0 none, 1 identity verified, 2 advanced'),
  tierCap: z.string(),
  history: z.object({ repaidOnTime: z.number().int(), liquidatedAtDue: z.number().int(), liquidatedEarly: z.number().int() }),
  score: z.number().int(),
  scoreParts: z.object({ base: z.number().int(), repaidOnTime: z.number().int(), liquidatedAtDue: z.number().int(), liquidatedEarly: z.number().int() }),
  capMultiplierPercent: z.string(),
  cap: z.string().describe('tier cap × the score’s multiplier'),
  committed: z.string().describe('principal owed on passed loans plus the amounts of pending applications'),
  available: z.string().describe('cap − committed, never below 0'),
});

export const loansOverviewSchema = z.object({
  products: z.array(loanProductSchema),
  credit: creditSchema,
  policy: creditPolicySchema,
  prices: z.array(loanPriceSchema),
  balances: z.array(z.object({ asset: z.string(), available: z.string() })).describe('the coin account: where collateral comes from, the loan goes to, and repayments come from'),
  lender: z.object({ accountId: idSchema.nullable(), balance: z.string() }).describe('the lending treasury that pays loans out, with its ledger balance'),
  serverTimeMs: z.number().int(),
});

export const loanAgreementSchema = z.object({
  version: z.number().int().describe('the product’s terms version: the application names it'),
  productId: idSchema,
  productName: z.string(),
  amount: z.string(),
  cycleDays: z.number().int(),
  dailyRatePercent: z.string(),
  interest: z.string().describe('amount × daily rate × cycle days'),
  totalDue: z.string(),
  collateralAsset: z.string(),
  collateralAmount: z.string(),
  collateralValue: z.string().describe('at the price below'),
  collateralLtvPercent: z.string(),
  pledgeCredit: z.string().describe('what this pledge can borrow: its value × the asset’s LTV'),
  marginCallLtvPercent: z.string(),
  liquidationLtvPercent: z.string(),
  marginCallPrice: z.string().nullable().describe('the collateral price at which the margin call comes, for the total due; null for USDT'),
  liquidationPrice: z.string().nullable(),
  price: loanPriceSchema,
});

export const loanRepaymentSchema = z.object({
  id: idSchema,
  amount: z.string(),
  interest: z.string(),
  principal: z.string(),
  source: z.enum(['borrower', 'collateral']),
  entryId: idSchema,
  atMs: z.number().int(),
});

export const loanSchema = z.object({
  id: idSchema,
  loanNo: z.string(),
  productId: idSchema,
  productName: z.string(),
  asset: z.literal('USDT'),
  amount: z.string(),
  cycleDays: z.number().int(),
  dailyRatePercent: z.string(),
  interest: z.string().describe('amount × daily rate × cycle days: the interest at full term'),
  totalDue: z.string().describe('amount + interest'),
  termsVersion: z.number().int(),
  agreementAcceptedAtMs: z.number().int(),
  collateralAsset: z.string(),
  collateralAmount: z.string(),
  collateralLtvPercent: z.string(),
  marginCallLtvPercent: z.string(),
  liquidationLtvPercent: z.string(),
  appliedAtMs: z.number().int(),
  appliedPrice: loanPriceSchema.describe('the price the application was judged at'),
  status: loanStatusSchema,
  approvalsRequired: z.number().int(),
  approvals: z.number().int(),
  decidedAtMs: z.number().int().nullable(),
  rejectReason: z.string().nullable(),
  startedAtMs: z.number().int().nullable(),
  dueAtMs: z.number().int().nullable(),
  daysBegun: z.number().int().nullable().describe('days of interest charged if repaid now'),
  owedNow: z.string().nullable().describe('principal left + interest for each day begun − interest paid; null unless passed'),
  principalOutstanding: z.string(),
  interestPaid: z.string(),
  repaid: z.string(),
  ltvPercent: z.string().nullable().describe('owed now ÷ the collateral’s value at the latest recorded price; null when unpriced or not passed'),
  health: z.enum(['healthy', 'margin_call', 'liquidate']).nullable(),
  marginCallPrice: z.string().nullable(),
  liquidationPrice: z.string().nullable(),
  price: loanPriceSchema.nullable().describe('the latest recorded price of the collateral'),
  marginCall: z.object({ atMs: z.number().int(), tickId: idSchema.nullable() }).nullable(),
  closedAtMs: z.number().int().nullable(),
  liquidation: z
    .object({
      kind: z.enum(['due', 'price']),
      tickId: idSchema.nullable(),
      price: z.string().describe('USDT per unit of the collateral at that tick ("1" for USDT)'),
      sold: z.string().describe('collateral sold'),
      released: z.string().describe('collateral returned'),
      repaid: z.string(),
      shortfall: z.string().describe('what the collateral did not cover: the lender’s loss, not owed by the borrower'),
    })
    .nullable(),
  pledgeEntryId: idSchema,
  disburseEntryId: idSchema.nullable(),
  closeEntryId: idSchema.nullable(),
  repayments: z.array(loanRepaymentSchema).describe('newest first (only in the detail; empty in lists)'),
});

const paymentErrors = ['PAYMENT_PASSWORD_NOT_SET', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED'] as const;
const idempotencyErrors = ['IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'REQUEST_IN_PROGRESS'] as const;

export const getLoansOverviewContract = defineContract({
  id: 'loans.overview',
  method: 'GET',
  path: '/home/loans/overview',
  summary:
    'The loan products with their terms; the caller’s credit (tier cap, credit score and how it is computed, committed, available); the published credit policy; the collateral prices with their ticks; the coin balances; the lending treasury’s balance.',
  caller: 'user',
  data: loansOverviewSchema,
  errors: [],
});

const pledgeQuery = z.object({
  productId: idSchema,
  amount: decimalAmountSchema,
  collateralAsset: z.string().max(10),
  collateralAmount: decimalAmountSchema,
});

export const getLoanAgreementContract = defineContract({
  id: 'loans.agreement',
  method: 'GET',
  path: '/home/loans/agreement',
  summary: 'The loan agreement for these numbers, generated from the product’s terms and the latest recorded price: what the borrower accepts before applying.',
  caller: 'user',
  query: pledgeQuery,
  data: loanAgreementSchema,
  errors: ['PRODUCT_NOT_FOUND', 'WRONG_AMOUNT', 'PARAMETER_ERROR', 'PRICE_UNAVAILABLE'],
});

export const applyLoanContract = defineContract({
  id: 'loans.apply',
  method: 'POST',
  path: '/home/loans',
  summary:
    'Apply for a loan: the collateral is pledged (moved into the coin account’s frozen part) in one entry and the application waits for compliance review. Needs the accepted agreement’s version, the holding-ID photo (an upload of purpose loan_holding), the payment password and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: pledgeQuery.extend({
    holdingUploadId: idSchema,
    agreementVersion: z.number().int(),
    agreementAccepted: z.literal(true),
    paymentPassword: secretText(64),
  }),
  data: loanSchema,
  errors: [
    'PRODUCT_NOT_FOUND',
    'PRODUCT_CLOSED',
    'WRONG_AMOUNT',
    'LOAN_AMOUNT_WRONG',
    'LOAN_QUOTA_INSUFFICIENT',
    'INSUFFICIENT_BALANCE',
    'PRICE_UNAVAILABLE',
    'PARAMETER_ERROR',
    'RECORD_NOT_FOUND',
    ...paymentErrors,
    ...idempotencyErrors,
  ],
});

export const listLoansContract = defineContract({
  id: 'loans.list',
  method: 'GET',
  path: '/home/loans',
  summary: 'The caller’s loans, newest first: `open` (pending and passed) or `closed` (rejected, repaid, liquidated).',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['open', 'closed']).default('open') }),
  data: z.object({ items: z.array(loanSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  errors: [],
});

export const getLoanContract = defineContract({
  id: 'loans.get',
  method: 'GET',
  path: '/home/loans/:loanId',
  summary: 'One of the caller’s loans with its repayments and journal entries.',
  caller: 'user',
  params: z.object({ loanId: idSchema }),
  data: loanSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const repayLoanContract = defineContract({
  id: 'loans.repay',
  method: 'POST',
  path: '/home/loans/:loanId/repay',
  summary:
    'Repay a passed loan from the coin account, in full (`full: true`: what is owed now — the principal left and interest for each day begun) or in part (`amount`, at most that): interest first, then principal. Repaid in full, the collateral returns. Needs the payment password and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ loanId: idSchema }),
  body: z.object({ full: z.boolean(), amount: decimalAmountSchema.optional(), paymentPassword: secretText(64) }),
  data: loanSchema,
  errors: ['RECORD_NOT_FOUND', 'LOAN_NOT_OUTSTANDING', 'WRONG_AMOUNT', 'AMOUNT_OUT_OF_RANGE', 'INSUFFICIENT_BALANCE', 'PARAMETER_ERROR', ...paymentErrors, ...idempotencyErrors],
});

export type LoanView = z.infer<typeof loanSchema>;
export type LoanPrice = z.infer<typeof loanPriceSchema>;
export type LoansOverview = z.infer<typeof loansOverviewSchema>;
export type LoanAgreement = z.infer<typeof loanAgreementSchema>;
