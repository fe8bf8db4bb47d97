import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, pageQuerySchema, plainText, secretText, typedText } from '../common.ts';
import { assetCodeSchema, decimalAmountSchema } from '../assets/assets.contracts.ts';
import { twoPersonRuleSchema } from '../admin/two-person.contracts.ts';
import { validationMessages } from '../validation.ts';

/**
 * The wallet (issue 5): deposit channels and addresses, deposit requests, the withdrawal address
 * book, withdrawals and bank cards. Every rule a withdrawal meets is published in
 * `GET /home/wallet/overview`, and a refusal names the rule that applied.
 */

/** A channel is one asset on one network (spec: "currency and chain"). */
export const walletChannelIds = ['USDT-TRC20', 'USDT-ERC20', 'BTC', 'ETH'] as const;
export const walletChannelSchema = z.enum(walletChannelIds);
export type WalletChannelId = (typeof walletChannelIds)[number];
export const walletNetworkSchema = z.enum(['bitcoin', 'ethereum', 'tron']);

export const channelViewSchema = z.object({
  id: walletChannelSchema,
  asset: assetCodeSchema,
  network: walletNetworkSchema,
  depositEnabled: z.boolean().describe('false when the operator configured no deposit address source for the network'),
  /** `chain`: checked on chain and credited after `confirmations` with no staff step; `staff`: finance staff review it. */
  depositReview: z.enum(['staff', 'chain']),
  confirmations: z.number().int().describe('confirmations an on-chain check waits for (0 for staff review)'),
  withdrawEnabled: z.boolean(),
  /** The published fixed network fee of a withdrawal on this channel, in the asset. */
  withdrawFee: z.string(),
  withdrawMin: z.string(),
  /** The largest amount one deposit report may name (a sanity cap); above it "amount out of range" with `data.max`. */
  depositMax: z.string(),
});

/** The published withdrawal rules (decisions page 1.3): the same values the server enforces. */
export const withdrawalRulesSchema = z.object({
  withdrawalsOpen: z.boolean(),
  /** Daily time window in UTC ("HH:MM"), or null when withdrawals are accepted at any time. */
  window: z.object({ from: z.string(), to: z.string(), timeZone: z.literal('UTC') }).nullable(),
  dailyCountLimit: z.number().int(),
  /** Daily limits per verification tier, in USDT equivalent, per UTC day. */
  tierDailyLimitsUsdt: z.object({ tier0: z.string(), tier1: z.string(), tier2: z.string() }),
  addressHoldHours: z.number().int(),
  passwordChangeLockHours: z.number().int(),
  /** Withdrawals and deposits worth more than this need the approval of two different staff members. */
  twoPersonReviewAboveUsdt: z.string(),
  /** The whole two-person rule (ADR 0022): also cumulative, per staff member and per user over a window. */
  twoPersonReview: twoPersonRuleSchema,
  /** Transfers to another user (issue 19): the fee in per cent the sender pays on top, rounded up; they count in the daily count and limit above. */
  userTransferFeePercent: z.string(),
});

export const walletStandingSchema = z.object({
  tier: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  dailyLimitUsdt: z.string(),
  usedTodayUsdt: z.string(),
  remainingTodayUsdt: z.string(),
  withdrawalsToday: z.number().int(),
  paymentPasswordSet: z.boolean(),
  withdrawalForbidden: z.boolean(),
  withdrawalsLockedUntil: z.string().nullable().describe('the 24 h lock after a login-password change'),
});

export const walletOverviewContract = defineContract({
  id: 'wallet.overview',
  method: 'GET',
  path: '/home/wallet/overview',
  summary: 'Deposit and withdrawal channels, the published withdrawal rules, and where the user stands against them today.',
  caller: 'user',
  data: z.object({ channels: z.array(channelViewSchema), rules: withdrawalRulesSchema, standing: walletStandingSchema }),
  errors: [],
});

export const depositAddressContract = defineContract({
  id: 'wallet.depositAddress',
  method: 'GET',
  path: '/home/wallet/deposit-address',
  summary: "The user's deposit address for a channel's network (assigned on first ask, then always the same).",
  caller: 'user',
  // Optional in the schema so a missing channel gets the catalogue's "select a recharge channel".
  query: z.object({ channel: walletChannelSchema.optional() }),
  data: z.object({
    channel: walletChannelSchema,
    network: walletNetworkSchema,
    address: z.string(),
    /** True on a demo deployment whose address key nobody holds: funds sent there are lost. */
    demo: z.boolean(),
  }),
  errors: ['SELECT_RECHARGE_CHANNEL', 'DEPOSIT_ADDRESS_UNAVAILABLE'],
});

