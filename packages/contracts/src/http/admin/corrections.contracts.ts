import { z } from 'zod';
import { assetCodeSchema } from '../assets/assets.contracts.ts';
import { idSchema, multilineText, pageQuerySchema, plainText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { validationMessages } from '../validation.ts';

/**
 * Staff corrections (issue 22, ADR 0039): the only way a person at Keel changes a balance. A
 * finance or admin member proposes a signed amount for one user account or one published house
 * account, with the reason the user reads; a different member approves or rejects it (an admin
 * above the published value, `CORRECTION_ADMIN_CHECKER_ABOVE_USDT`). Only an approval posts it: one
 * `staff.correction` journal entry, shown in the user's records with the reason, and a message.
 */

export const correctionRoles = ['admin', 'finance'] as const;
export const correctionStatuses = ['pending', 'approved', 'rejected'] as const;
export const correctionUserAccounts = ['coin', 'fiat', 'options', 'leveraged', 'defi'] as const;
export const correctionHouseAccounts = ['earn_treasury', 'lending_treasury', 'insurance_fund', 'merchant_float'] as const;

/** A signed decimal: "12.5", "-0.001"; zero is not a correction (checked with the asset's scale on the server). */
const signedAmountSchema = z
  .string()
  .trim()
  .regex(/^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,18})?$/, validationMessages.signedAmount)
  .refine((text) => !/^-?0(\.0+)?$/.test(text), validationMessages.signedAmount);

export const proposeCorrectionBody = z
  .object({
    target: z.enum(['user', 'house']),
    userId: idSchema.optional().describe('the user (target user)'),
    account: z.enum(correctionUserAccounts).optional().describe('the user’s account kind (target user)'),
    houseAccount: z.enum(correctionHouseAccounts).optional().describe('the house account (target house)'),
    merchantId: idSchema.optional().describe('the C2C merchant (staff id) whose float it funds or draws down (house account merchant_float)'),
    asset: assetCodeSchema,
    amount: signedAmountSchema.describe('signed decimal: positive credits the target, negative takes from it'),
    reason: multilineText(500).min(10).describe('what the user reads in their records and message'),
    reference: plainText(100).optional().describe('a ticket, a deposit id, a transaction hash: what this corrects'),
  })
  .refine(
    (body) =>
      body.target === 'user'
        ? body.userId !== undefined && body.account !== undefined && body.houseAccount === undefined
        : body.houseAccount !== undefined && body.userId === undefined && body.account === undefined,
    { path: ['target'], message: validationMessages.correctionTarget },
  )
  .refine((body) => (body.houseAccount === 'merchant_float') === (body.merchantId !== undefined), {
    path: ['merchantId'],
    message: validationMessages.correctionTarget,
  });
export type ProposeCorrectionBody = z.infer<typeof proposeCorrectionBody>;

export const correctionSchema = z.object({
  id: idSchema,
  target: z.enum(['user', 'house']),
  userId: idSchema.nullable(),
  userName: z.string().nullable().describe('the user’s public name: staff lists name users without their contacts (ADR 0023)'),
  account: z.enum(correctionUserAccounts).nullable(),
  houseAccount: z.enum(correctionHouseAccounts).nullable(),
  merchantId: idSchema.nullable().describe('the merchant of a merchant_float correction'),
  merchantName: z.string().nullable(),
  asset: assetCodeSchema,
  amount: z.string().describe('signed decimal'),
  reason: z.string(),
  reference: z.string().nullable(),
  valueUsdt: z.string().nullable().describe('|amount| in USDT at the latest recorded price when proposed; null when there was none'),
  adminCheckerRequired: z.boolean().describe('worth more than the published amount, or of unknown worth: only an admin approves'),
  proposedBy: z.string(),
  proposedAtMs: z.number().int(),
  status: z.enum(correctionStatuses),
  decidedBy: z.string().nullable(),
  decidedAtMs: z.number().int().nullable(),
  decisionNote: z.string().nullable(),
  entryId: idSchema.nullable().describe('the journal entry of an approved correction'),
});
export type StaffCorrection = z.infer<typeof correctionSchema>;

export const listCorrectionsContract = defineContract({
  id: 'admin.corrections',
  method: 'GET',
  path: '/home/admin/corrections',
  summary: 'Staff corrections by state: `pending` oldest first (the checkers’ queue), the others newest first; optionally one user’s.',
  caller: 'staff',
  staffRoles: correctionRoles,
  query: pageQuerySchema.extend({ status: z.enum(correctionStatuses).default('pending'), userId: idSchema.optional() }),
  data: z.object({
    items: z.array(correctionSchema),
    total: z.number().int(),
    adminCheckerAboveUsdt: z.string().describe('the published amount above which only an admin approves'),
  }),
  errors: ['PERMISSION_DENIED'],
});

export const proposeCorrectionContract = defineContract({
  id: 'admin.corrections.propose',
  method: 'POST',
  path: '/home/admin/corrections',
  summary:
    'Propose a correction (the maker). Nothing moves until a different finance or admin member approves it; above the published value only an admin may. The user, account and asset must exist; the reason is what the user will read.',
  caller: 'staff',
  staffRoles: correctionRoles,
  body: proposeCorrectionBody,
  data: correctionSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'WRONG_AMOUNT', 'PARAMETER_ERROR'],
});

export const decideCorrectionContract = defineContract({
  id: 'admin.corrections.decide',
  method: 'POST',
  path: '/home/admin/corrections/:correctionId/decision',
  summary:
    'Approve (the checker: the entry is posted, the user is told) or reject a pending correction, with an optional note. The maker cannot decide their own; above the published value only an admin approves. An approval the ledger refuses (the target would go below zero) leaves the correction pending. Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: correctionRoles,
  idempotent: true,
  params: z.object({ correctionId: idSchema }),
  body: z.object({ approve: z.boolean(), note: plainText(500).optional() }),
  data: correctionSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'SECOND_APPROVER_REQUIRED', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_REQUIRED'],
});
