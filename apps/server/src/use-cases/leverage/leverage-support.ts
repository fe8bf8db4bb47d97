import { AppError } from '@keel/contracts';
import { MARGIN_ASSET, MARGIN_SCALE, parseAmount, type PositionSide } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount } from '../../persistence/ledger.store.ts';
import type { LatestTick } from '../../market/market-prices.ts';

/** The platform accounts positions settle with (ADR 0034). */
export interface LeveragePlatformAccounts {
  /** Keel's side of every position: users' losses in, their profits, funding and interest out or in. */
  houseAccountId: bigint;
  /** Trading fees of leveraged and futures positions (their own label, so their sum can be checked). */
  feeAccountId: bigint;
  /** Liquidation fees in; losses beyond a position's margin out. */
  insuranceAccountId: bigint;
}

export const LEVERAGE_FEE_LABEL = 'leverage';

export async function leveragePlatformAccounts(tx: Queryable): Promise<LeveragePlatformAccounts> {
  return {
    houseAccountId: await ensurePlatformAccount(tx, 'leverage_house', MARGIN_ASSET, { allowNegative: true }),
    feeAccountId: await ensurePlatformAccount(tx, 'fees', MARGIN_ASSET, { label: LEVERAGE_FEE_LABEL }),
    // The fund may run below zero after a crash it could not cover: the loss is the platform's, and
    // shows, rather than ever reaching a user.
    insuranceAccountId: await ensurePlatformAccount(tx, 'insurance_fund', MARGIN_ASSET, { allowNegative: true }),
  };
}

/**
 * Takes the market's trigger cursor FOR SHARE (creating it at `latestTickId` the first time) and
 * answers the last tick the engine has judged. Every order and every change to a position does
 * this first, so it lands wholly between two engine passes over the market (the engine holds the
 * row FOR UPDATE while it works). Lock order everywhere: cursor → position → exposure → ledger.
 */
export async function shareMarketCursor(tx: Queryable, symbol: string, latestTickId: bigint): Promise<bigint> {
  await tx.query('INSERT INTO leverage_trigger_cursors (symbol, last_tick_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [symbol, latestTickId]);
  const [row] = await tx.query<{ last_tick_id: bigint }>('SELECT last_tick_id FROM leverage_trigger_cursors WHERE symbol = $1 FOR SHARE', [symbol]);
  return row!.last_tick_id;
}

/** The house's published limit per market and side, USDT minor units. */
export function exposureLimitMinor(deps: Pick<Deps, 'config'>): bigint {
  return parseAmount(String(deps.config.LEVERAGE_EXPOSURE_LIMIT_USDT), MARGIN_SCALE);
}

/**
 * Raises the house's open notional of a market and side, refused (EXPOSURE_LIMIT_REACHED, nothing
 * changed) when it would pass the published limit. One UPDATE checks and raises, so orders racing
 * each other cannot together pass it.
 */
export async function raiseExposure(tx: Queryable, symbol: string, side: PositionSide, notionalMinor: bigint, limitMinor: bigint): Promise<void> {
  await tx.query('INSERT INTO leverage_exposures (symbol, side) VALUES ($1, $2) ON CONFLICT DO NOTHING', [symbol, side]);
  const raised = await tx.query(
    `UPDATE leverage_exposures SET open_notional_minor = open_notional_minor + $3
     WHERE symbol = $1 AND side = $2 AND open_notional_minor + $3 <= $4 RETURNING symbol`,
    [symbol, side, notionalMinor.toString(), limitMinor.toString()],
  );
  if (raised.length === 0) throw new AppError('EXPOSURE_LIMIT_REACHED', { symbol, side, limit: limitMinor.toString() });
}

/** Lowers it by what closed. */
export async function lowerExposure(tx: Queryable, symbol: string, side: PositionSide, notionalMinor: bigint): Promise<void> {
  if (notionalMinor === 0n) return;
  await tx.query('UPDATE leverage_exposures SET open_notional_minor = open_notional_minor - $3 WHERE symbol = $1 AND side = $2', [
    symbol,
    side,
    notionalMinor.toString(),
  ]);
}

/** How far a price source's clock may run ahead of the server's before its ticks are not used. */
const TICK_MAX_LEAD_MS = 2_000;

/** The last recorded tick of a market, if fresh enough to trade on; PRICE_UNAVAILABLE otherwise. */
export function freshTick(deps: Pick<Deps, 'market' | 'config'>, symbol: string, nowMs: number): LatestTick {
  const tick = deps.market.latest(symbol);
  if (!tick || nowMs - tick.atMs > deps.config.LEVERAGE_OPEN_TICK_MAX_AGE_MS || tick.atMs - nowMs > TICK_MAX_LEAD_MS) {
    throw new AppError('PRICE_UNAVAILABLE', { symbol });
  }
  return tick;
}

/** The published funding rate of a market, parts per million per 8 hours. */
export function fundingRatePpm(deps: Pick<Deps, 'config'>, symbol: string): number {
  return deps.config.LEVERAGE_FUNDING_RATES.get(symbol) ?? deps.config.LEVERAGE_FUNDING_RATE_PPM;
}
