import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, multilineText, pageQuerySchema, typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { validationMessages } from '../validation.ts';
import { creditSchema, loanProductSchema, loanSchema, loanStatusSchema } from './loans.contracts.ts';

/**
 * Loans in the back-office (issue 18, ADR 0036). Compliance staff approve or reject applications
 * (with the reason the borrower reads; two different members above the published amount); admins
 * propose loan products and changes, which apply only when a different admin approves. No staff
 * call sets a credit limit, a score, a price, an amount owed or a liquidation.
 */

export const loanReviewRoles = ['compliance'] as const;
export const loanProductRoles = ['admin'] as const;

export const staffLoanSchema = loanSchema.extend({
  userId: idSchema,
  userName: z.string().describe('the borrower’s public name: a queue names users without their contacts (ADR 0023)'),
  credit: creditSchema.describe('the borrower’s credit now, as the policy computes it'),
  reviews: z.array(z.object({ staff: z.string(), decision: z.enum(['approve', 'reject']), reason: z.string().nullable(), atMs: z.number().int() })),
  holdingPhotoUrl: z.string().describe('the API path of the holding-ID photo (audited on every view)'),
});

export const listStaffLoansContract = defineContract({
  id: 'admin.loans',
  method: 'GET',
  path: '/home/admin/loans',
  summary: 'Loans by state: `pending` applications oldest first (the review queue), the others newest first.',
  caller: 'staff',
  staffRoles: loanReviewRoles,
  query: pageQuerySchema.extend({ status: loanStatusSchema.default('pending') }),
  data: z.object({ items: z.array(staffLoanSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const getStaffLoanContract = defineContract({
  id: 'admin.loans.get',
  method: 'GET',
  path: '/home/admin/loans/:loanId',
  summary: 'One loan with the borrower’s credit, the reviews so far and its entries.',
  caller: 'staff',
  staffRoles: loanReviewRoles,
  params: z.object({ loanId: idSchema }),
  data: staffLoanSchema,
  errors: ['RECORD_NOT_FOUND', 'PERMISSION_DENIED'],
});

export const getLoanHoldingPhotoContract = defineContract({
  id: 'admin.loans.photo',
  method: 'GET',
  path: '/home/admin/loans/:loanId/holding-photo',
  summary: 'The holding-ID photo of an application, for compliance review. Every view is written to the audit log.',
  caller: 'staff',
  staffRoles: loanReviewRoles,
  params: z.object({ loanId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['RECORD_NOT_FOUND', 'PERMISSION_DENIED'],
});

export const decideLoanContract = defineContract({
  id: 'admin.loans.decide',
  method: 'POST',
  path: '/home/admin/loans/:loanId/decision',
  summary:
    'Approve (the principal is paid from the lending treasury in one entry; above the published amount, after a second member’s approval) or reject with the reason the borrower reads (the collateral returns). Audited.',
  caller: 'staff',
  staffRoles: loanReviewRoles,
  params: z.object({ loanId: idSchema }),
  body: z
    .object({ decision: z.enum(['approve', 'reject']), reason: multilineText(500).optional() })
    .refine((body) => body.decision === 'approve' || (body.reason ?? '').length > 0, { path: ['reason'], message: validationMessages.rejectionReason }),
  data: staffLoanSchema,
  errors: ['RECORD_NOT_FOUND', 'PERMISSION_DENIED', 'NOT_PENDING_REVIEW', 'SECOND_APPROVER_REQUIRED', 'LENDING_FUNDS_UNAVAILABLE'],
});

/** Terms as admins write them: rates and ratios in percent (up to four decimals), amounts in USDT. */
export const loanProductProposalSchema = z.object({
  name: typedText(80).min(1),
  cycleDays: z.number().int().min(1).max(365),
  dailyRatePercent: decimalAmountSchema.describe('e.g. "0.1" for 0.1 % a day; at most 1'),
  minAmount: decimalAmountSchema,
  maxAmount: decimalAmountSchema,
  collateral: z
    .array(z.object({ asset: z.enum(['BTC', 'ETH', 'USDT']), ltvPercent: decimalAmountSchema }))
    .min(1)
    .max(3),
  marginCallLtvPercent: decimalAmountSchema,
  liquidationLtvPercent: decimalAmountSchema,
  open: z.boolean(),
});

export const loanProductChangeSchema = z.object({
  id: idSchema,
  productId: idSchema.nullable(),
  proposal: loanProductProposalSchema,
  proposedBy: z.string(),
  proposedAtMs: z.number().int(),
  status: z.enum(['pending', 'approved', 'rejected']),
  decidedBy: z.string().nullable(),
  decidedAtMs: z.number().int().nullable(),
  decisionNote: z.string().nullable(),
});

export const listStaffLoanProductsContract = defineContract({
  id: 'admin.loans.products',
  method: 'GET',
  path: '/home/admin/loan-products',
  summary: 'Every loan product with its outstanding principal, the lending treasury’s balance, and the proposed changes (pending first).',
  caller: 'staff',
  staffRoles: loanProductRoles,
  query: pageQuerySchema,
  data: z.object({
    products: z.array(loanProductSchema.extend({ outstandingLoans: z.number().int(), outstandingPrincipal: z.string() })),
    lender: z.object({ accountId: idSchema.nullable(), balance: z.string() }),
    changes: z.object({ items: z.array(loanProductChangeSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  }),
  errors: ['PERMISSION_DENIED'],
});

export const proposeLoanProductChangeContract = defineContract({
  id: 'admin.loans.changes.propose',
  method: 'POST',
  path: '/home/admin/loan-products/changes',
  summary: 'Propose a new loan product (without productId) or a change to one: nothing takes effect until a different admin approves it.',
  caller: 'staff',
  staffRoles: loanProductRoles,
  body: loanProductProposalSchema.extend({ productId: idSchema.optional() }),
  data: loanProductChangeSchema,
  errors: ['PERMISSION_DENIED', 'PARAMETER_ERROR', 'PRODUCT_NOT_FOUND'],
});

export const decideLoanProductChangeContract = defineContract({
  id: 'admin.loans.changes.decide',
  method: 'POST',
  path: '/home/admin/loan-products/changes/:changeId/decision',
  summary:
    'Approve (the product is created or changed; changed terms get a new terms version and reach only applications made after it) or reject a proposed change. The proposer cannot decide their own proposal.',
  caller: 'staff',
  staffRoles: loanProductRoles,
  params: z.object({ changeId: idSchema }),
  body: z.object({ approve: z.boolean(), note: typedText(500).optional() }),
  data: loanProductChangeSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'SECOND_APPROVER_REQUIRED', 'PARAMETER_ERROR'],
});

export type StaffLoanView = z.infer<typeof staffLoanSchema>;
export type LoanProductProposal = z.infer<typeof loanProductProposalSchema>;
export type LoanProductChange = z.infer<typeof loanProductChangeSchema>;
