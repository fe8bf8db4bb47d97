import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, pageQuerySchema } from '../common.ts';
import { defineContract } from '../contract.ts';
import { marketSymbolSchema, recordedTickSchema } from '../market/market.contracts.ts';

/**
 * Short-cycle up/down contracts (issue 7, ADR 0017). Stakes and payouts are USDT in the user's
 * options account. An order opens at the last recorded tick and closes at the first tick recorded
 * at or after its expiry; both ticks are part of every order the user reads.
 */

export const optionDirections = ['up', 'down'] as const;
export const optionDirectionSchema = z.enum(optionDirections);
export const optionOrderStatuses = ['open', 'won', 'lost', 'flat', 'void'] as const;
export const optionOrderStatusSchema = z.enum(optionOrderStatuses);

/** The version of the risk disclosure text in the catalogues (`web.options.disclosure.*`); a new text gets a new number. */
export const OPTIONS_RISK_DISCLOSURE_VERSION = 1;

export const optionProductSchema = z.object({
  cycleSeconds: z.number().int(),
  yieldPercent: z.string().describe('what a win pays on top of the stake, percent of the stake, e.g. "80.00"'),
  yieldBps: z.number().int(),
  minStake: z.string().describe('USDT, decimal string'),
  maxStake: z.string().describe('USDT, decimal string'),
  enabled: z.boolean().describe('false: the operator has switched trading off for this cycle'),
});

export const optionsOverviewSchema = z.object({
  asset: z.literal('USDT'),
  products: z.array(optionProductSchema),
  symbols: z.array(marketSymbolSchema),
  /** The settlement rule, as numbers the screen states. */
  rule: z.object({
    closeTickMaxDelayMs: z.number().int().describe('a closing tick observed later than this after expiry voids the order (stake returned)'),
    openTickMaxAgeMs: z.number().int().describe('an order is refused when the last recorded tick is older than this'),
  }),
  disclosure: z.object({
    version: z.number().int(),
    acceptedAt: z.string().nullable().describe('ISO time the user accepted this version; null: not yet'),
  }),
  identityVerified: z.boolean(),
  balance: z.object({ available: z.string(), frozen: z.string() }).describe('the options account in USDT'),
});

export const optionOrderSchema = z.object({
  id: idSchema,
  orderNo: z.string().describe('the order number a person quotes'),
  symbol: marketSymbolSchema,
  direction: optionDirectionSchema,
  cycleSeconds: z.number().int(),
  yieldBps: z.number().int(),
  yieldPercent: z.string(),
  stake: z.string(),
  expectedProfit: z.string().describe('what a win pays on top of the stake'),
  status: optionOrderStatusSchema.describe('open = settling; then won (profit), lost (loss), flat, or void (no price at expiry)'),
  /** Signed: the payout for a win, minus the stake for a loss, 0 for flat or void; null while open. */
  actualProfit: z.string().nullable(),
  placedAtMs: z.number().int(),
  expiresAtMs: z.number().int(),
  settledAtMs: z.number().int().nullable(),
  openTick: recordedTickSchema.describe('the last recorded tick when the order was placed'),
  closeTick: recordedTickSchema.nullable().describe('the first tick recorded at or after expiry; null while open or when none was recorded'),
  placeEntryId: idSchema.describe('the journal entry that froze the stake'),
  settleEntryId: idSchema.nullable().describe('the journal entry that settled it'),
});

export const getOptionsOverviewContract = defineContract({
  id: 'options.overview',
  method: 'GET',
  path: '/home/options/overview',
  summary: 'Products (cycle, yield, stake range, open or switched off), tradable markets, the settlement rule, the disclosure state and the options balance.',
  caller: 'user',
  data: optionsOverviewSchema,
  errors: [],
});

export const acceptOptionsDisclosureContract = defineContract({
  id: 'options.disclosure.accept',
  method: 'POST',
  path: '/home/options/disclosure',
  summary: 'Records that the user read and accepted the risk disclosure of the stated version (once; again it answers the first acceptance).',
  caller: 'user',
  body: z.object({ version: z.number().int() }),
  data: z.object({ version: z.number().int(), acceptedAt: z.string() }),
  errors: ['PARAMETER_ERROR'],
});