export const depositStatuses = ['pending', 'approved', 'rejected'] as const;

export const depositViewSchema = z.object({
  id: idSchema,
  channel: walletChannelSchema,
  asset: assetCodeSchema,
  network: walletNetworkSchema,
  address: z.string(),
  amount: z.string(),
  txHash: z.string(),
  proofUploadId: z.string().nullable(),
  status: z.enum(depositStatuses),
  review: z.enum(['staff', 'chain']),
  /** On-chain check progress (null for staff review). */
  confirmations: z.object({ seen: z.number().int(), required: z.number().int() }).nullable(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The journal entry that credited it, once approved. */
  entryId: z.string().nullable(),
});

export const createDepositContract = defineContract({
  id: 'wallet.deposit',
  method: 'POST',
  path: '/home/wallet/deposits',
  summary:
    'Report a deposit: channel, amount, the transaction hash and an optional screenshot. Finance staff review it, or it is checked on chain where a chain gateway is configured. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    channel: walletChannelSchema.optional(),
    amount: decimalAmountSchema,
    txHash: typedText(100).min(1, validationMessages.required),
    proofUploadId: idSchema.optional(),
  }),
  data: depositViewSchema,
  errors: ['SELECT_RECHARGE_CHANNEL', 'WRONG_AMOUNT', 'TX_HASH_ALREADY_USED', 'DEPOSIT_ADDRESS_UNAVAILABLE', 'RECORD_NOT_FOUND', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const listDepositsContract = defineContract({
  id: 'wallet.deposits',
  method: 'GET',
  path: '/home/wallet/deposits',
  summary: "The user's deposit requests, newest first.",
  caller: 'user',
  query: pageQuerySchema.extend({ status: z.enum(depositStatuses).optional() }),
  data: z.object({ items: z.array(depositViewSchema), total: z.number().int() }),
  errors: [],
});

export const getDepositContract = defineContract({
  id: 'wallet.depositDetail',
  method: 'GET',
  path: '/home/wallet/deposits/:depositId',
  summary: 'One of your deposit requests.',
  caller: 'user',
  params: z.object({ depositId: idSchema }),
  data: depositViewSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const withdrawalAddressSchema = z.object({
  id: idSchema,
  network: walletNetworkSchema,
  address: z.string(),
  label: z.string(),
  createdAt: z.string(),
  /** A new address can be used for withdrawals from this time on (the published hold). */
  usableFrom: z.string(),
  /**
   * The user proved they hold this address by signing a wallet-connect message (ADR 0047): it was
   * their bound wallet when added. The hold applies all the same.
   */
  ownershipProven: z.boolean(),
});

export const listWithdrawalAddressesContract = defineContract({
  id: 'wallet.addresses',
  method: 'GET',
  path: '/home/wallet/addresses',
  summary: "The user's withdrawal address book.",
  caller: 'user',
  data: z.object({ items: z.array(withdrawalAddressSchema), holdHours: z.number().int() }),
  errors: [],
});

export const addWithdrawalAddressContract = defineContract({
  id: 'wallet.addAddress',
  method: 'POST',
  path: '/home/wallet/addresses',
  summary: 'Add a withdrawal address (checked per network: Bitcoin base58/bech32, Ethereum EIP-55, TRON base58check). Usable after the published hold.',
  caller: 'user',
  body: z.object({
    network: walletNetworkSchema,
    address: typedText(120).min(1, validationMessages.required),
    label: plainText(40).default(''),
  }),
  data: withdrawalAddressSchema,
  errors: ['WRONG_ADDRESS', 'ALREADY_ADDED', 'TOO_MANY_ITEMS'],
});

export const removeWithdrawalAddressContract = defineContract({
  id: 'wallet.removeAddress',
  method: 'DELETE',
  path: '/home/wallet/addresses/:addressId',
  summary: 'Remove an address from the book (withdrawals already made to it keep it in their record).',
  caller: 'user',
  params: z.object({ addressId: idSchema }),
  data: z.null(),
  errors: ['RECORD_NOT_FOUND'],
});

export const withdrawalStatuses = ['pending', 'approved', 'completed', 'rejected', 'failed', 'cancelled'] as const;

export const withdrawalViewSchema = z.object({
  id: idSchema,
  channel: walletChannelSchema,
  asset: assetCodeSchema,
  network: walletNetworkSchema,
  address: z.string(),
  addressLabel: z.string(),
  amount: z.string().describe('what arrives at the address'),
  fee: z.string().describe('the published network fee of the channel'),
  totalFrozen: z.string().describe('amount + fee, held from the coin account until the withdrawal ends'),
  usdtValue: z.string(),
  status: z.enum(withdrawalStatuses),
  /** 1-based place in the queue of open withdrawals (oldest first), while pending or approved. */
  queuePosition: z.number().int().nullable(),
  approvalsRequired: z.number().int(),
  approvals: z.number().int(),
  txHash: z.string().nullable(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Journal entries: the hold, and the one that ended it (paid out, or returned). */
  holdEntryId: z.string(),
  closingEntryId: z.string().nullable(),
});

export const createWithdrawalContract = defineContract({
  id: 'wallet.withdraw',
  method: 'POST',
  path: '/home/wallet/withdrawals',
  summary:
    'Request a withdrawal to a bound address with the payment password. The amount plus the published fee is held until finance staff approve and broadcast it, or reject it. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    channel: walletChannelSchema,
    addressId: idSchema,
    amount: decimalAmountSchema,
    paymentPassword: secretText(64),
  }),
  data: withdrawalViewSchema,
  errors: [
    'WRONG_AMOUNT',
    'AMOUNT_OUT_OF_RANGE',
    'INSUFFICIENT_BALANCE',
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
    'WRONG_ADDRESS',
    'RECORD_NOT_FOUND',
    'PRICE_UNAVAILABLE',
    'TOO_MANY_REQUESTS',
    'IDEMPOTENCY_KEY_REQUIRED',
  ],
});

export const listWithdrawalsContract = defineContract({
  id: 'wallet.withdrawals',
  method: 'GET',
  path: '/home/wallet/withdrawals',
  summary: "The user's withdrawals, newest first; `open` lists only pending and approved ones, with their queue positions.",
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['all', 'open']).default('all') }),
  data: z.object({ items: z.array(withdrawalViewSchema), total: z.number().int() }),
  errors: [],
});

