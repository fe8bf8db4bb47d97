import { z } from 'zod';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { idSchema, pageQuerySchema } from '../common.ts';
import { defineContract } from '../contract.ts';
import { marketSymbolSchema, recordedTickSchema } from '../market/market.contracts.ts';

/**
 * Leveraged (1–10x, margin on the spot markets) and futures (1–100x, perpetual-style) positions:
 * isolated margin in USDT from the user's leveraged account, Keel the counterparty (issue 16,
 * ADR 0034). Every price that opens, closes, triggers or liquidates a position is a recorded tick
 * (a liquidation's the mark price over recorded ticks), part of the position's events.
 */

export const leverageProducts = ['leveraged', 'futures'] as const;
export const leverageProductSchema = z.enum(leverageProducts);
export const positionSides = ['long', 'short'] as const;
export const positionSideSchema = z.enum(positionSides);
export const positionStatuses = ['open', 'closed', 'liquidated'] as const;
export const positionCloseReasons = ['user', 'take_profit', 'stop_loss', 'liquidation'] as const;
export const positionEventKinds = [
  'open',
  'close',
  'take_profit',
  'stop_loss',
  'liquidation',
  'margin_add',
  'margin_remove',
  'triggers',
  'funding',
  'interest',
] as const;

/** The version of the risk disclosure text in the catalogues (`web.leverage.disclosure.*`); a new text gets a new number. */
export const LEVERAGE_RISK_DISCLOSURE_VERSION = 1;

const priceText = z.string().describe('decimal string, USDT per one base unit');
const usdtText = z.string().describe('USDT, decimal string');

export const notionalBracketSchema = z.object({
  upTo: usdtText.describe('the bracket holds notionals above the previous bracket’s bound up to this'),
  maxLeverage: z.number().int(),
  maintenanceRatePercent: z.string(),
  maintenanceAmount: usdtText,
});

export const markPriceSchema = z.object({
  symbol: marketSymbolSchema,
  price: priceText,
  tickIds: z.array(z.string()).describe('the recorded ticks the median was taken over'),
  atMs: z.number().int().describe('observed time of the newest of them'),
});

export const leverageOverviewSchema = z.object({
  asset: z.literal('USDT'),
  products: z.array(z.object({ product: leverageProductSchema, maxLeverage: z.number().int(), brackets: z.array(notionalBracketSchema) })),
  symbols: z.array(marketSymbolSchema),
  /** The published rules, as numbers the screen states. */
  rules: z.object({
    tradingFeePercent: z.string(),
    openSpreadPercent: z.string(),
    liquidationFeePercent: z.string(),
    markPrice: z.object({ ticks: z.number().int(), windowMs: z.number().int(), minTicks: z.number().int() }),
    fundingIntervalHours: z.number().int(),
    fundingRates: z.array(z.object({ symbol: marketSymbolSchema, ratePpm: z.number().int() })),
    interestRatePpmPerHour: z.number().int(),
    exposureLimit: usdtText.describe('the house’s limit of open positions per market and side'),
    openTickMaxAgeMs: z.number().int(),
  }),
  marks: z.array(markPriceSchema),
  disclosure: z.object({ version: z.number().int(), acceptedAt: z.string().nullable() }),
  identityVerified: z.boolean(),
  balance: z.object({ available: usdtText, frozen: usdtText }).describe('the leveraged account in USDT'),
});

export const positionEventSchema = z.object({
  id: idSchema,
  kind: z.enum(positionEventKinds),
  atMs: z.number().int(),
  quantity: z.string().nullable(),
  price: priceText.nullable().describe('the fill price: the tick’s price, or for a liquidation the mark price'),
  tick: recordedTickSchema.nullable().describe('the recorded tick that filled or fired it'),
  markTickIds: z.array(z.string()).nullable().describe('a liquidation: the ticks of the mark price'),
  pnl: usdtText.nullable(),
  fee: usdtText.nullable(),
  insurance: usdtText.nullable().describe('to the insurance fund (a liquidation fee), or negative: what it paid for a loss beyond the margin'),
  payout: usdtText.nullable().describe('what came back to the available balance'),
  marginChange: usdtText.nullable(),
  takeProfitPrice: priceText.nullable(),
  stopLossPrice: priceText.nullable(),
  periodAtMs: z.number().int().nullable().describe('funding or interest: the period time charged'),
  entryId: idSchema.nullable().describe('the journal entry of the event'),
});

