import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, pageQuerySchema, typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { validationMessages } from '../validation.ts';
import { earnKindSchema, earnProductSchema, earnTreasurySchema } from './earn.contracts.ts';

/**
 * Earn products in the back-office (issue 17, ADR 0035). A product, or a change to one, is proposed
 * by one admin and takes effect only when a different admin approves it; a change reaches only
 * subscriptions made after it (each subscription keeps the terms it was sold under). Products are
 * closed to new subscriptions, never deleted. No staff call pays, withholds or sets interest.
 */

export const earnStaffRoles = ['admin'] as const;

/** The terms as staff write them: rates in percent with up to four decimals, amounts in the asset. */
export const earnProductProposalSchema = z.object({
  kind: earnKindSchema,
  name: typedText(80).min(1),
  asset: typedText(10).min(1),
  cycleDays: z.number().int().min(1).max(3650),
  dailyRatePercent: decimalAmountSchema.describe('e.g. "0.3" for 0.3 % a day; at most 1'),
  penaltyRatePercent: decimalAmountSchema.describe('per remaining day; "0" with no early redemption'),
  payoutTimeUtc: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, validationMessages.timeOfDay).describe('the daily payout time, UTC'),
  earlyRedemption: z.boolean(),
  minAmount: decimalAmountSchema,
  maxAmount: decimalAmountSchema,
  userQuota: decimalAmountSchema,
  totalQuota: decimalAmountSchema,
  open: z.boolean().describe('false: closed to new subscriptions'),
});

export const earnProductChangeSchema = z.object({
  id: idSchema,
  productId: idSchema.nullable().describe('null: a new product'),
  proposal: earnProductProposalSchema,
  proposedBy: z.string().describe('the staff member’s username'),
  proposedAtMs: z.number().int(),
  status: z.enum(['pending', 'approved', 'rejected']),
  decidedBy: z.string().nullable(),
  decidedAtMs: z.number().int().nullable(),
  decisionNote: z.string().nullable(),
});

export const listStaffEarnProductsContract = defineContract({
  id: 'admin.earn.products',
  method: 'GET',
  path: '/home/admin/earn/products',
  summary: 'Every earn product with its active principal and subscriptions, the earn treasuries with their balances and obligations, and the proposed changes (pending first).',
  caller: 'staff',
  staffRoles: earnStaffRoles,
  query: pageQuerySchema,
  data: z.object({
    products: z.array(earnProductSchema.omit({ userActive: true }).extend({ activeSubscriptions: z.number().int(), activePrincipal: z.string() })),
    treasuries: z.array(earnTreasurySchema),
    changes: z.object({ items: z.array(earnProductChangeSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  }),
  errors: ['PERMISSION_DENIED'],
});

export const proposeEarnProductChangeContract = defineContract({
  id: 'admin.earn.changes.propose',
  method: 'POST',
  path: '/home/admin/earn/changes',
  summary:
    'Propose a new earn product (without productId) or a change to one: nothing takes effect until a different admin approves it. Kind and asset of an existing product cannot change.',
  caller: 'staff',
  staffRoles: earnStaffRoles,
  body: earnProductProposalSchema.extend({ productId: idSchema.optional() }),
  data: earnProductChangeSchema,
  errors: ['PERMISSION_DENIED', 'PARAMETER_ERROR', 'PRODUCT_NOT_FOUND'],
});

export const decideEarnProductChangeContract = defineContract({
  id: 'admin.earn.changes.decide',
  method: 'POST',
  path: '/home/admin/earn/changes/:changeId/decision',
  summary:
    'Approve (the product is created or changed; changed terms get a new terms version and reach only new subscriptions) or reject a proposed change. The proposer cannot decide their own proposal.',
  caller: 'staff',
  staffRoles: earnStaffRoles,
  params: z.object({ changeId: idSchema }),
  body: z.object({ approve: z.boolean(), note: typedText(500).optional() }),
  data: earnProductChangeSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'SECOND_APPROVER_REQUIRED', 'PARAMETER_ERROR'],
});

export type EarnProductProposal = z.infer<typeof earnProductProposalSchema>;
export type EarnProductChange = z.infer<typeof earnProductChangeSchema>;
