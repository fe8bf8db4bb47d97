import type { Posting } from '../ledger/postings.ts';
import { mulDiv } from '../money/amount.ts';
import { discountFee, type VipTerms } from '../vip/levels.ts';
import { LIQUIDATION_FEE_BPS, notionalMinor, pnlMinor, type PositionSide, tradingFeeMinor } from './positions.ts';

/**
 * How the margin of a closing (part of a) position is shared out (ADR 0034). Everything the user
 * can lose is the margin of that part: a loss beyond it — a price that gapped past the liquidation
 * price — is the insurance fund's, never the user's other balances.
 *
 * A close (by the user, a take-profit or a stop-loss), margin M, PnL P, trading fee F:
 *   equity = M + P ≥ F     → the user gets M + P − F, the fee account F;
 *   0 ≤ equity < F         → the user gets 0, the fee account what is left (M + P);
 *   equity < 0             → the user gets 0, no fee, the insurance fund pays the shortfall −(M + P).
 * A liquidation at the mark price: the liquidation fee L (0.5 % of the notional at the mark, at
 * most what is left) goes to the insurance fund and the rest of the equity back to the user; with
 * negative equity the insurance fund pays the shortfall. In every case the house (Keel, the
 * counterparty) receives −P: the user's loss, or pays the user's profit.
 */
export interface CloseSplit {
  pnlMinor: bigint;
  /** To the user's available balance. */
  payoutMinor: bigint;
  /** The trading fee actually charged (a close) — 0 for a liquidation. */
  feeMinor: bigint;
  /** To the insurance fund: the liquidation fee (≥ 0), or what it pays for a shortfall (< 0). */
  insuranceMinor: bigint;
}

export type CloseKind = 'close' | 'liquidation';

export function closeSplit(input: {
  kind: CloseKind;
  side: PositionSide;
  quantityMinor: bigint;
  entryPriceMinor: bigint;
  /** The fill price: the tick's price for a close, the mark price for a liquidation. */
  priceMinor: bigint;
  marginMinor: bigint;
  /** The user's VIP level at the close; its discount comes off the trading fee (ADR 0046). Level 0 when absent. */
  vip?: VipTerms;
}): CloseSplit {
  const { kind, side, quantityMinor, entryPriceMinor, priceMinor, marginMinor } = input;
  if (quantityMinor <= 0n || marginMinor < 0n) throw new RangeError('a close of a positive quantity and a margin of zero or more');
  const pnl = pnlMinor(side, quantityMinor, entryPriceMinor, priceMinor);
  const equity = marginMinor + pnl;
  if (equity < 0n) return { pnlMinor: pnl, payoutMinor: 0n, feeMinor: 0n, insuranceMinor: equity };
  if (kind === 'liquidation') {
    const fullFee = mulDiv(notionalMinor(quantityMinor, priceMinor), LIQUIDATION_FEE_BPS, 10_000n, 'ceil');
    const liquidationFee = fullFee < equity ? fullFee : equity;
    return { pnlMinor: pnl, payoutMinor: equity - liquidationFee, feeMinor: 0n, insuranceMinor: liquidationFee };
  }
  const fullFee = discountFee(tradingFeeMinor(notionalMinor(quantityMinor, priceMinor)), input.vip).feeMinor;
  const fee = fullFee < equity ? fullFee : equity;
  return { pnlMinor: pnl, payoutMinor: equity - fee, feeMinor: fee, insuranceMinor: 0n };
}

export interface CloseAccounts {
  userAccountId: bigint;
  houseAccountId: bigint;
  feeAccountId: bigint;
  insuranceAccountId: bigint;
  asset: string;
}

/**
 * The one journal entry of a close: the margin leaves the user's frozen balance, the payout goes to
 * the user's available balance, −PnL to the house, the fee to the fee account, the insurance part
 * to (or from) the insurance fund. Zero postings are left out; the postings sum to zero.
 */
