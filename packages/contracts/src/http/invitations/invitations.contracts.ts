import { INVITE_TRADING_FEE_REASONS } from '@keel/domain';
import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { assetCodeSchema } from '../assets/assets.contracts.ts';

/**
 * Invitations (issue 20, ADR 0045): the user's invite code and link, the people who registered with
 * it (named masked), and the rewards: a published share of the trading fees those people pay, for a
 * published period after they registered, credited per UTC day by a job. One level only; nothing is
 * paid for a sign-up itself.
 */

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** The journal reasons whose fees count, as published. */
export const inviteFeeKindSchema = z.enum(INVITE_TRADING_FEE_REASONS);

/** The published reward rule, the one the job applies to people who register now. */
export const inviteRuleSchema = z.object({
  sharePercent: z.number().int().min(0).max(50).describe('the share of each invitee\'s trading fees the inviter receives, in whole percent'),
  periodDays: z.number().int().min(1).describe('for how many days after an invitee registered their fees count'),
  feeKinds: z.array(inviteFeeKindSchema).describe('the journal reasons whose fees count as trading fees'),
  levels: z.literal(1).describe('one level: the people an invitee invites earn the invitee, not their inviter'),
});

export const assetTotalSchema = z.object({ asset: assetCodeSchema, amount: z.string().describe('decimal string') });

export const getInvitationSummaryContract = defineContract({
  id: 'invitations.summary',
  method: 'GET',
  path: '/home/invitations/summary',
  summary:
    "The user's invite code and the parts of their invitation link (the app's origin + registerPath + ?inviteParam=code), the published reward rule with its numbers, how many people registered with the code and how many of them are verified, and the rewards received per asset.",
  caller: 'user',
  data: z.object({
    code: z.string(),
    link: z.object({ registerPath: z.literal('/register'), inviteParam: z.literal('invite') }),
    rule: inviteRuleSchema,
    totals: z.object({
      invitees: z.number().int(),
      verified: z.number().int(),
      rewards: z.array(assetTotalSchema).describe('every asset rewards were received in, in asset order'),
    }),
  }),
  errors: [],
});

export const inviteeViewSchema = z.object({
  name: z.string().describe('masked: the first and last letter of the chosen name, or the masked e-mail or phone'),
  joinedAt: z.string(),
  verified: z.boolean().describe('identity verification approved'),
  rewardsUntil: z.string().describe('fees paid until this moment count for rewards'),
});

export const listInviteesContract = defineContract({
  id: 'invitations.invitees',
  method: 'GET',
  path: '/home/invitations/invitees',
  summary: 'The people who registered with the user\'s invite code, newest first, named masked.',
  caller: 'user',
  query: pageQuery,
  data: z.object({ items: z.array(inviteeViewSchema), total: z.number().int() }),
  errors: [],
});

export const inviteRewardViewSchema = z.object({
  day: z.string().describe('the UTC day the fees were paid, YYYY-MM-DD'),
  invitee: z.string().describe('masked, as in the invitees list'),
  asset: assetCodeSchema,
  fee: z.string().describe('the trading fees the invitee paid that day into one fee account'),
  reward: z.string().describe('the share credited to the coin account (rounded down; "0" when it rounded to nothing)'),
  sharePercent: z.number().int(),
  entryId: z.string().nullable().describe('the journal entry that paid it; null when nothing was paid'),
  creditedAt: z.string(),
});

export const listInviteRewardsContract = defineContract({
  id: 'invitations.rewards',
  method: 'GET',
  path: '/home/invitations/rewards',
  summary: "The user's invitation rewards, per invitee, UTC day and fee account, newest day first.",
  caller: 'user',
  query: pageQuery,
  data: z.object({ items: z.array(inviteRewardViewSchema), total: z.number().int() }),
  errors: [],
});

export const invitationContracts = [getInvitationSummaryContract, listInviteesContract, listInviteRewardsContract] as const;
