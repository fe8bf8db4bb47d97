import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { validationMessages } from '../validation.ts';

/** A market symbol in ccxt style, base/quote: `BTC/USDT`. */
export const marketSymbolSchema = z
  .string()
  .trim()
  .regex(/^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/, validationMessages.marketSymbol)
  .describe('base/quote, e.g. BTC/USDT');

export const candleIntervals = ['1m', '5m', '15m', '1h', '1d'] as const;
export const candleIntervalSchema = z.enum(candleIntervals);

/**
 * One recorded price observation. Every price Keel uses (swap quotes, contract settlement,
 * liquidation) is one of these, and is shown with its id, time and source.
 */
export const recordedTickSchema = z.object({
  tickId: z.string().describe('id of the recorded tick (monotonic)'),
  symbol: marketSymbolSchema,
  price: z.string().describe('decimal string, quote currency per one base unit'),
  atMs: z.number().int().describe('when the source observed the price, ms since epoch'),
  source: z.string().describe('where the price came from, e.g. simulator or ccxt:binance'),
});

export const tickerSchema = z.object({
  symbol: marketSymbolSchema,
  base: z.string(),
  quote: z.string(),
  last: recordedTickSchema,
  open24h: z.string().describe('first recorded price of the last 24 h, decimal string'),
  high24h: z.string(),
  low24h: z.string(),
  change24hPct: z.string().describe('signed percent change over 24 h with two decimals, e.g. "-1.25"'),
});

export const candleSchema = z.object({
  openTimeMs: z.number().int(),
  open: z.string(),
  high: z.string(),
  low: z.string(),
  close: z.string(),
  tickCount: z.number().int(),
});

export const listTickersContract = defineContract({
  id: 'market.tickers',
  method: 'GET',
  path: '/home/market/tickers',
  summary: 'Every listed market with its last recorded tick and its 24 h open, high, low and change.',
  caller: 'public',
  data: z.object({ items: z.array(tickerSchema) }),
  errors: [],
});

export const listCandlesContract = defineContract({
  id: 'market.candles',
  method: 'GET',
  path: '/home/market/candles',
  summary: 'Candles aggregated from recorded ticks, oldest first; `beforeMs` pages back in time.',
  caller: 'public',
  query: z.object({
    symbol: marketSymbolSchema,
    interval: candleIntervalSchema.default('1m'),
    limit: z.coerce.number().int().min(1).max(500).default(200),
    beforeMs: z.coerce.number().int().min(0).optional(),
  }),
  data: z.object({ symbol: marketSymbolSchema, interval: candleIntervalSchema, items: z.array(candleSchema) }),
  errors: ['RECORD_NOT_FOUND'],
});

export const getWatchlistContract = defineContract({
  id: 'market.watchlist.get',
  method: 'GET',
  path: '/home/market/watchlist',
  summary: "The user's watchlist of market symbols, in the user's order.",
  caller: 'user',
  data: z.object({ symbols: z.array(marketSymbolSchema) }),
  errors: [],
});

export const setWatchlistContract = defineContract({
  id: 'market.watchlist.set',
  method: 'PUT',
  path: '/home/market/watchlist',
  summary: "Replace the user's watchlist (listed symbols only, at most 50, no duplicates).",
  caller: 'user',
  body: z.object({
    symbols: z
      .array(marketSymbolSchema)
      .max(50)
      .refine((symbols) => new Set(symbols).size === symbols.length, validationMessages.noDuplicateSymbols),
  }),
  data: z.object({ symbols: z.array(marketSymbolSchema) }),
  errors: ['RECORD_NOT_FOUND'],
});
