import { FUNDING_INTERVAL_MS, formatPriceMinor, INTEREST_INTERVAL_MS, initialMarginMinor, type LeverageProduct, type PositionSide } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import type { UsedTick } from './close-positions.ts';

/** A position about to be written: by a market order, or by the engine filling a limit order. */
export interface NewPosition {
  id: bigint;
  userId: bigint;
  accountId: bigint;
  product: LeverageProduct;
  symbol: string;
  side: PositionSide;
  leverage: number;
  entryPriceMinor: bigint;
  quantityMinor: bigint;
  notionalMinor: bigint;
  marginMinor: bigint;
  feeMinor: bigint;
  holdId: bigint;
  liquidationPriceMinor: bigint | null;
  takeProfitPriceMinor: bigint | null;
  stopLossPriceMinor: bigint | null;
  armedAfterTickId: bigint;
  openedAtMs: number;
  tick: UsedTick;
  /** The journal entry that froze the margin and paid the fee. */
  entryId: bigint;
}

/** The number a person quotes: L (leveraged) or F (futures), the UTC day, the id. */
export function positionNumber(product: LeverageProduct, id: bigint, atMs: number): string {
  return `${product === 'futures' ? 'F' : 'L'}${new Date(atMs).toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
}

/** The period funding (futures) or interest (leveraged) is charged by. */
export function chargeIntervalOf(product: LeverageProduct): number {
  return product === 'futures' ? FUNDING_INTERVAL_MS : INTEREST_INTERVAL_MS;
}

const priceOrNull = (minor: bigint | null) => (minor === null ? null : formatPriceMinor(minor));

/**
 * Writes new positions and their `open` events, two statements whatever their number. Charges start
 * from the first period time after opening; the opening tick is copied into the position.
 */
export async function insertOpenedPositions(tx: Queryable, positions: readonly NewPosition[]): Promise<void> {
  if (positions.length === 0) return;
  await tx.query(
    `INSERT INTO leverage_positions (id, position_no, user_id, account_id, product, symbol, side, leverage, entry_price, quantity_minor,
       entry_notional_minor, initial_margin_minor, margin_minor, hold_id, liquidation_price, take_profit_price, stop_loss_price,
       armed_after_tick_id, opened_at_ms, open_tick_id, open_tick_price, open_tick_at_ms, open_tick_source, fees_minor, charged_through_ms)
     OVERRIDING SYSTEM VALUE
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::int[], $9::numeric[],
       $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::bigint[], $15::numeric[], $16::numeric[], $17::numeric[], $18::bigint[],
       $19::bigint[], $20::bigint[], $21::numeric[], $22::bigint[], $23::text[], $24::numeric[], $25::bigint[])`,
    [
      positions.map((p) => p.id.toString()),
      positions.map((p) => positionNumber(p.product, p.id, p.openedAtMs)),
      positions.map((p) => p.userId.toString()),
      positions.map((p) => p.accountId.toString()),
      positions.map((p) => p.product),
      positions.map((p) => p.symbol),
      positions.map((p) => p.side),
      positions.map((p) => p.leverage),
      positions.map((p) => formatPriceMinor(p.entryPriceMinor)),
      positions.map((p) => p.quantityMinor.toString()),
      positions.map((p) => p.notionalMinor.toString()),
      positions.map((p) => initialMarginMinor(p.notionalMinor, p.leverage).toString()),
      positions.map((p) => p.marginMinor.toString()),
      positions.map((p) => p.holdId.toString()),
      positions.map((p) => priceOrNull(p.liquidationPriceMinor)),
      positions.map((p) => priceOrNull(p.takeProfitPriceMinor)),
      positions.map((p) => priceOrNull(p.stopLossPriceMinor)),
      positions.map((p) => p.armedAfterTickId.toString()),
      positions.map((p) => String(p.openedAtMs)),
      positions.map((p) => p.tick.tickId.toString()),
      positions.map((p) => p.tick.price),
      positions.map((p) => String(p.tick.atMs)),
      positions.map((p) => p.tick.source),
      positions.map((p) => p.feeMinor.toString()),
      positions.map((p) => {
        const interval = chargeIntervalOf(p.product);
        return String(Math.floor(p.openedAtMs / interval) * interval);
      }),
    ],
  );
  await tx.query(
    `INSERT INTO leverage_position_events (position_id, kind, at_ms, quantity_minor, price, tick_id, tick_price, tick_at_ms, tick_source,
       fee_minor, margin_change_minor, take_profit_price, stop_loss_price, entry_id)
     SELECT c.id, 'open', c.at_ms, c.quantity, c.price, c.tick_id, c.tick_price, c.tick_at_ms, c.tick_source, c.fee, c.margin, c.tp, c.sl, c.entry_id
     FROM unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::numeric[], $5::bigint[], $6::numeric[], $7::bigint[], $8::text[], $9::numeric[],
                 $10::numeric[], $11::numeric[], $12::numeric[], $13::bigint[])
       AS c(id, at_ms, quantity, price, tick_id, tick_price, tick_at_ms, tick_source, fee, margin, tp, sl, entry_id)`,
    [
      positions.map((p) => p.id.toString()),
      positions.map((p) => String(p.openedAtMs)),
      positions.map((p) => p.quantityMinor.toString()),
      positions.map((p) => formatPriceMinor(p.entryPriceMinor)),
      positions.map((p) => p.tick.tickId.toString()),
      positions.map((p) => p.tick.price),
      positions.map((p) => String(p.tick.atMs)),
      positions.map((p) => p.tick.source),
      positions.map((p) => p.feeMinor.toString()),
      positions.map((p) => p.marginMinor.toString()),
      positions.map((p) => priceOrNull(p.takeProfitPriceMinor)),
      positions.map((p) => priceOrNull(p.stopLossPriceMinor)),
      positions.map((p) => p.entryId.toString()),
    ],
  );
}
