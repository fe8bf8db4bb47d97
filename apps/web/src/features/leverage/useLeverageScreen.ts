import { getLeverageOverviewContract } from '@keel/contracts';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useContractQuery } from '../../shared/api/queries.ts';
import { chooseLeverageSymbol, LAST_LEVERAGE_SYMBOL_KEY, type LeverageProduct } from './leverage-logic.ts';
import { type LeverageData, useLeverage } from './useLeverage.ts';

export interface LeverageScreen {
  /** The market shown, `notFound` when `?symbol=` names no listed market, null until the markets are known or when none is listed. */
  choice: string | 'notFound' | null;
  /** The market shown, or null. */
  shown: string | null;
  data: LeverageData;
}

/**
 * A leverage trade screen's market and data, the mobile one's and the desktop one's (ADR 0048):
 * `?symbol=` names the market (`BTC/USDT` or `BTCUSDT`, any case); without it, the market chosen
 * last on this device, or the first listed; the market shown is remembered for next time.
 */
export function useLeverageScreen(product: LeverageProduct): LeverageScreen {
  const [params] = useSearchParams();
  // The overview names the listed markets; useLeverage reads the same query (one request).
  const overview = useContractQuery(getLeverageOverviewContract);
  const symbols = overview.data?.symbols ?? null;
  const choice = symbols === null ? null : chooseLeverageSymbol(params.get('symbol'), symbols, localStorage.getItem(LAST_LEVERAGE_SYMBOL_KEY));
  const shown = choice !== null && choice !== 'notFound' ? choice : null;
  const data = useLeverage(product, shown);

  // The market the user opened is the one the screens show next time.
  useEffect(() => {
    if (shown !== null) localStorage.setItem(LAST_LEVERAGE_SYMBOL_KEY, shown);
  }, [shown]);
  return { choice, shown, data };
}
