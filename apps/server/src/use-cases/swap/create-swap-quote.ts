import { AppError, parameterErrorField, type SwapQuote } from '@keel/contracts';
import {
  parsePriceMinor,
  PRICE_SCALE,
  priceSwap,
  SWAP_FEE_BPS,
  SwapPricingError,
  usdtSymbolOf,
  usdtValueMinor,
} from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { UserAccountKind } from '../../persistence/ledger.store.ts';
import { insertSwapQuote, type QuotedTick } from '../../persistence/swap-quotes.repository.ts';
import { assetScales } from '../assets/account-balances.ts';
import { swapQuoteView } from './swap-quote.view.ts';
import { vipTermsOfUser } from '../vip/vip-levels.ts';

export interface SwapRequest {
  userId: bigint;
  account: UserAccountKind;
  fromAsset: string;
  toAsset: string;
  /** What the user gives, as typed (decimal string). */
  amount: string;
}

/**
 * Prices a swap from the last recorded ticks and stores the quote; moves no money. A tick older
 * than MARKET_PRICE_MAX_AGE_MS is not a price (the feed is down): the user is told the price is
 * unavailable rather than given a stale rate.
 */
export async function createSwapQuote(deps: Deps, request: SwapRequest): Promise<SwapQuote> {
  const scales = await assetScales(deps.db);
  const fromScale = scales.get(request.fromAsset);
  const toScale = scales.get(request.toAsset);
  if (fromScale === undefined || toScale === undefined) {
    throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField('body.fromAsset', 'unknownAsset')] });
  }
  const amountMinor = parseUserAmount(request.amount, fromScale);

  const now = deps.now();
  const ticks: QuotedTick[] = [];
  const priceOf = (asset: string): bigint => {
    const symbol = usdtSymbolOf(asset);
    if (symbol === undefined) return 0n; // USDT: priced at exactly 1 by the domain.
    const tick = deps.market.latest(symbol);
    if (!tick || now.getTime() - tick.atMs > deps.config.MARKET_PRICE_MAX_AGE_MS) {
      throw new AppError('PRICE_UNAVAILABLE', { symbol });
    }
    ticks.push({ tickId: tick.tickId.toString(), symbol: tick.symbol, price: tick.price, atMs: tick.atMs, source: tick.source });
    return parsePriceMinor(tick.price);
  };
  const fromPriceMinor = priceOf(request.fromAsset);
  const toPriceMinor = priceOf(request.toAsset);
  // The fee uses the user's VIP level at the time (ADR 0046); the quote keeps it.
  const vip = await vipTermsOfUser(deps.db, deps.config.VIP_LEVELS, request.userId);

  let priced: ReturnType<typeof priceSwap>;
  try {
    priced = priceSwap({
      from: { code: request.fromAsset, scale: fromScale },
      to: { code: request.toAsset, scale: toScale },
      amountMinor,
      fromPriceMinor,
      toPriceMinor,
      priceScale: PRICE_SCALE,
      spreadBps: BigInt(deps.config.SWAP_SPREAD_BPS),
      feeBps: SWAP_FEE_BPS,
      vip,
    });
  } catch (error) {
    // Too small an amount: after rounding the user would receive nothing.
    if (error instanceof SwapPricingError && error.problem === 'receipt_not_positive') {
      throw new AppError('WRONG_AMOUNT', { problem: 'too_small', scale: fromScale });
    }
    throw error;
  }

  const quote = await insertSwapQuote(deps.db, {
    userId: request.userId,
    accountKind: request.account,
    fromAsset: request.fromAsset,
    toAsset: request.toAsset,
    amountMinor,
    midRateMinor: priced.midRateMinor,
    rateMinor: priced.rateMinor,
    spreadBps: deps.config.SWAP_SPREAD_BPS,
    feeBps: Number(SWAP_FEE_BPS),
    grossReceiveMinor: priced.grossReceiveMinor,
    feeMinor: priced.feeMinor,
    feeBeforeDiscountMinor: priced.feeBeforeDiscountMinor,
    vipLevel: priced.vipLevel,
    vipDiscountBps: priced.discountBps,
    // What the 30-day VIP volume counts: the USDT value of what is given (rounded up, as limits are).
    usdtValueMinor: usdtValueMinor(amountMinor, fromScale, request.fromAsset === 'USDT' ? null : fromPriceMinor),
    receiveMinor: priced.receiveMinor,
    ticks,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.config.SWAP_QUOTE_TTL_MS),
  });
  return swapQuoteView(quote, scales);
}
