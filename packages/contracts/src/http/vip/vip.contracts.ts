import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, multilineText, pageQuerySchema } from '../common.ts';
import { validationMessages } from '../validation.ts';

/**
 * VIP levels (issue 20, ADR 0046). The table is published configuration: anyone may read it. A
 * level comes from the published rule (30-day swap volume or balance, computed daily) or from an
 * application staff approve only where the rule allows it.
 */
export const vipLevelSchema = z.object({
  level: z.number().int(),
  feeDiscountBps: z.number().int().describe('discount on each fee below, basis points of the fee (2000 = 20 % off)'),
  discountedFees: z.array(z.enum(['swap', 'p2p_release', 'leverage', 'futures'])),
  extraDailyWithdrawals: z.number().int().describe('withdrawal requests a day on top of the platform’s daily count'),
  minVolume30dUsdt: z.string().nullable().describe('reached when the 30-day swap volume is at least this (whole USDT)'),
  minBalanceUsdt: z.string().nullable().describe('…or when the balance is worth at least this (whole USDT)'),
  byApplication: z.object({ minVolume30dUsdt: z.string(), minBalanceUsdt: z.string() }).nullable().describe('granted on an approved application when either is met'),
});

export const vipApplicationStates = ['in_review', 'approved', 'rejected'] as const;

export const vipApplicationSchema = z.object({
  id: z.string(),
  level: z.number().int(),
  note: z.string().nullable(),
  status: z.enum(vipApplicationStates),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
});

export const staffVipApplicationSchema = vipApplicationSchema.extend({
  userId: z.string(),
  userName: z.string(),
  reviewedBy: z.string().nullable(),
  volume30dUsdt: z.string().nullable().describe('the standing read when it was decided'),
  balanceUsdt: z.string().nullable(),
});

const progressMeasure = z.object({ have: z.string(), need: z.string() }).nullable();

export const vipLevelsContract = defineContract({
  id: 'vip.levels',
  method: 'GET',
  path: '/home/vip/levels',
  summary: 'The published VIP table: each level’s fee discount, extra withdrawals a day and the rule that grants it. Public.',
  caller: 'public',
  data: z.object({ levels: z.array(vipLevelSchema) }),
  errors: [],
});

export const myVipContract = defineContract({
  id: 'vip.mine',
  method: 'GET',
  path: '/home/vip/mine',
  summary:
    'My VIP level, how it was granted, my 30-day volume and balance, my progress to the next level, my applications, and the daily computations of my last 30 days (what the rule read and what it gave).',
  caller: 'user',
  data: z.object({
    levels: z.array(vipLevelSchema),
    level: z.number().int(),
    source: z.enum(['rule', 'application']),
    since: z.string().nullable(),
    volume30dUsdt: z.string(),
    balanceUsdt: z.string(),
    progress: z.object({ next: z.number().int().nullable(), volume: progressMeasure, balance: progressMeasure }),
    advancedVerified: z.boolean(),
    applications: z.array(vipApplicationSchema),
    history: z
      .array(
        z.object({
          day: z.string().describe('the UTC day of the computation, YYYY-MM-DD'),
          level: z.number().int().describe('the level given that day'),
          ruleLevel: z.number().int().describe('the level the published rule gave (lower when a valid application gave more)'),
          volume30dUsdt: z.string(),
          balanceUsdt: z.string(),
        }),
      )
      .describe('the daily job’s computations of the last 30 days, newest first'),
  }),
  errors: [],
});

export const applyForVipContract = defineContract({
  id: 'vip.apply',
  method: 'POST',
  path: '/home/vip/applications',
  summary: 'Apply for a level the table grants on application. Needs advanced verification; one application in review at a time.',
  caller: 'user',
  body: z.object({ level: z.number().int().min(1).max(99), note: multilineText(500).optional() }),
  data: vipApplicationSchema,
  errors: ['ADVANCED_VERIFICATION_REQUIRED', 'VIP_APPLICATION_NOT_ALLOWED'],
});

const reviewRoles = ['admin', 'compliance'] as const;

export const listVipApplicationsContract = defineContract({
  id: 'admin.vipApplications',
  method: 'GET',
  path: '/home/admin/vip/applications',
  summary: 'The VIP application queue by state, oldest first.',
  caller: 'staff',
  staffRoles: reviewRoles,
  query: pageQuerySchema.extend({ status: z.enum(vipApplicationStates).default('in_review') }),
  data: z.object({ items: z.array(staffVipApplicationSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const decideVipApplicationContract = defineContract({
  id: 'admin.vipDecide',
  method: 'POST',
  path: '/home/admin/vip/applications/:applicationId/decision',
  summary:
    'Approve (only where the published rule allows the level on application, read at this moment) or reject an application. Reviewer recorded; audited.',
  caller: 'staff',
  staffRoles: reviewRoles,
  params: z.object({ applicationId: idSchema }),
  body: z
    .object({ decision: z.enum(['approve', 'reject']), reason: multilineText(500).optional() })
    .refine((body) => body.decision === 'approve' || (body.reason ?? '').length > 0, {
      path: ['reason'],
      message: validationMessages.rejectionReason,
    }),
  data: staffVipApplicationSchema,
  errors: ['RECORD_NOT_FOUND', 'VERIFICATION_NOT_IN_REVIEW', 'VIP_APPLICATION_NOT_ALLOWED', 'PERMISSION_DENIED'],
});
