import { z } from 'zod';
import { defineContract } from '../contract.ts';

/**
 * The two-person rule of every staff decision that moves money (issue 13, ADR 0022): crediting a
 * deposit, approving a withdrawal, releasing or refunding P2P escrow on an appeal. Published to
 * users (in the wallet overview) and to staff; a decision that needs a second member says why.
 */

/** The published numbers, all in USDT. */
export const twoPersonRuleSchema = z.object({
  /** A deposit or withdrawal worth more than this needs two different staff members. */
  recordAboveUsdt: z.string(),
  /** A P2P appeal whose escrow is worth more than this needs two different support members. */
  appealAboveUsdt: z.string(),
  /** What one staff member may decide alone within the window, all kinds together. */
  staffAloneLimitUsdt: z.string(),
  /** What may reach or leave one user through one-person decisions within the window. */
  userAloneLimitUsdt: z.string(),
  /** The window of both sums (rolling). */
  windowHours: z.number().int(),
  /** Every staff correction of a balance needs a maker and a different checker; one worth more than this needs an admin as the checker. */
  correctionAdminAboveUsdt: z.string(),
});

/**
 * Why a decision needs a second staff member: `record` (worth more than the threshold),
 * `unpriced` (no price when reported), `staff_window` (this member's one-person decisions within
 * the window plus this one would pass the per-staff limit), `user_window` (the same for the user).
 */
export const twoPersonReasonSchema = z.object({
  rule: z.enum(['record', 'unpriced', 'staff_window', 'user_window']),
  limitUsdt: z.string().describe('the threshold or limit that would be passed'),
  decidedAloneUsdt: z.string().describe('what was already decided alone within the window (0 for record and unpriced)'),
  valueUsdt: z.string().describe('the value of this decision'),
  windowHours: z.number().int(),
});

export const getTwoPersonRuleContract = defineContract({
  id: 'admin.twoPersonRule',
  method: 'GET',
  path: '/home/admin/two-person-rule',
  summary: 'The published two-person rule of staff decisions that move money: the per-record thresholds, the per-staff and per-user limits and their window.',
  caller: 'staff',
  staffRoles: ['admin', 'finance', 'support'],
  data: twoPersonRuleSchema,
  errors: ['PERMISSION_DENIED'],
});
