import type { SwapQuote as SwapQuoteData } from '@keel/contracts';
import { formatAmount, RATE_SCALE } from '@keel/domain';
import type { SwapQuoteRow } from '../../persistence/swap-quotes.repository.ts';

/** A stored quote as the API shows it: decimal strings at each asset's scale, times in ms. */
export function swapQuoteView(quote: SwapQuoteRow, scales: ReadonlyMap<string, number>): SwapQuoteData {
  const fromScale = scales.get(quote.fromAsset)!;
  const toScale = scales.get(quote.toAsset)!;
  return {
    quoteId: quote.id.toString(),
    account: quote.accountKind,
    fromAsset: quote.fromAsset as SwapQuoteData['fromAsset'],
    toAsset: quote.toAsset as SwapQuoteData['toAsset'],
    amount: formatAmount(quote.amountMinor, fromScale),
    midRate: formatAmount(quote.midRateMinor, RATE_SCALE),
    rate: formatAmount(quote.rateMinor, RATE_SCALE),
    spreadBps: quote.spreadBps,
    grossReceive: formatAmount(quote.grossReceiveMinor, toScale),
    fee: formatAmount(quote.feeMinor, toScale),
    feeBps: quote.feeBps,
    feeBeforeDiscount: formatAmount(quote.feeBeforeDiscountMinor, toScale),
    vipLevel: quote.vipLevel,
    vipDiscountBps: quote.vipDiscountBps,
    vipDiscount: formatAmount(quote.feeBeforeDiscountMinor - quote.feeMinor, toScale),
    estimatedReceive: formatAmount(quote.receiveMinor, toScale),
    createdAtMs: quote.createdAt.getTime(),
    expiresAtMs: quote.expiresAt.getTime(),
    ticks: quote.ticks,
  };
}