export const getWithdrawalContract = defineContract({
  id: 'wallet.withdrawalDetail',
  method: 'GET',
  path: '/home/wallet/withdrawals/:withdrawalId',
  summary: 'One of your withdrawals, with its place in the queue.',
  caller: 'user',
  params: z.object({ withdrawalId: idSchema }),
  data: withdrawalViewSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const cancelWithdrawalContract = defineContract({
  id: 'wallet.cancelWithdrawal',
  method: 'POST',
  path: '/home/wallet/withdrawals/:withdrawalId/cancel',
  summary: 'Cancel your own withdrawal while it waits for review; the held amount and fee return at once. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ withdrawalId: idSchema }),
  data: withdrawalViewSchema,
  errors: ['RECORD_NOT_FOUND', 'NOT_PENDING_REVIEW'],
});

export const bankCardSchema = z.object({
  id: idSchema,
  realName: z.string(),
  phone: z.string(),
  bankName: z.string(),
  bankAccount: z.string(),
  ifsc: z.string(),
  email: z.string(),
  createdAt: z.string(),
});

export const listBankCardsContract = defineContract({
  id: 'wallet.bankCards',
  method: 'GET',
  path: '/home/wallet/bank-cards',
  summary: "The user's bank cards.",
  caller: 'user',
  data: z.object({ items: z.array(bankCardSchema) }),
  errors: [],
});

export const addBankCardContract = defineContract({
  id: 'wallet.addBankCard',
  method: 'POST',
  path: '/home/wallet/bank-cards',
  summary: 'Add a bank card: real name, phone, bank name, account number, IFSC code and e-mail, each checked.',
  caller: 'user',
  body: z.object({
    realName: plainText(100).pipe(z.string().min(2, validationMessages.required)),
    phone: typedText(32).min(1, validationMessages.required),
    bankName: plainText(100).pipe(z.string().min(2, validationMessages.required)),
    bankAccount: z
      .string()
      .trim()
      .regex(/^[0-9]{9,18}$/, validationMessages.bankAccountFormat),
    ifsc: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, validationMessages.ifscCode),
    email: typedText(254).min(1, validationMessages.required),
  }),
  data: bankCardSchema,
  errors: ['WRONG_PHONE_NUMBER', 'ALREADY_ADDED', 'TOO_MANY_ITEMS'],
});

export const removeBankCardContract = defineContract({
  id: 'wallet.removeBankCard',
  method: 'DELETE',
  path: '/home/wallet/bank-cards/:cardId',
  summary: 'Remove a bank card.',
  caller: 'user',
  params: z.object({ cardId: idSchema }),
  data: z.null(),
  errors: ['RECORD_NOT_FOUND'],
});
