import { DAY_MS } from '../market/ticker.ts';
import { mulDiv } from '../money/amount.ts';
import { collateralCreditMinor, type CreditScore, LOAN_ASSET_SCALE, loanInterestMinor } from '../loans/loans.ts';

/**
 * The fund section (issue 18, ADR 0037): a borrower with advanced verification publishes a funding
 * request backed by collateral; compliance reviews it; other users invest from their balance until
 * it is filled or its window ends; filled, the amount is released to the borrower in tranches; at
 * term the borrower's principal and interest go to every investor pro rata, or, if the borrower's
 * coin account cannot pay, the collateral is sold at a recorded price and paid out the same way.
 * Every rule here, with worked examples in fund.test.ts.
 */

export const FUND_BORROWER_TYPES = ['institution', 'individual'] as const;
export type FundBorrowerType = (typeof FUND_BORROWER_TYPES)[number];

export const FUND_REQUEST_STATUSES = ['review', 'rejected', 'open', 'expired', 'funded', 'repaid', 'defaulted'] as const;
export type FundRequestStatus = (typeof FUND_REQUEST_STATUSES)[number];

/** The loan-to-value each collateral asset backs a request at (published beside the loan products'). */
export const FUND_COLLATERAL_LTV_PPM: Readonly<Record<string, number>> = { BTC: 650_000, ETH: 600_000, USDT: 900_000 };

/** Published bounds of a request. */
export const FUND_LIMITS = {
  minAmountMinor: 100n * 10n ** BigInt(LOAN_ASSET_SCALE),
  maxAmountMinor: 1_000_000n * 10n ** BigInt(LOAN_ASSET_SCALE),
  /** A daily rate of at most 0.5 %. */
  maxDailyRatePpm: 5_000,
  minTermDays: 1,
  maxTermDays: 365,
  maxTranches: 12,
  /** How long a request stays in the pool to be filled, hours. */
  minWindowHours: 1,
  maxWindowHours: 24 * 14,
  /** The smallest investment. */
  minInvestmentMinor: 10n * 10n ** BigInt(LOAN_ASSET_SCALE),
} as const;

export interface FundTerms {
  amountMinor: bigint;
  dailyRatePpm: number;
  termDays: number;
  tranches: number;
  releasePeriodDays: number;
  windowHours: number;
}

export type FundTermsProblem = 'amount' | 'rate' | 'term' | 'schedule' | 'window';

/** Why a request's terms are not publishable, or null. The last tranche must be released before the term ends. */
export function fundTermsProblem(terms: FundTerms): FundTermsProblem | null {
  if (terms.amountMinor < FUND_LIMITS.minAmountMinor || terms.amountMinor > FUND_LIMITS.maxAmountMinor) return 'amount';
  if (!Number.isInteger(terms.dailyRatePpm) || terms.dailyRatePpm < 0 || terms.dailyRatePpm > FUND_LIMITS.maxDailyRatePpm) return 'rate';
  if (!Number.isInteger(terms.termDays) || terms.termDays < FUND_LIMITS.minTermDays || terms.termDays > FUND_LIMITS.maxTermDays) return 'term';
  if (!Number.isInteger(terms.tranches) || terms.tranches < 1 || terms.tranches > FUND_LIMITS.maxTranches) return 'schedule';
  if (!Number.isInteger(terms.releasePeriodDays) || terms.releasePeriodDays < 0 || (terms.tranches > 1 && terms.releasePeriodDays < 1)) return 'schedule';
  if ((terms.tranches - 1) * terms.releasePeriodDays >= terms.termDays) return 'schedule';
  if (!Number.isInteger(terms.windowHours) || terms.windowHours < FUND_LIMITS.minWindowHours || terms.windowHours > FUND_LIMITS.maxWindowHours) return 'window';
  return null;
}

/** Interest of a request: amount × daily rate × term days, rounded down (as a loan's). */
export function fundInterestMinor(terms: Pick<FundTerms, 'amountMinor' | 'dailyRatePpm' | 'termDays'>): bigint {
  return loanInterestMinor(terms.amountMinor, terms.dailyRatePpm, terms.termDays);
}

/**
 * Splits `totalMinor` over shares pro rata: each gets total × share ÷ all shares rounded down, and
 * the last share the remainder, so the parts always add up to the total exactly.
 */
