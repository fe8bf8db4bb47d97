import { DAY_MS } from '../market/ticker.ts';
import { PRICE_SCALE } from '../market/price.ts';
import { mulDiv } from '../money/amount.ts';
import type { VerificationTier } from '../identity/tiers.ts';

/**
 * Loans (issue 18, ADR 0036): USDT lent against pledged collateral by a published credit policy.
 * Every number a borrower sees — the interest, what is owed today, the credit available, the
 * credit score, the loan-to-value ratio, what a liquidation sells and returns — is computed here,
 * by the rule the server applies, with worked examples in loans.test.ts. No person sets any of them.
 *
 * Rates and ratios are parts per million: 0.1 % a day is 1,000 ppm, an LTV of 65 % is 650,000 ppm.
 * Interest rounds down (the borrower never pays a fraction the formula does not give); collateral
 * sold in a liquidation rounds up to the asset's smallest unit (the loan is covered in full).
 */

export const LOAN_STATUSES = ['pending', 'passed', 'rejected', 'repaid', 'liquidated'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

/** The asset loans are paid out and repaid in. */
export const LOAN_ASSET = 'USDT';
export const LOAN_ASSET_SCALE = 6;
/** Assets a borrower may pledge. */
export const LOAN_COLLATERAL_ASSETS = ['BTC', 'ETH', 'USDT'] as const;

const PPM = 1_000_000n;
/** Highest daily rate a loan product may publish: 1 % a day. */
export const MAX_LOAN_DAILY_RATE_PPM = 10_000;
export const MAX_LOAN_CYCLE_DAYS = 365;

export interface CollateralTerm {
  asset: string;
  /** The share of the collateral's market value lent against it. */
  ltvPpm: number;
}

export interface LoanTerms {
  cycleDays: number;
  dailyRatePpm: number;
  minAmountMinor: bigint;
  maxAmountMinor: bigint;
  collateral: readonly CollateralTerm[];
  /** Loan-to-value at which the borrower is warned (owed ÷ collateral value). */
  marginCallLtvPpm: number;
  /** Loan-to-value at which the collateral is sold to repay the loan. */
  liquidationLtvPpm: number;
}

/** Why a product's terms are not a product, or null. */
export type LoanTermsProblem =
  | 'cycle'
  | 'rate'
  | 'range'
  | 'collateral'
  | 'ratios';

export function loanTermsProblem(terms: LoanTerms): LoanTermsProblem | null {
  if (!Number.isInteger(terms.cycleDays) || terms.cycleDays < 1 || terms.cycleDays > MAX_LOAN_CYCLE_DAYS) return 'cycle';
  if (!Number.isInteger(terms.dailyRatePpm) || terms.dailyRatePpm < 0 || terms.dailyRatePpm > MAX_LOAN_DAILY_RATE_PPM) return 'rate';
  if (terms.minAmountMinor <= 0n || terms.maxAmountMinor < terms.minAmountMinor) return 'range';
  const assets = new Set<string>();
  if (terms.collateral.length === 0) return 'collateral';
  for (const each of terms.collateral) {
    if (!(LOAN_COLLATERAL_ASSETS as readonly string[]).includes(each.asset) || assets.has(each.asset)) return 'collateral';
    if (!Number.isInteger(each.ltvPpm) || each.ltvPpm <= 0 || each.ltvPpm >= terms.marginCallLtvPpm) return 'ratios';
    assets.add(each.asset);
  }
  if (!(terms.marginCallLtvPpm < terms.liquidationLtvPpm && terms.liquidationLtvPpm <= 1_000_000)) return 'ratios';
  return null;
}

/** The spec's interest: amount × daily rate × days, rounded down. */
export function loanInterestMinor(amountMinor: bigint, dailyRatePpm: number, days: number): bigint {
  if (amountMinor < 0n || days < 0) throw new RangeError('negative loan interest');
  return mulDiv(amountMinor, BigInt(dailyRatePpm) * BigInt(days), PPM, 'floor');
}

/** When a loan paid out at `startMs` falls due: the cycle in whole days later. */
export function loanDueAtMs(startMs: number, cycleDays: number): number {
  return startMs + cycleDays * DAY_MS;
}

/**
 * The days of a loan that have begun by `nowMs` (interest is charged for each): at least 1 (the
 * day it was paid out), at most the cycle. 3 hours after payout → 1; 1 day and 1 ms → 2.
 */
export function loanDaysBegun(startMs: number, nowMs: number, cycleDays: number): number {
  const begun = Math.floor(Math.max(0, nowMs - startMs) / DAY_MS) + 1;
  return Math.min(begun, cycleDays);
}

/**
 * What a loan owes, kept as the server stores it: the principal not yet repaid, the interest charged
 * and not yet paid, and the day up to which interest has been charged. Interest is charged on the
 * principal outstanding for each day begun; a repayment pays charged interest first, then principal.
 */
export interface LoanBalance {
  principalMinor: bigint;
  interestMinor: bigint;
  chargedDays: number;
}

/** The balance with interest charged up to day `toDay` (never backwards). */
export function chargeInterestTo(balance: LoanBalance, dailyRatePpm: number, toDay: number): LoanBalance {
  if (toDay <= balance.chargedDays) return balance;
  return {
    principalMinor: balance.principalMinor,
    interestMinor: balance.interestMinor + loanInterestMinor(balance.principalMinor, dailyRatePpm, toDay - balance.chargedDays),
    chargedDays: toDay,
  };
}

export function owedOf(balance: LoanBalance): bigint {
  return balance.principalMinor + balance.interestMinor;
}

export interface RepaymentSplit {
  interestPaidMinor: bigint;
  principalPaidMinor: bigint;
  after: LoanBalance;
}

/** A repayment of `amountMinor` against a charged balance: interest first, then principal; never more than owed. */
export function applyRepayment(balance: LoanBalance, amountMinor: bigint): RepaymentSplit {
  if (amountMinor <= 0n) throw new RangeError('a repayment is positive');
  if (amountMinor > owedOf(balance)) throw new RangeError('a repayment is at most what is owed');
  const interestPaidMinor = amountMinor < balance.interestMinor ? amountMinor : balance.interestMinor;
  const principalPaidMinor = amountMinor - interestPaidMinor;
  return {
    interestPaidMinor,
    principalPaidMinor,
    after: { principalMinor: balance.principalMinor - principalPaidMinor, interestMinor: balance.interestMinor - interestPaidMinor, chargedDays: balance.chargedDays },
  };
}

/** USDT minor units of one whole unit of an asset at a recorded price (8 decimals); USDT is 1. */
function priceOf(asset: string, priceMinor: bigint | null): bigint {
  if (asset === LOAN_ASSET) return 10n ** BigInt(PRICE_SCALE);
  if (priceMinor === null || priceMinor <= 0n) throw new RangeError(`no price for ${asset}`);
  return priceMinor;
}

/** The market value in USDT minor units of `amountMinor` of an asset at a recorded price, rounded down. */
export function collateralValueMinor(asset: string, amountMinor: bigint, assetScale: number, priceMinor: bigint | null): bigint {
  const price = priceOf(asset, priceMinor);
  return mulDiv(amountMinor * price, 10n ** BigInt(LOAN_ASSET_SCALE), 10n ** BigInt(assetScale + PRICE_SCALE), 'floor');
}

/** What a pledge lets a borrower borrow: its value × the asset's LTV, rounded down. */
export function collateralCreditMinor(valueMinor: bigint, ltvPpm: number): bigint {
  return mulDiv(valueMinor, BigInt(ltvPpm), PPM, 'floor');
}

/** The loan-to-value of a loan, ppm, rounded up (a warning comes no later than the rule says). No value: the most there is. */
export function loanLtvPpm(owedMinor: bigint, valueMinor: bigint): number {
  if (valueMinor <= 0n) return Number.MAX_SAFE_INTEGER;
  return Number(mulDiv(owedMinor, PPM, valueMinor, 'ceil'));
}

export type LoanHealth = 'healthy' | 'margin_call' | 'liquidate';

export function loanHealth(ltvPpm: number, terms: Pick<LoanTerms, 'marginCallLtvPpm' | 'liquidationLtvPpm'>): LoanHealth {
  if (ltvPpm >= terms.liquidationLtvPpm) return 'liquidate';
  if (ltvPpm >= terms.marginCallLtvPpm) return 'margin_call';
  return 'healthy';
}

/**
 * The price of the collateral at which a loan reaches a loan-to-value ratio (8 decimals, rounded
 * up: at this price or below, the ratio is reached), for the screens. Null for USDT collateral.
 */
export function priceAtLtvMinor(owedMinor: bigint, collateralMinor: bigint, assetScale: number, ltvPpm: number): bigint | null {
  if (collateralMinor <= 0n) return null;
  // owed ÷ (collateral × price) = ltv  →  price = owed ÷ (ltv × collateral), in PRICE_SCALE per whole unit.
  return mulDiv(owedMinor * PPM, 10n ** BigInt(assetScale + PRICE_SCALE), collateralMinor * BigInt(ltvPpm) * 10n ** BigInt(LOAN_ASSET_SCALE), 'ceil');
}

export interface LiquidationPlan {
  /** Collateral sold (asset minor units): enough at the price to cover what is owed, at most all of it. */
  soldMinor: bigint;
  /** What the sale repays, USDT minor units: what is owed, or less when the collateral falls short. */
  repaidMinor: bigint;
  /** What the collateral did not cover: the lender's loss, recorded; the borrower owes nothing more. */
  shortfallMinor: bigint;
  /** Collateral returned to the borrower. */
  releasedMinor: bigint;
}

/**
 * A liquidation at a recorded price: the collateral sold is the least that covers what is owed
 * (rounded up to the asset's smallest unit), the rest returned; collateral worth less than what is
 * owed is sold whole, and the difference is the lender's loss.
 */
export function liquidationPlan(input: { asset: string; owedMinor: bigint; collateralMinor: bigint; assetScale: number; priceMinor: bigint | null }): LiquidationPlan {
  const price = priceOf(input.asset, input.priceMinor);
  const neededMinor = mulDiv(input.owedMinor, 10n ** BigInt(input.assetScale + PRICE_SCALE), price * 10n ** BigInt(LOAN_ASSET_SCALE), 'ceil');
  if (neededMinor <= input.collateralMinor) {
    return { soldMinor: neededMinor, repaidMinor: input.owedMinor, shortfallMinor: 0n, releasedMinor: input.collateralMinor - neededMinor };
  }
  const repaidMinor = collateralValueMinor(input.asset, input.collateralMinor, input.assetScale, input.priceMinor);
  const covered = repaidMinor < input.owedMinor ? repaidMinor : input.owedMinor;
  return { soldMinor: input.collateralMinor, repaidMinor: covered, shortfallMinor: input.owedMinor - covered, releasedMinor: 0n };
}

// ——— Credit policy (published on /person/Loan) ———

/** The most a borrower of each verification tier may owe at once, whole USDT, before the score's multiplier. */
export const LOAN_TIER_CAP_USDT: Record<VerificationTier, bigint> = { 0: 0n, 1: 10_000n, 2: 100_000n };

export interface CreditHistory {
  /** Loans repaid in full by their due date. */
  repaidOnTime: number;
  /** Loans unpaid at their due date and repaid from their collateral. */
  liquidatedAtDue: number;
  /** Loans whose collateral fell to the liquidation ratio before their due date. */
  liquidatedEarly: number;
}

export const CREDIT_SCORE_RULE = {
  base: 600,
  perRepaidOnTime: 15,
  /** At most this many on-time loans count (the score cannot be bought with many tiny loans beyond it). */
  repaidOnTimeCounted: 20,
  perLiquidatedAtDue: -60,
  perLiquidatedEarly: -30,
  min: 300,
  max: 900,
} as const;

/** The score's bands and the multiplier each applies to the tier cap, ppm; the first band the score reaches applies. */
export const CREDIT_SCORE_BANDS: readonly { minScore: number; capMultiplierPpm: number }[] = [
  { minScore: 800, capMultiplierPpm: 2_000_000 },
  { minScore: 700, capMultiplierPpm: 1_500_000 },
  { minScore: 500, capMultiplierPpm: 1_000_000 },
  { minScore: 0, capMultiplierPpm: 500_000 },
];

export interface CreditScore {
  score: number;
  /** Each term of the sum, as the page shows it. */
  parts: { base: number; repaidOnTime: number; liquidatedAtDue: number; liquidatedEarly: number };
  capMultiplierPpm: number;
}

/**
 * The credit score: 600, +15 for each loan repaid on time (the first 20), −60 for each left to be
 * liquidated at its due date, −30 for each liquidated early by a price move; kept within 300–900.
 */
export function creditScore(history: CreditHistory): CreditScore {
  const rule = CREDIT_SCORE_RULE;
  const parts = {
    base: rule.base,
    repaidOnTime: Math.min(history.repaidOnTime, rule.repaidOnTimeCounted) * rule.perRepaidOnTime,
    liquidatedAtDue: history.liquidatedAtDue * rule.perLiquidatedAtDue,
    liquidatedEarly: history.liquidatedEarly * rule.perLiquidatedEarly,
  };
  const sum = parts.base + parts.repaidOnTime + parts.liquidatedAtDue + parts.liquidatedEarly;
  const score = Math.max(rule.min, Math.min(rule.max, sum));
  const band = CREDIT_SCORE_BANDS.find((each) => score >= each.minScore)!;
  return { score, parts, capMultiplierPpm: band.capMultiplierPpm };
}

/** The most a borrower may owe at once: the tier cap × the score's multiplier, USDT minor units. */
export function creditCapMinor(tier: VerificationTier, score: CreditScore): bigint {
  return mulDiv(LOAN_TIER_CAP_USDT[tier] * 10n ** BigInt(LOAN_ASSET_SCALE), BigInt(score.capMultiplierPpm), PPM, 'floor');
}

/** Available credit: the cap less what the borrower already owes or has applied for; never negative. */
export function availableCreditMinor(capMinor: bigint, committedMinor: bigint): bigint {
  return capMinor > committedMinor ? capMinor - committedMinor : 0n;
}

export type LoanApplicationProblem = 'amount_wrong' | 'quota_insufficient';

/**
 * An application's amount against the product's range ("loan amount wrong") and against the least
 * of the pledge's credit and the borrower's available credit ("loan quota insufficient").
 */
export function loanApplicationProblem(
  terms: Pick<LoanTerms, 'minAmountMinor' | 'maxAmountMinor'>,
  amountMinor: bigint,
  limits: { pledgeCreditMinor: bigint; availableCreditMinor: bigint },
): LoanApplicationProblem | null {
  if (amountMinor < terms.minAmountMinor || amountMinor > terms.maxAmountMinor) return 'amount_wrong';
  if (amountMinor > limits.pledgeCreditMinor || amountMinor > limits.availableCreditMinor) return 'quota_insufficient';
  return null;
}
