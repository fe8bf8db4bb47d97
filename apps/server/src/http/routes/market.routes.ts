import { getWatchlistContract, listCandlesContract, listTickersContract, setWatchlistContract } from '@keel/contracts';
import { handler } from '../route.ts';
import { getWatchlist } from '../../use-cases/market/get-watchlist.ts';
import { listCandles } from '../../use-cases/market/list-candles.ts';
import { listTickers } from '../../use-cases/market/list-tickers.ts';
import { setWatchlist } from '../../use-cases/market/set-watchlist.ts';

export const marketRoutes = [
  handler(listTickersContract, ({ deps }) => listTickers(deps)),
  handler(listCandlesContract, ({ query, deps }) => listCandles(deps, query)),
  handler(getWatchlistContract, ({ session, deps }) => getWatchlist(deps, session.user.id)),
  handler(setWatchlistContract, ({ session, body, deps }) => setWatchlist(deps, session.user.id, body.symbols)),
];
