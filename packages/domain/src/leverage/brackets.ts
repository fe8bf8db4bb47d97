import { parseAmount } from '../money/amount.ts';

/**
 * Leveraged and futures positions (issue 16, ADR 0034) as pure rules. Both products are isolated
 * margin positions in USDT on the recorded markets, with Keel as the counterparty:
 * - `leveraged`: margin positions on the spot markets, leverage 1–10x;
 * - `futures`: perpetual-style positions, leverage 1–100x, with funding every 8 hours.
 * What a position may borrow and what keeps it open depends on its size: the published notional
 * brackets below (the usual exchange shape — the larger the position, the lower the leverage and
 * the higher the maintenance margin rate).
 */
export type LeverageProduct = 'leveraged' | 'futures';
export const LEVERAGE_PRODUCTS: readonly LeverageProduct[] = ['leveraged', 'futures'];

/** Margin, PnL and fees are USDT, 6 decimals; quantities are base-asset units with 8 decimals. */
export const MARGIN_ASSET = 'USDT';
export const MARGIN_SCALE = 6;
export const QUANTITY_SCALE = 8;

export interface NotionalBracket {
  /** The bracket holds notionals from the previous bracket's `upToMinor` (exclusive) up to this (inclusive). */
  upToMinor: bigint;
  maxLeverage: number;
  /** Maintenance margin rate in basis points of the notional. */
  maintenanceRateBps: number;
  /**
   * The maintenance amount (USDT minor) subtracted from notional × rate, so the maintenance margin
   * does not jump where one bracket meets the next: amount_k = amount_{k−1} + floor_k × (rate_k − rate_{k−1}).
   */
  maintenanceAmountMinor: bigint;
}

const usdt = (text: string) => parseAmount(text, MARGIN_SCALE);

/** Builds a table from its published rows, computing each maintenance amount from the rows before. */
function bracketTable(rows: readonly { upTo: string; maxLeverage: number; maintenanceRateBps: number }[]): readonly NotionalBracket[] {
  const table: NotionalBracket[] = [];
  for (const row of rows) {
    const previous = table.at(-1);
    const floorMinor = previous?.upToMinor ?? 0n;
    const amount = previous
      ? previous.maintenanceAmountMinor + (floorMinor * BigInt(row.maintenanceRateBps - previous.maintenanceRateBps)) / 10_000n
      : 0n;
    table.push({ upToMinor: usdt(row.upTo), maxLeverage: row.maxLeverage, maintenanceRateBps: row.maintenanceRateBps, maintenanceAmountMinor: amount });
  }
  return table;
}

/** The published brackets per product. The last bracket's upper bound is the largest position there is. */
export const NOTIONAL_BRACKETS: Readonly<Record<LeverageProduct, readonly NotionalBracket[]>> = {
  futures: bracketTable([
    { upTo: '50000', maxLeverage: 100, maintenanceRateBps: 50 },
    { upTo: '250000', maxLeverage: 50, maintenanceRateBps: 100 },
    { upTo: '1000000', maxLeverage: 20, maintenanceRateBps: 250 },
    { upTo: '5000000', maxLeverage: 10, maintenanceRateBps: 500 },
    { upTo: '20000000', maxLeverage: 5, maintenanceRateBps: 1000 },
  ]),
  leveraged: bracketTable([
    { upTo: '100000', maxLeverage: 10, maintenanceRateBps: 200 },
    { upTo: '500000', maxLeverage: 5, maintenanceRateBps: 500 },
    { upTo: '2000000', maxLeverage: 3, maintenanceRateBps: 1000 },
  ]),
};

/** The highest leverage each product offers at all (its first bracket's). */
export function maxLeverageOf(product: LeverageProduct): number {
  return NOTIONAL_BRACKETS[product][0]!.maxLeverage;
}

/** The bracket a notional falls in, or undefined above the last bracket (a position too large to open). */
export function bracketOf(product: LeverageProduct, notionalMinor: bigint): NotionalBracket | undefined {
  return NOTIONAL_BRACKETS[product].find((bracket) => notionalMinor <= bracket.upToMinor);
}

/** The maintenance margin of a notional: notional × rate − amount of its bracket (the last bracket's above it). */
export function maintenanceMarginMinor(product: LeverageProduct, notionalMinor: bigint): bigint {
  const brackets = NOTIONAL_BRACKETS[product];
  const bracket = bracketOf(product, notionalMinor) ?? brackets.at(-1)!;
  // Rounded up: the margin a position must keep is never rounded away.
  const byRate = (notionalMinor * BigInt(bracket.maintenanceRateBps) + 9_999n) / 10_000n;
  const margin = byRate - bracket.maintenanceAmountMinor;
  return margin > 0n ? margin : 0n;
}
