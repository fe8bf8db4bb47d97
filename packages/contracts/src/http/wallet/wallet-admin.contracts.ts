import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { twoPersonReasonSchema } from '../admin/two-person.contracts.ts';
import { idSchema, pageQuerySchema, plainText, typedText } from '../common.ts';
import { depositStatuses, depositViewSchema, walletChannelSchema, withdrawalStatuses, withdrawalViewSchema } from './wallet.contracts.ts';
import { validationMessages } from '../validation.ts';

/**
 * The finance back-office of the wallet (issue 5): deposit and withdrawal queues. Staff approve or
 * reject; they never type an amount or a balance: an approval posts exactly what the user asked
 * for, through the ledger. Above the published threshold two different staff members approve
 * (maker and checker). Every action is in the audit log.
 */
export const financeRoles = ['admin', 'finance'] as const;

const staffApprovalSchema = z.object({ staff: z.string(), at: z.string() });

const queueUserFields = {
  userId: idSchema,
  userName: z.string(),
  /** What the approvals need: 1, or 2 when the two-person rule applies (set on creation, or raised at the first approval). */
  approvalsRequired: z.number().int(),
  firstApproval: staffApprovalSchema.nullable(),
  /** Why a second staff member must approve (null while one may decide alone). */
  twoPersonReason: twoPersonReasonSchema.nullable(),
  decidedBy: z.string().nullable(),
  usdtValue: z.string(),
};

export const staffDepositSchema = depositViewSchema.extend(queueUserFields);
export const staffWithdrawalSchema = withdrawalViewSchema.extend({
  ...queueUserFields,
  completedBy: z.string().nullable(),
});

const queueQuery = pageQuerySchema.extend({
  channel: walletChannelSchema.optional(),
  /** A user id, or a fragment of username, e-mail or phone. */
  user: typedText(64).optional(),
});

export const listStaffDepositsContract = defineContract({
  id: 'admin.deposits',
  method: 'GET',
  path: '/home/admin/deposits',
  summary: 'The deposit queue by state (pending first-in first-out; decided newest first), with filters.',
  caller: 'staff',
  staffRoles: financeRoles,
  query: queueQuery.extend({ status: z.enum(depositStatuses).default('pending') }),
  data: z.object({ items: z.array(staffDepositSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const getStaffDepositContract = defineContract({
  id: 'admin.depositDetail',
  method: 'GET',
  path: '/home/admin/deposits/:depositId',
  summary: 'One deposit request.',
  caller: 'staff',
  staffRoles: financeRoles,
  params: z.object({ depositId: idSchema }),
  data: staffDepositSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const getDepositProofContract = defineContract({
  id: 'admin.depositProof',
  method: 'GET',
  path: '/home/admin/deposits/:depositId/proof',
  summary: "The screenshot a user attached to a deposit request; each view is written to the audit log.",
  caller: 'staff',
  staffRoles: financeRoles,
  params: z.object({ depositId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

const decisionBody = z
  .object({
    decision: z.enum(['approve', 'reject']),
    reason: plainText(500).optional(),
  })
  .refine((body) => body.decision === 'approve' || (body.reason ?? '').length >= 3, {
    path: ['reason'],
    message: validationMessages.rejectionReason,
  });

export const decideDepositContract = defineContract({
  id: 'admin.decideDeposit',
  method: 'POST',
  path: '/home/admin/deposits/:depositId/decision',
  summary:
    'Approve (the amount the user reported is credited through the ledger) or reject with a reason shown to the user. When the two-person rule applies (worth more than the threshold, or past the per-staff or per-user limit within the window; ADR 0022) the first approval is only recorded, with the reason, and the approval of a different staff member carries it out. Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: financeRoles,
  idempotent: true,
  params: z.object({ depositId: idSchema }),
  body: decisionBody,
  data: staffDepositSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'SECOND_APPROVER_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const listStaffWithdrawalsContract = defineContract({
  id: 'admin.withdrawals',
  method: 'GET',
  path: '/home/admin/withdrawals',
  summary: 'The withdrawal queue by state (open ones first-in first-out; ended ones newest first), with filters.',
  caller: 'staff',
  staffRoles: financeRoles,
  query: queueQuery.extend({ status: z.enum(withdrawalStatuses).default('pending') }),
  data: z.object({ items: z.array(staffWithdrawalSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const getStaffWithdrawalContract = defineContract({
  id: 'admin.withdrawalDetail',
  method: 'GET',
  path: '/home/admin/withdrawals/:withdrawalId',
  summary: 'One withdrawal.',
  caller: 'staff',
  staffRoles: financeRoles,
  params: z.object({ withdrawalId: idSchema }),
  data: staffWithdrawalSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const decideWithdrawalContract = defineContract({
  id: 'admin.decideWithdrawal',
  method: 'POST',
  path: '/home/admin/withdrawals/:withdrawalId/decision',
  summary:
    'Approve a pending withdrawal for broadcast, or reject it with a reason (the held amount and fee return to the user). When the two-person rule applies (worth more than the threshold, or past the per-staff or per-user limit within the window; ADR 0022) the first approval is only recorded, with the reason, and the approval of a different staff member carries it out. Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: financeRoles,
  idempotent: true,
  params: z.object({ withdrawalId: idSchema }),
  body: decisionBody,
  data: staffWithdrawalSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'SECOND_APPROVER_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const completeWithdrawalContract = defineContract({
  id: 'admin.completeWithdrawal',
  method: 'POST',
  path: '/home/admin/withdrawals/:withdrawalId/complete',
  summary:
    'Record the hash of the broadcast transaction of an approved withdrawal: the held amount leaves the ledger to the hot wallet, the fee to the fee account, and the withdrawal is completed. Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: financeRoles,
  idempotent: true,
  params: z.object({ withdrawalId: idSchema }),
  body: z.object({ txHash: typedText(100).min(1) }),
  data: staffWithdrawalSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'TX_HASH_ALREADY_USED', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const failWithdrawalContract = defineContract({
  id: 'admin.failWithdrawal',
  method: 'POST',
  path: '/home/admin/withdrawals/:withdrawalId/fail',
  summary:
    'Mark an approved withdrawal that could not be broadcast as failed, with a reason shown to the user; the held amount and fee return. Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: financeRoles,
  idempotent: true,
  params: z.object({ withdrawalId: idSchema }),
  body: z.object({ reason: plainText(500).min(3) }),
  data: staffWithdrawalSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW', 'IDEMPOTENCY_KEY_REQUIRED'],
});