export const placeOptionOrderContract = defineContract({
  id: 'options.orders.place',
  method: 'POST',
  path: '/home/options/orders',
  summary:
    'Open an up/down contract: the stake is frozen in the options account and the order opens at the last recorded tick. Needs identity verification, the accepted disclosure and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    symbol: marketSymbolSchema,
    direction: optionDirectionSchema,
    cycleSeconds: z.number().int().min(1).max(86_400),
    amount: decimalAmountSchema,
  }),
  data: optionOrderSchema,
  errors: [
    'IDENTITY_VERIFICATION_REQUIRED',
    'RISK_DISCLOSURE_REQUIRED',
    'PRODUCT_NOT_FOUND',
    'PRODUCT_CLOSED',
    'WRONG_AMOUNT',
    'AMOUNT_OUT_OF_RANGE',
    'INSUFFICIENT_BALANCE',
    'PRICE_UNAVAILABLE',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
});

export const listOptionOrdersContract = defineContract({
  id: 'options.orders.list',
  method: 'GET',
  path: '/home/options/orders',
  summary: 'The user’s contracts: `open` (settling, soonest expiry first) or `history` (settled, newest first).',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['open', 'history']).default('open') }),
  data: z.object({ items: z.array(optionOrderSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  errors: [],
});

export const getOptionOrderContract = defineContract({
  id: 'options.orders.get',
  method: 'GET',
  path: '/home/options/orders/:orderId',
  summary: 'One of the user’s contracts with both ticks and its journal entries.',
  caller: 'user',
  params: z.object({ orderId: idSchema }),
  data: optionOrderSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const optionsHouseSchema = z.object({
  asset: z.literal('USDT'),
  /** The options house account: stakes lost by users in, payouts to winners out. Its balance is the house's running result. */
  houseBalance: z.string().describe('signed; negative when the house has paid out more than it took'),
  settled: z.object({
    count: z.number().int(),
    won: z.number().int(),
    lost: z.number().int(),
    flat: z.number().int(),
    void: z.number().int(),
    staked: z.string().describe('total stakes of settled orders'),
    paidToWinners: z.string().describe('payouts on top of returned stakes'),
    takenFromLosers: z.string(),
    houseResult: z.string().describe('takenFromLosers − paidToWinners, signed'),
  }),
  open: z.object({
    count: z.number().int(),
    staked: z.string(),
    maxPayout: z.string().describe('what the house pays if every open order wins'),
  }),
  byDay: z.array(z.object({ day: z.string(), count: z.number().int(), houseResult: z.string() })).describe('last 30 UTC days with settlements, newest first'),
});

export const getOptionsHouseContract = defineContract({
  id: 'admin.options.house',
  method: 'GET',
  path: '/home/admin/options/house',
  summary: 'The house’s running profit and loss on contracts, from the ledger and the settled orders. Read only: no staff call sets a price, a tick or a result.',
  caller: 'staff',
  staffRoles: ['admin', 'finance'],
  data: optionsHouseSchema,
  errors: [],
});

export const listStaffOptionOrdersContract = defineContract({
  id: 'admin.options.orders',
  method: 'GET',
  path: '/home/admin/options/orders',
  summary: 'Contracts of all users, newest first, with both ticks (read only).',
  caller: 'staff',
  staffRoles: ['admin', 'finance', 'support'],
  query: pageQuerySchema.extend({ status: optionOrderStatusSchema.optional(), userId: idSchema.optional() }),
  data: z.object({
    items: z.array(optionOrderSchema.extend({ userId: idSchema })),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
  errors: [],
});

export type OptionOrder = z.infer<typeof optionOrderSchema>;
export type OptionsOverview = z.infer<typeof optionsOverviewSchema>;
export type OptionsHouse = z.infer<typeof optionsHouseSchema>;
