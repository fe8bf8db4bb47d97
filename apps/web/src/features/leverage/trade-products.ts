import type { LeverageProduct } from '@keel/domain';

/**
 * The trade tab's products and their addresses (issue 16), without the trading rules: the product
 * switcher, which every trade screen shows, needs only these.
 */
export type { LeverageProduct };

/** The trade tab's three products, as the switcher names them. */
export type TradeProduct = 'contracts' | LeverageProduct;

/** The address of a leverage screen: `/trade/futures`, or `/trade/futures?symbol=BTC%2FUSDT` for one market. */
export function leveragePath(product: LeverageProduct, symbol?: string | null): string {
  return symbol ? `/trade/${product}?symbol=${encodeURIComponent(symbol)}` : `/trade/${product}`;
}

/** The product a trade tab path shows: `/trade/leveraged`, `/trade/futures`, or the contracts. */
export function tradeProductOf(pathname: string): TradeProduct {
  if (pathname === '/trade/leveraged') return 'leveraged';
  if (pathname === '/trade/futures') return 'futures';
  return 'contracts';
}
