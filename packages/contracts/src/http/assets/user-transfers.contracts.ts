import { z } from 'zod';
import { secretText, typedText } from '../common.ts';
import { defineContract } from '../contract.ts';
import { accountBalanceSchema, assetCodeSchema, decimalAmountSchema } from './assets.contracts.ts';

/**
 * Transfers to another user (issue 19). The sender names the recipient by username or user number
 * (UID), sees who that is (masked: the name they chose, never a full e-mail or phone), and pays the
 * amount plus the published 0.10 % fee from the coin account; the recipient gets the amount.
 */

/** Who a transfer would go to, as the sender may see them. */
export const transferRecipientSchema = z.object({
  uid: z.string().describe('the recipient\'s user number'),
  name: z.string().describe('nickname, else username, else the masked e-mail or phone'),
});

export const findTransferRecipientContract = defineContract({
  id: 'assets.transferRecipient',
  method: 'GET',
  path: '/home/assets/transfer-recipient',
  summary:
    'Who a transfer to another user would go to: a username or user number (UID) in, the user number and the masked name out. Limited per address like the login, so it cannot be used to list users.',
  caller: 'user',
  rateLimited: true,
  query: z.object({ to: typedText(64).min(1).describe('username or user number (UID)') }),
  data: transferRecipientSchema,
  errors: ['RECORD_NOT_FOUND', 'CANNOT_TRANSFER_TO_SELF', 'TOO_MANY_REQUESTS'],
});

export const userTransferViewSchema = z.object({
  id: z.string(),
  entryId: z.string(),
  direction: z.enum(['sent', 'received']),
  counterparty: transferRecipientSchema,
  asset: assetCodeSchema,
  amount: z.string().describe('what the recipient received'),
  fee: z.string().describe('what the sender paid on top (0.10 %, rounded up); "0" on the received side'),
  total: z.string().describe('what left the sender\'s coin account (amount + fee); the amount on the received side'),
  createdAt: z.string(),
});

export const transferToUserContract = defineContract({
  id: 'assets.transferToUser',
  method: 'POST',
  path: '/home/assets/transfer-to-user',
  summary:
    "Send an asset from the coin account to another user's coin account with the payment password. The sender pays the published fee (0.10 %, rounded up) on top; the recipient gets the amount and a message. Judged by the published withdrawal rules and counted in the same daily count and limit. Needs an Idempotency-Key header.",
  caller: 'user',
  idempotent: true,
  body: z.object({
    to: typedText(64).min(1).describe('username or user number (UID)'),
    asset: assetCodeSchema,
    amount: decimalAmountSchema,
    paymentPassword: secretText(64),
  }),
  data: z.object({ transfer: userTransferViewSchema, balance: accountBalanceSchema }),
  errors: [
    'WRONG_AMOUNT',
    'INSUFFICIENT_BALANCE',
    'RECORD_NOT_FOUND',
    'CANNOT_TRANSFER_TO_SELF',
    'PAYMENT_PASSWORD_NOT_SET',
    'WRONG_PAYMENT_PASSWORD',
    'PAYMENT_PASSWORD_LOCKED',
    'IDENTITY_VERIFICATION_REQUIRED',
    'WITHDRAWAL_IMPOSSIBLE',
    'DAILY_WITHDRAWAL_COUNT_LIMIT',
    'TRANSACTION_TIME_LIMITED',
    'WITHDRAWAL_CLOSED',
    'WITHDRAWAL_FORBIDDEN',
    'WITHDRAWAL_PERIOD',
    'PRICE_UNAVAILABLE',
    'TOO_MANY_REQUESTS',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
});

export const listUserTransfersContract = defineContract({
  id: 'assets.userTransfers',
  method: 'GET',
  path: '/home/assets/user-transfers',
  summary: 'The transfers the user sent to and received from other users, newest first.',
  caller: 'user',
  query: z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ items: z.array(userTransferViewSchema), total: z.number().int() }),
  errors: [],
});
