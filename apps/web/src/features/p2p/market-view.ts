import type { P2pAdSide } from './ad-form.ts';

/**
 * Which view of the fiat shop the address asks for (issue 19). The market has two sides, named by
 * what the user does: "Buy USDT" lists the sell ads (the default), "Sell USDT" the buy ads — the
 * address says which ads, as the API's `side` does (`?side=buy`); "My ads" is `?tab=mine`. The
 * currency filter stays when the user switches sides; the page goes back to the first.
 */
export type ShopView = 'buy' | 'sell' | 'mine';

export function shopViewOf(params: URLSearchParams): ShopView {
  if (params.get('tab') === 'mine') return 'mine';
  return params.get('side') === 'buy' ? 'sell' : 'buy';
}

/** The side of the ads a market view lists: buying USDT is taking a sell ad, selling is taking a buy ad. */
export function adSideOfView(view: 'buy' | 'sell'): P2pAdSide {
  return view === 'buy' ? 'sell' : 'buy';
}

/** The address's search for `view`, keeping the currency filter of the market views. */
export function shopSearchFor(view: ShopView, params: URLSearchParams): URLSearchParams {
  if (view === 'mine') return new URLSearchParams({ tab: 'mine' });
  const next = new URLSearchParams();
  if (view === 'sell') next.set('side', 'buy');
  const fiat = params.get('fiat');
  if (fiat) next.set('fiat', fiat);
  return next;
}

/** The side of a new ad, from the post page's address (`?side=buy`); a sell ad otherwise. */
export function postSideOf(params: URLSearchParams): P2pAdSide {
  return params.get('side') === 'buy' ? 'buy' : 'sell';
}

/** The post page's address for an ad of `side`. */
export function postAdPath(side: P2pAdSide): string {
  return side === 'buy' ? '/trade/shopping/sell?side=buy' : '/trade/shopping/sell';
}
