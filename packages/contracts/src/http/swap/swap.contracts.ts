import { z } from 'zod';
import { accountBalanceSchema, assetCodeSchema, decimalAmountSchema, userAccountKindSchema } from '../assets/assets.contracts.ts';
import { idSchema } from '../common.ts';
import { defineContract } from '../contract.ts';
import { recordedTickSchema } from '../market/market.contracts.ts';
import { validationMessages } from '../validation.ts';

/**
 * A swap (flash exchange) quote. The rate holds until `expiresAtMs` (10 s); it is the mid price of
 * the recorded ticks shown, less the published spread; the fee is taken from what is received.
 */
export const swapQuoteSchema = z.object({
  quoteId: z.string(),
  account: userAccountKindSchema.describe('the source wallet: the account type both sides of the swap use'),
  fromAsset: assetCodeSchema,
  toAsset: assetCodeSchema,
  amount: z.string().describe('what the user gives, decimal string in fromAsset'),
  midRate: z.string().describe('toAsset per one fromAsset at the mid price of the ticks'),
  rate: z.string().describe('toAsset per one fromAsset offered: the mid rate less the spread'),
  spreadBps: z.number().int().describe('spread against the mid price, basis points'),
  grossReceive: z.string().describe('amount × rate, rounded down, in toAsset'),
  fee: z.string().describe('the fee charged, in toAsset: 0.1 % of the gross receipt rounded up, less the VIP discount rounded down'),
  feeBps: z.number().int(),
  feeBeforeDiscount: z.string().describe('0.1 % of the gross receipt, rounded up, before the VIP discount (ADR 0046)'),
  vipLevel: z.number().int().describe('the user’s VIP level when quoted'),
  vipDiscountBps: z.number().int().describe('the level’s discount, basis points of the fee'),
  vipDiscount: z.string().describe('feeBeforeDiscount − fee'),
  estimatedReceive: z.string().describe('what the user receives: gross receipt less the fee'),
  createdAtMs: z.number().int(),
  expiresAtMs: z.number().int(),
  ticks: z.array(recordedTickSchema).describe('the recorded ticks the mid rate was computed from'),
});

export const swapDirectionBodySchema = z
  .object({
    account: userAccountKindSchema.default('coin'),
    fromAsset: assetCodeSchema,
    toAsset: assetCodeSchema,
    amount: decimalAmountSchema,
  })
  .refine((body) => body.fromAsset !== body.toAsset, { path: ['toAsset'], message: validationMessages.differentAssets });

export const createSwapQuoteContract = defineContract({
  id: 'assets.swap.quote',
  method: 'POST',
  path: '/home/assets/swap/quote',
  summary: 'Price a swap: rate, spread against the mid price, fee and estimated receipt, held for 10 s. Moves no money.',
  caller: 'user',
  body: swapDirectionBodySchema,
  data: swapQuoteSchema,
  errors: ['WRONG_AMOUNT', 'PRICE_UNAVAILABLE'],
});

export const executeSwapContract = defineContract({
  id: 'assets.swap.execute',
  method: 'POST',
  path: '/home/assets/swap',
  summary:
    'Execute a quote at its rate. An expired quote is refused with a fresh quote in `data.freshQuote`. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({ quoteId: idSchema }),
  data: z.object({
    entryId: z.string(),
    quote: swapQuoteSchema,
    received: z.string(),
    from: accountBalanceSchema,
    to: accountBalanceSchema,
  }),
  errors: [
    'QUOTE_EXPIRED',
    'RECORD_NOT_FOUND',
    'INSUFFICIENT_BALANCE',
    'PRICE_UNAVAILABLE',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
});

export type SwapQuote = z.infer<typeof swapQuoteSchema>;