export const positionSchema = z.object({
  id: idSchema,
  positionNo: z.string(),
  product: leverageProductSchema,
  symbol: marketSymbolSchema,
  side: positionSideSchema,
  leverage: z.number().int(),
  status: z.enum(positionStatuses),
  closeReason: z.enum(positionCloseReasons).nullable(),
  quantity: z.string().describe('base units still open (8 decimals); 0 once closed'),
  entryPrice: priceText,
  entryNotional: usdtText,
  initialMargin: usdtText,
  margin: usdtText.describe('the isolated margin held for the position now'),
  liquidationPrice: priceText.nullable().describe('null: no positive price liquidates it'),
  takeProfitPrice: priceText.nullable(),
  stopLossPrice: priceText.nullable(),
  realizedPnl: usdtText,
  fees: usdtText,
  funding: usdtText.describe('futures funding received (negative: paid) or leveraged interest paid (negative)'),
  openedAtMs: z.number().int(),
  closedAtMs: z.number().int().nullable(),
  openTick: recordedTickSchema,
  events: z.array(positionEventSchema).describe('oldest first; in lists only the last few'),
});

const positionPageSchema = z.object({
  items: z.array(positionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  marks: z.array(markPriceSchema).describe('the mark price of each market of the listed positions'),
});

const orderErrors = [
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_IN_PROGRESS',
  'RECORD_NOT_FOUND',
  'ORDER_STATE_CHANGED',
  'PRICE_UNAVAILABLE',
] as const;

export const getLeverageOverviewContract = defineContract({
  id: 'leverage.overview',
  method: 'GET',
  path: '/home/leverage/overview',
  summary: 'Products with their notional brackets, markets with their mark prices, the published rules, the disclosure state and the leveraged balance.',
  caller: 'user',
  data: leverageOverviewSchema,
  errors: [],
});

export const acceptLeverageDisclosureContract = defineContract({
  id: 'leverage.disclosure.accept',
  method: 'POST',
  path: '/home/leverage/disclosure',
  summary: 'Records that the user read and accepted the leveraged and futures risk disclosure of the stated version.',
  caller: 'user',
  body: z.object({ version: z.number().int() }),
  data: z.object({ version: z.number().int(), acceptedAt: z.string() }),
  errors: ['PARAMETER_ERROR'],
});

export const openPositionContract = defineContract({
  id: 'leverage.positions.open',
  method: 'POST',
  path: '/home/leverage/positions',
  summary:
    'Open a position with a market order at the last recorded price plus the published spread: margin and fee from the leveraged account, the margin held. Needs identity verification, the accepted disclosure and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    product: leverageProductSchema,
    symbol: marketSymbolSchema,
    side: positionSideSchema,
    margin: decimalAmountSchema,
    leverage: z.number().int().min(1).max(1_000),
    takeProfitPrice: decimalAmountSchema.nullable().default(null),
    stopLossPrice: decimalAmountSchema.nullable().default(null),
  }),
  data: positionSchema,
  errors: [
    'IDENTITY_VERIFICATION_REQUIRED',
    'RISK_DISCLOSURE_REQUIRED',
    'PRODUCT_NOT_FOUND',
    'WRONG_AMOUNT',
    'LEVERAGE_NOT_ALLOWED',
    'AMOUNT_OUT_OF_RANGE',
    'TRIGGER_PRICE_INVALID',
    'EXPOSURE_LIMIT_REACHED',
    'INSUFFICIENT_BALANCE',
    ...orderErrors,
  ],
});

export const closePositionContract = defineContract({
  id: 'leverage.positions.close',
  method: 'POST',
  path: '/home/leverage/positions/:positionId/close',
  summary: 'Close a position, or part of it (`quantity`), at the last recorded price; the fee is 0.1 % of the closing notional. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ positionId: idSchema }),
  body: z.object({ quantity: decimalAmountSchema.nullable().default(null).describe('base units to close; null: all') }),
  data: positionSchema,
  errors: ['WRONG_AMOUNT', 'AMOUNT_OUT_OF_RANGE', ...orderErrors],
});

export const changePositionMarginContract = defineContract({
  id: 'leverage.positions.margin',
  method: 'POST',
  path: '/home/leverage/positions/:positionId/margin',
  summary:
    'Add margin from the available balance, or remove margin down to the initial margin (and no more than equity above it at the mark price); the liquidation price moves. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ positionId: idSchema }),
  body: z.object({ direction: z.enum(['add', 'remove']), amount: decimalAmountSchema }),
  data: positionSchema,
  errors: ['WRONG_AMOUNT', 'AMOUNT_OUT_OF_RANGE', 'INSUFFICIENT_BALANCE', ...orderErrors],
});

