import type { Posting } from '../ledger/postings.ts';
import { AmountError, mulDiv, parseAmount } from '../money/amount.ts';

/**
 * Short-cycle up/down contracts (issue 7, ADR 0017) as pure rules. A user stakes an amount on the
 * price of a market being above (up) or below (down) its opening price when the cycle ends. The
 * opening price is the last recorded tick when the order is placed; the closing price is the
 * first tick recorded at or after expiry. Up wins if close > open, down wins if close < open,
 * equal is flat (the stake comes back). A win pays stake × the product's yield rate on top of the
 * returned stake; a loss gives the stake to the house. Nothing here reads a clock: times come in.
 */

export type OptionDirection = 'up' | 'down';
export type OptionOutcome = 'won' | 'lost' | 'flat';
/** `void`: no price was recorded close enough to expiry to settle on; the stake comes back. */
export type OptionSettledStatus = OptionOutcome | 'void';
export type OptionOrderStatus = 'open' | OptionSettledStatus;

/** Contracts are staked and paid in USDT from the options account, 6 decimals. */
export const OPTIONS_ASSET = 'USDT';
export const OPTIONS_SCALE = 6;

/** A configured product: one cycle length with its yield rate and stake range. */
export interface OptionProduct {
  cycleSeconds: number;
  /** What a win pays on top of the returned stake, in basis points of the stake (8000 = 80 %). */
  yieldBps: number;
  minStakeMinor: bigint;
  maxStakeMinor: bigint;
  /** The operator can switch trading off per product; open orders still settle. */
  enabled: boolean;
}

/** The decisions page's default cycles: 30 s, 60 s, 120 s and 300 s. */
export const DEFAULT_OPTION_PRODUCTS_TEXT = '30/80/10/5000,60/82/10/10000,120/85/10/20000,300/88/10/50000';

export class OptionProductsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionProductsError';
  }
}

const PRODUCT_TEXT = /^(\d{1,5})\/(\d{1,3}(?:\.\d{1,2})?)\/([0-9.]+)\/([0-9.]+)(\/off)?$/;

/**
 * Reads the products from their configuration text: comma-separated
 * `cycleSeconds/yieldPercent/minStake/maxStake`, with `/off` appended to switch one off, e.g.
 * `30/80/10/5000,60/82/10/10000/off`. Throws OptionProductsError naming the bad part.
 */
export function parseOptionProducts(text: string): OptionProduct[] {
  const products: OptionProduct[] = [];
  for (const part of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    const match = PRODUCT_TEXT.exec(part);
    if (!match) throw new OptionProductsError(`"${part}" is not cycleSeconds/yieldPercent/minStake/maxStake[/off]`);
    const cycleSeconds = Number(match[1]);
    if (cycleSeconds < 5 || cycleSeconds > 86_400) throw new OptionProductsError(`cycle ${cycleSeconds} s is outside 5 s to 1 day`);
    const yieldBps = Number(parseAmount(match[2]!, 2));
    if (yieldBps <= 0 || yieldBps > 100_000) throw new OptionProductsError(`yield ${match[2]} % is outside (0, 1000] %`);
    let minStakeMinor: bigint;
    let maxStakeMinor: bigint;
    try {
      minStakeMinor = parseAmount(match[3]!, OPTIONS_SCALE);
      maxStakeMinor = parseAmount(match[4]!, OPTIONS_SCALE);
    } catch (error) {
      if (error instanceof AmountError) throw new OptionProductsError(`stake range of "${part}" is not two amounts`);
      throw error;
    }
    if (minStakeMinor <= 0n || maxStakeMinor < minStakeMinor) throw new OptionProductsError(`stake range of "${part}" must be 0 < min ≤ max`);
    if (products.some((product) => product.cycleSeconds === cycleSeconds)) throw new OptionProductsError(`cycle ${cycleSeconds} s is listed twice`);
    products.push({ cycleSeconds, yieldBps, minStakeMinor, maxStakeMinor, enabled: !match[5] });
  }
  if (products.length === 0) throw new OptionProductsError('at least one product is needed');
  return products.sort((a, b) => a.cycleSeconds - b.cycleSeconds);
}

export type StakeProblem = 'below_min' | 'above_max';

/** Whether a stake lies within the product's range ("amount out of range" when not). */
export function stakeProblem(product: OptionProduct, stakeMinor: bigint): StakeProblem | null {
  if (stakeMinor < product.minStakeMinor) return 'below_min';
  if (stakeMinor > product.maxStakeMinor) return 'above_max';
  return null;
}

/**
 * What a win pays on top of the stake: stake × yield, rounded DOWN to the minor unit. The house
 * never pays more than the published rate; the rounding costs the user less than 0.000001 USDT.
 */
