import type { Deps } from '../../deps.ts';

/** The user's watchlist in the user's order; a market no longer listed is left out. */
export async function getWatchlist(deps: Pick<Deps, 'db' | 'config'>, userId: bigint): Promise<{ symbols: string[] }> {
  const rows = await deps.db.query<{ symbol: string }>(
    'SELECT symbol FROM market_watchlists WHERE user_id = $1 ORDER BY position',
    [userId],
  );
  const listed = new Set(deps.config.MARKET_SYMBOLS);
  return { symbols: rows.map((row) => row.symbol).filter((symbol) => listed.has(symbol)) };
}