export const setPositionTriggersContract = defineContract({
  id: 'leverage.positions.triggers',
  method: 'POST',
  path: '/home/leverage/positions/:positionId/triggers',
  summary: 'Set or clear the take-profit and stop-loss prices; each fires on the first recorded tick that crosses it and fills at that tick’s price.',
  caller: 'user',
  params: z.object({ positionId: idSchema }),
  body: z.object({ takeProfitPrice: decimalAmountSchema.nullable(), stopLossPrice: decimalAmountSchema.nullable() }),
  data: positionSchema,
  errors: ['WRONG_AMOUNT', 'TRIGGER_PRICE_INVALID', 'RECORD_NOT_FOUND', 'ORDER_STATE_CHANGED', 'PRICE_UNAVAILABLE'],
});

export const listPositionsContract = defineContract({
  id: 'leverage.positions.list',
  method: 'GET',
  path: '/home/leverage/positions',
  summary: 'The user’s positions: `open` (newest first, with the mark prices) or `history` (closed and liquidated, newest first).',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['open', 'history']).default('open'), product: leverageProductSchema.optional() }),
  data: positionPageSchema,
  errors: [],
});

export const getPositionContract = defineContract({
  id: 'leverage.positions.get',
  method: 'GET',
  path: '/home/leverage/positions/:positionId',
  summary: 'One of the user’s positions with every event, its ticks and journal entries.',
  caller: 'user',
  params: z.object({ positionId: idSchema }),
  data: positionSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const limitOrderStatuses = ['pending', 'filled', 'cancelled'] as const;

export const limitOrderSchema = z.object({
  id: idSchema,
  orderNo: z.string(),
  product: leverageProductSchema,
  symbol: marketSymbolSchema,
  side: positionSideSchema,
  leverage: z.number().int(),
  margin: usdtText,
  fee: usdtText.describe('0.1 % of margin × leverage, frozen with the margin and charged when the order fills'),
  notional: usdtText,
  limitPrice: priceText,
  takeProfitPrice: priceText.nullable(),
  stopLossPrice: priceText.nullable(),
  status: z.enum(limitOrderStatuses).describe('pending until a recorded tick reaches the limit; then filled (a position opened) or cancelled by the user'),
  placedAtMs: z.number().int(),
  closedAtMs: z.number().int().nullable(),
  positionId: idSchema.nullable(),
  fillTick: recordedTickSchema.nullable().describe('the recorded tick that reached the limit'),
  placeEntryId: idSchema,
  closeEntryId: idSchema.nullable(),
});

export const placeLimitOrderContract = defineContract({
  id: 'leverage.orders.place',
  method: 'POST',
  path: '/home/leverage/orders',
  summary:
    'Place a limit order that opens a position when a recorded tick reaches `limitPrice` (a long at or below it, a short at or above), filled at that tick’s price with the published spread and never worse than the limit. Margin and fee are frozen now and the notional counts against the house’s exposure at once. Needs identity verification, the accepted disclosure and an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({
    product: leverageProductSchema,
    symbol: marketSymbolSchema,
    side: positionSideSchema,
    margin: decimalAmountSchema,
    leverage: z.number().int().min(1).max(1_000),
    limitPrice: decimalAmountSchema,
    takeProfitPrice: decimalAmountSchema.nullable().default(null),
    stopLossPrice: decimalAmountSchema.nullable().default(null),
  }),
  data: limitOrderSchema,
  errors: [
    'IDENTITY_VERIFICATION_REQUIRED',
    'RISK_DISCLOSURE_REQUIRED',
    'PRODUCT_NOT_FOUND',
    'WRONG_AMOUNT',
    'LEVERAGE_NOT_ALLOWED',
    'AMOUNT_OUT_OF_RANGE',
    'TRIGGER_PRICE_INVALID',
    'EXPOSURE_LIMIT_REACHED',
    'INSUFFICIENT_BALANCE',
    ...orderErrors,
  ],
});

export const cancelLimitOrderContract = defineContract({
  id: 'leverage.orders.cancel',
  method: 'POST',
  path: '/home/leverage/orders/:orderId/cancel',
  summary: 'Cancel a pending limit order: margin and fee come back to the available balance. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ orderId: idSchema }),
  data: limitOrderSchema,
  errors: orderErrors,
});

export const listLimitOrdersContract = defineContract({
  id: 'leverage.orders.list',
  method: 'GET',
  path: '/home/leverage/orders',
  summary: 'The user’s limit orders: `open` (pending, newest first) or `history` (filled and cancelled, newest first).',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['open', 'history']).default('open'), product: leverageProductSchema.optional() }),
  data: z.object({ items: z.array(limitOrderSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  errors: [],
});

export type LeverageOverview = z.infer<typeof leverageOverviewSchema>;
export type LeveragePosition = z.infer<typeof positionSchema>;
export type LeveragePositionEvent = z.infer<typeof positionEventSchema>;
export type LeverageMarkPrice = z.infer<typeof markPriceSchema>;
export type LeverageLimitOrder = z.infer<typeof limitOrderSchema>;
