/** /trade_{id}: the trade tab on one market (a parameter glued to a prefix, which react-router cannot match). */
export const isTradeIdPath = (pathname: string) => /^\/trade_[^/]+$/.test(pathname);