export function winPayoutMinor(stakeMinor: bigint, yieldBps: number): bigint {
  return mulDiv(stakeMinor, BigInt(yieldBps), 10_000n, 'floor');
}

/** The rule of the decisions page: up wins above, down wins below, equal is flat. */
export function decideOutcome(direction: OptionDirection, openPriceMinor: bigint, closePriceMinor: bigint): OptionOutcome {
  if (closePriceMinor === openPriceMinor) return 'flat';
  const wentUp = closePriceMinor > openPriceMinor;
  return wentUp === (direction === 'up') ? 'won' : 'lost';
}

/** A recorded tick as far as settlement cares. */
export interface SettlementTick {
  tickId: bigint;
  priceMinor: bigint;
  atMs: number;
}

export interface SettleableOrder {
  direction: OptionDirection;
  stakeMinor: bigint;
  yieldBps: number;
  openPriceMinor: bigint;
  expiresAtMs: number;
}

export type SettlementDecision =
  | { kind: 'wait' }
  | { kind: 'settle'; status: OptionSettledStatus; closeTick: SettlementTick | null; profitMinor: bigint };

/**
 * Decides an order due for settlement. `closeTick` is the first tick recorded at or after expiry
 * (or undefined when none is recorded yet). A closing tick observed more than `maxCloseDelayMs`
 * after expiry is not a price at expiry: the order is void and the stake returned. With no tick
 * at all, the order waits, until `nowMs` is past expiry + `maxCloseDelayMs` + `recordingLagMs`
 * (by then a tick within the delay would have been recorded), and is then void.
 * `profitMinor` is what the user gains (payout), loses (−stake) or 0.
 */
export function decideSettlement(
  order: SettleableOrder,
  closeTick: SettlementTick | undefined,
  nowMs: number,
  limits: { maxCloseDelayMs: number; recordingLagMs: number },
): SettlementDecision {
  if (!closeTick) {
    if (nowMs < order.expiresAtMs + limits.maxCloseDelayMs + limits.recordingLagMs) return { kind: 'wait' };
    return { kind: 'settle', status: 'void', closeTick: null, profitMinor: 0n };
  }
  if (closeTick.atMs < order.expiresAtMs) throw new RangeError('a closing tick must be observed at or after expiry');
  if (closeTick.atMs > order.expiresAtMs + limits.maxCloseDelayMs) return { kind: 'settle', status: 'void', closeTick, profitMinor: 0n };
  const outcome = decideOutcome(order.direction, order.openPriceMinor, closeTick.priceMinor);
  const profitMinor = outcome === 'won' ? winPayoutMinor(order.stakeMinor, order.yieldBps) : outcome === 'lost' ? -order.stakeMinor : 0n;
  return { kind: 'settle', status: outcome, closeTick, profitMinor };
}

/**
 * The one journal entry that settles an order whose stake is frozen in the user's options account:
 * - won: the stake unfrozen, the payout from the house to the user's available balance;
 * - lost: the stake from the user's frozen balance to the house;
 * - flat or void: the stake unfrozen.
 * Postings are merged per account and bucket, so a win is three postings, the others two.
 */
export function settlementPostings(input: {
  userAccountId: bigint;
  houseAccountId: bigint;
  asset: string;
  stakeMinor: bigint;
  status: OptionSettledStatus;
  profitMinor: bigint;
}): Posting[] {
  const { userAccountId, houseAccountId, asset, stakeMinor, status, profitMinor } = input;
  if (stakeMinor <= 0n) throw new RangeError('a stake is positive');
  const unfreeze: Posting = { accountId: userAccountId, asset, bucket: 'frozen', amountMinor: -stakeMinor };
  switch (status) {
    case 'won':
      if (profitMinor < 0n) throw new RangeError('a win pays a payout of zero or more');
      if (profitMinor === 0n) return [unfreeze, { accountId: userAccountId, asset, bucket: 'available', amountMinor: stakeMinor }];
      return [
        unfreeze,
        { accountId: userAccountId, asset, bucket: 'available', amountMinor: stakeMinor + profitMinor },
        { accountId: houseAccountId, asset, bucket: 'available', amountMinor: -profitMinor },
      ];
    case 'lost':
      if (profitMinor !== -stakeMinor) throw new RangeError('a loss is the whole stake');
      return [unfreeze, { accountId: houseAccountId, asset, bucket: 'available', amountMinor: stakeMinor }];
    case 'flat':
    case 'void':
      if (profitMinor !== 0n) throw new RangeError('a flat or void order neither wins nor loses');
      return [unfreeze, { accountId: userAccountId, asset, bucket: 'available', amountMinor: stakeMinor }];
  }
}