export function proRataSplit(totalMinor: bigint, shares: readonly bigint[]): bigint[] {
  if (shares.length === 0) throw new RangeError('no shares to split over');
  if (totalMinor < 0n || shares.some((share) => share <= 0n)) throw new RangeError('a split is of a non-negative total over positive shares');
  const sum = shares.reduce((a, b) => a + b, 0n);
  const parts = shares.map((share) => mulDiv(totalMinor, share, sum, 'floor'));
  const given = parts.reduce((a, b) => a + b, 0n);
  parts[parts.length - 1] = parts[parts.length - 1]! + (totalMinor - given);
  return parts;
}

export interface Tranche {
  /** 1-based. */
  number: number;
  amountMinor: bigint;
  releaseAtMs: number;
}

/** The release schedule from the fill: equal tranches (the last takes the remainder), the first at the fill, one every period after. */
export function releaseSchedule(amountMinor: bigint, tranches: number, releasePeriodDays: number, filledAtMs: number): Tranche[] {
  const parts = proRataSplit(amountMinor, Array.from({ length: tranches }, () => 1n));
  return parts.map((part, index) => ({ number: index + 1, amountMinor: part, releaseAtMs: filledAtMs + index * releasePeriodDays * DAY_MS }));
}

/** When a filled request is due: the term in whole days after the fill. */
export function fundDueAtMs(filledAtMs: number, termDays: number): number {
  return filledAtMs + termDays * DAY_MS;
}

/** The credit limit of a request: its collateral's value at the recorded price × the asset's LTV. */
export function fundCreditLimitMinor(collateralValueMinor: bigint, asset: string): bigint {
  const ltv = FUND_COLLATERAL_LTV_PPM[asset];
  if (ltv === undefined) throw new RangeError(`${asset} is not accepted as collateral`);
  return collateralCreditMinor(collateralValueMinor, ltv);
}

export type FundRating = 'A' | 'B' | 'C' | 'D';

/** The credit rating's bands over the borrower's credit score (the loans' published rule); the first reached applies. */
export const FUND_CREDIT_RATING_BANDS: readonly { rating: FundRating; minScore: number }[] = [
  { rating: 'A', minScore: 800 },
  { rating: 'B', minScore: 700 },
  { rating: 'C', minScore: 500 },
  { rating: 'D', minScore: 0 },
];

/** The investment rating's bands over the collateral cover, ppm; the first reached applies. */
export const FUND_INVESTMENT_RATING_BANDS: readonly { rating: FundRating; minCoverPpm: number }[] = [
  { rating: 'A', minCoverPpm: 2_000_000 },
  { rating: 'B', minCoverPpm: 1_500_000 },
  { rating: 'C', minCoverPpm: 1_200_000 },
  { rating: 'D', minCoverPpm: 0 },
];

/** The credit rating: the borrower's credit score in bands — A ≥ 800, B ≥ 700, C ≥ 500, D below. */
export function creditRatingOf(score: CreditScore): FundRating {
  return FUND_CREDIT_RATING_BANDS.find((band) => score.score >= band.minScore)!.rating;
}

/** Collateral cover ppm: the collateral's value ÷ what is due at term (amount + interest), rounded down. */
export function collateralCoverPpm(collateralValueMinor: bigint, totalDueMinor: bigint): number {
  if (totalDueMinor <= 0n) return 0;
  return Number(mulDiv(collateralValueMinor, 1_000_000n, totalDueMinor, 'floor'));
}

/** The investment rating: collateral cover in bands — A ≥ 200 %, B ≥ 150 %, C ≥ 120 %, D below. */
export function investmentRatingOf(coverPpm: number): FundRating {
  return FUND_INVESTMENT_RATING_BANDS.find((band) => coverPpm >= band.minCoverPpm)!.rating;
}

export type InvestmentProblem = 'too_small' | 'over_remaining';

/** An investment against a request's remaining amount: at least the published minimum (or all that remains, if less), never more than remains. */
export function investmentProblem(amountMinor: bigint, remainingMinor: bigint): InvestmentProblem | null {
  if (amountMinor > remainingMinor) return 'over_remaining';
  if (amountMinor < FUND_LIMITS.minInvestmentMinor && amountMinor !== remainingMinor) return 'too_small';
  return null;
}
