import type { RecordedTick } from '../../../apps/server/src/persistence/market-ticks.store.ts';
import { recordTicksForTest, type TestTick } from '../../../apps/server/test/helpers/market.ts';
import type { E2eServer } from './server.ts';

/**
 * Records known prices through the production recorder and waits until the server's market has
 * taken them in, so tickers, swap quotes and /ws all see them (use with `market: 'recorded'`).
 */
export async function recordKnownTicks(server: E2eServer, ticks: readonly TestTick[]): Promise<RecordedTick[]> {
  const recorded = await recordTicksForTest(server.db, ticks);
  await server.market?.syncNow();
  return recorded;
}
