import { z } from 'zod';
import { typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { validationMessages } from '../validation.ts';
import { userAccountKinds } from './assets.addresses.ts';

export const userAccountKindSchema = z.enum(userAccountKinds);
export const assetCodeSchema = z.enum(['USDT', 'BTC', 'ETH']);
/** Amounts travel as decimal strings, never as JSON numbers (ADR 0004). */
export const decimalAmountSchema = typedText(64).describe('decimal string, e.g. "12.5"');

export const accountBalanceSchema = z.object({
  kind: userAccountKindSchema,
  asset: assetCodeSchema,
  available: z.string().describe('usable amount, decimal string at the asset scale'),
  frozen: z.string().describe('amount held for pending actions, decimal string'),
});

export const listAccountsContract = defineContract({
  id: 'assets.accounts',
  method: 'GET',
  path: '/home/assets/accounts',
  summary: "The user's balances: every account type × asset, usable and frozen.",
  caller: 'user',
  data: z.object({ accounts: z.array(accountBalanceSchema) }),
  errors: [],
});

export const transferBetweenAccountsContract = defineContract({
  id: 'assets.transfer',
  method: 'POST',
  path: '/home/assets/transfer',
  summary: "Move an asset between two of the user's own account types (free). Needs an Idempotency-Key header.",
  caller: 'user',
  idempotent: true,
  body: z
    .object({
      fromAccount: userAccountKindSchema,
      toAccount: userAccountKindSchema,
      asset: assetCodeSchema,
      amount: decimalAmountSchema,
    })
    .refine((body) => body.fromAccount !== body.toAccount, {
      path: ['toAccount'],
      message: validationMessages.differentAccounts,
    }),
  data: z.object({ entryId: z.string(), from: accountBalanceSchema, to: accountBalanceSchema }),
  errors: ['WRONG_AMOUNT', 'INSUFFICIENT_BALANCE', 'TOO_MANY_REQUESTS', 'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'REQUEST_IN_PROGRESS'],
});

export const ledgerRecordSchema = z.object({
  entryId: z.string(),
  reason: z.string().describe('what caused the movement, e.g. transfer.internal, demo.fund, hold.place'),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  memo: z.string().nullable(),
  createdAt: z.string(),
  /** Only the postings on the user's own accounts; the other side is the platform or another user. */
  postings: z.array(
    z.object({
      account: userAccountKindSchema,
      asset: assetCodeSchema,
      bucket: z.enum(['available', 'frozen']),
      amount: z.string().describe('signed decimal string: positive in, negative out'),
    }),
  ),
});

export const listRecordsContract = defineContract({
  id: 'assets.records',
  method: 'GET',
  path: '/home/assets/records',
  summary: "Every journal entry touching the user's accounts, newest first, filtered by account type and reason.",
  caller: 'user',
  query: z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
    account: userAccountKindSchema.optional(),
    reason: z.string().regex(/^[a-z][a-z0-9_.]{1,63}$/).optional(),
  }),
  data: z.object({ items: z.array(ledgerRecordSchema), total: z.number().int() }),
  errors: [],
});