export function closePostings(accounts: CloseAccounts, marginMinor: bigint, split: CloseSplit): Posting[] {
  const { userAccountId, houseAccountId, feeAccountId, insuranceAccountId, asset } = accounts;
  const postings: Posting[] = [
    { accountId: userAccountId, asset, bucket: 'frozen', amountMinor: -marginMinor },
    { accountId: userAccountId, asset, bucket: 'available', amountMinor: split.payoutMinor },
    { accountId: houseAccountId, asset, bucket: 'available', amountMinor: -split.pnlMinor },
    { accountId: feeAccountId, asset, bucket: 'available', amountMinor: split.feeMinor },
    { accountId: insuranceAccountId, asset, bucket: 'available', amountMinor: split.insuranceMinor },
  ].filter((posting) => posting.amountMinor !== 0n) as Posting[];
  const sum = postings.reduce((total, posting) => total + posting.amountMinor, 0n);
  if (sum !== 0n) throw new Error(`a close entry that does not balance (${sum})`);
  return postings;
}

/**
 * The part of a position a partial close takes: the quantity asked, and the same share of the
 * margin, rounded down (what stays keeps the rounding). A close of the whole quantity takes all.
 */
export function partialShare(totalQuantityMinor: bigint, marginMinor: bigint, closeQuantityMinor: bigint): { marginMinor: bigint } {
  if (closeQuantityMinor <= 0n || closeQuantityMinor > totalQuantityMinor) throw new RangeError('a close of part of the quantity');
  if (closeQuantityMinor === totalQuantityMinor) return { marginMinor };
  return { marginMinor: mulDiv(marginMinor, closeQuantityMinor, totalQuantityMinor, 'floor') };
}

/** Parts per million: the unit of funding and interest rates (100 ppm = 0.01 %). */
export const PPM = 1_000_000n;

/** Funding every 8 hours (futures), from 00:00 UTC: at 00:00, 08:00 and 16:00. */
export const FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;
/** Interest on the borrowed part of a leveraged position every hour. */
export const INTEREST_INTERVAL_MS = 60 * 60 * 1000;

/**
 * A funding payment at a funding time: notional at the mark × the market's published rate, rounded
 * down. With a positive rate longs pay and shorts receive; with a negative rate the reverse. Keel is
 * the counterparty, so the house receives or pays. Returns what the position receives (negative:
 * pays), before the cap at its margin (`cappedToMargin`).
 */
export function fundingMinor(side: PositionSide, quantityMinor: bigint, markPriceMinor: bigint, ratePpm: bigint): bigint {
  if (ratePpm === 0n) return 0n;
  const amount = mulDiv(notionalMinor(quantityMinor, markPriceMinor), ratePpm < 0n ? -ratePpm : ratePpm, PPM, 'floor');
  const pays = (side === 'long') === ratePpm > 0n;
  return pays ? -amount : amount;
}

/**
 * Hourly interest on what a leveraged position borrowed (entry notional − margin), at the published
 * rate, rounded down; what the position pays, before the cap at its margin.
 */
export function interestMinor(entryNotionalMinor: bigint, marginMinor: bigint, hourlyRatePpm: bigint): bigint {
  const borrowed = entryNotionalMinor - marginMinor;
  if (borrowed <= 0n || hourlyRatePpm <= 0n) return 0n;
  return mulDiv(borrowed, hourlyRatePpm, PPM, 'floor');
}

/** A charge to a position's margin never takes more than the margin holds (the position is liquidated next). */
export function cappedToMargin(changeMinor: bigint, marginMinor: bigint): bigint {
  return changeMinor < -marginMinor ? -marginMinor : changeMinor;
}

/** The funding or interest times in (afterMs, upToMs]: multiples of the interval since the epoch (UTC). */
export function periodTimesBetween(afterMs: number, upToMs: number, intervalMs: number): number[] {
  const times: number[] = [];
  for (let at = Math.floor(afterMs / intervalMs) * intervalMs + intervalMs; at <= upToMs; at += intervalMs) times.push(at);
  return times;
}
