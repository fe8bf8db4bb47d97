import type { Deps } from '../../deps.ts';
import { getWatchlist } from './get-watchlist.ts';
import { assertListedMarket } from './listed-market.ts';

/**
 * Replaces the user's watchlist with `symbols`, in that order (the contract has already refused
 * duplicates and more than 50). Every symbol must be a listed market; the first that is not is
 * named in RECORD_NOT_FOUND and nothing changes.
 */
export async function setWatchlist(deps: Pick<Deps, 'db' | 'config'>, userId: bigint, symbols: readonly string[]): Promise<{ symbols: string[] }> {
  for (const symbol of symbols) assertListedMarket(deps.config, symbol);
  await deps.db.transaction(async (tx) => {
    // Two replacements for one user at once take turns here instead of colliding on the key.
    // NO KEY UPDATE: it does not block other rows that merely reference the user (sessions).
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    await tx.query('DELETE FROM market_watchlists WHERE user_id = $1', [userId]);
    if (symbols.length > 0) {
      await tx.query(
        `INSERT INTO market_watchlists (user_id, symbol, position)
         SELECT $1, symbol, (n - 1)::int FROM unnest($2::text[]) WITH ORDINALITY AS s(symbol, n)`,
        [userId, [...symbols]],
      );
    }
  });
  return getWatchlist(deps, userId);
}
