/** /trade_{id}: the trade tab on one market (a parameter glued to a prefix, which react-router cannot match). */
export const isTradeIdPath = (pathname: string) => /^\/trade_[^/]+$/.test(pathname);

/** /trade/leveraged and /trade/futures: the trade tab's leverage screens (issue 16). */
export const isTradeProductPath = (pathname: string) => pathname === '/trade/leveraged' || pathname === '/trade/futures';
