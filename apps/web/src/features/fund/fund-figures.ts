import type { ContractData, FundRequestView, getFundOverviewContract } from '@keel/contracts';
import {
  AmountError,
  collateralCoverPpm,
  collateralCreditMinor,
  collateralValueMinor,
  DAY_MS,
  defaultAssets,
  type FundRating,
  type FundTermsProblem,
  formatAmount,
  fundInterestMinor,
  fundTermsProblem,
  LOAN_ASSET_SCALE,
  PRICE_SCALE,
  parseAmount,
  parsePositiveAmount,
  releaseSchedule,
} from '@keel/domain';

// The fund screens' figures (issue 18, ADR 0037), computed with the domain's functions — the ones
// the server applies — so what the publish and invest forms show live is what the server then
// records. Amounts are decimal strings at the asset's scale, as the API sends them.

type Overview = ContractData<typeof getFundOverviewContract>;
export type FundPolicy = Overview['policy'];
type Price = Overview['prices'][number];

const PERCENT_SCALE = 4;
const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

/** Decimals of an asset (USDT 6, BTC 8, ETH 18). */
export function fundAssetScale(asset: string): number {
  return defaultAssets.find((each) => each.code === asset)?.scale ?? 6;
}

function minorOf(text: string | null | undefined, scale: number, positive: boolean): bigint | null {
  if (text === null || text === undefined || text === '') return null;
  try {
    return positive ? parsePositiveAmount(text, scale) : parseAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

/** A percent with up to four decimals as parts per million ("0.05" → 500), as the server reads a rate; null when it is not one. */
export function percentToPpm(text: string | null | undefined): number | null {
  const minor = minorOf(text, PERCENT_SCALE, false);
  return minor === null ? null : Number(minor);
}

/** A whole number as typed ("30"), or null. */
export function wholeOf(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : null;
}

/** The recorded price of a collateral asset in 8-decimal minor units (USDT is 1), or null when none was recorded. */
export function fundPriceMinor(asset: string, prices: readonly Price[]): bigint | null {
  if (asset === 'USDT') return 10n ** BigInt(PRICE_SCALE);
  const price = prices.find((each) => each.asset === asset)?.price ?? null;
  return minorOf(price, PRICE_SCALE, true);
}

/** The rating a score reaches in the published bands (the first reached applies), or null with no band. */
export function creditRatingFrom(score: number, bands: FundPolicy['creditRatingBands']): FundRating | null {
  return [...bands].sort((a, b) => b.minScore - a.minScore).find((band) => score >= band.minScore)?.rating ?? null;
}

/** The rating a collateral cover (ppm) reaches in the published bands (percent texts). */
export function investmentRatingFrom(coverPpm: number, bands: FundPolicy['investmentRatingBands']): FundRating | null {
  const withPpm = bands.map((band) => ({ rating: band.rating, minPpm: percentToPpm(band.minCoverPercent) ?? Number.MAX_SAFE_INTEGER }));
  return withPpm.sort((a, b) => b.minPpm - a.minPpm).find((band) => coverPpm >= band.minPpm)?.rating ?? null;
}

/** A ppm figure as a percent text with up to four decimals: 1_500_000 → "150". */
export function ppmToPercent(ppm: number): string {
  return formatAmount(BigInt(Math.trunc(ppm)), PERCENT_SCALE).replace(/\.?0+$/, '') || '0';
}

/** What the publish form holds, as typed (already normalised). */
export interface PublishChoice {
  amount: string;
  dailyRatePercent: string;
  termDays: string;
  tranches: string;
  releasePeriodDays: string;
  windowHours: string;
  collateralAsset: string;
  collateralAmount: string;
}

export interface ScheduledTranche {
  number: number;
  amount: string;
  /** Days after the fill it is released. */
  afterDays: number;
}

export interface PublishEstimate {
  /** amount × daily rate × term days, rounded down; null without a valid amount, rate and term. */
  interest: string | null;
  totalDue: string | null;
  /** Equal tranches (the last takes the remainder), the first at the fill, one every period after. */
  schedule: ScheduledTranche[] | null;
  /** The collateral's value at the latest recorded price; null without an amount or a price. */
  collateralValue: string | null;
  ltvPercent: string | null;
  /** The collateral's value × its published LTV. */
  creditLimit: string | null;
  /** The collateral's value ÷ the total due, percent: the investment rating's input. */
  coverPercent: string | null;
  investmentRating: FundRating | null;
  /** The borrower's credit score (the loans' rule) and the rating its band gives. */
  creditRating: FundRating | null;
  /** The domain's objection to the terms, or `aboveLimit` when the amount is more than the collateral backs. */
  problem: FundTermsProblem | 'aboveLimit' | null;
}

/** The live figures of a request being written, by the rules the server applies when it is published. */
export function publishEstimate(choice: PublishChoice, context: { policy: FundPolicy; prices: readonly Price[]; creditScore: number | null }): PublishEstimate {
  const amountMinor = minorOf(choice.amount, LOAN_ASSET_SCALE, true);
  const ratePpm = percentToPpm(choice.dailyRatePercent);
  const termDays = wholeOf(choice.termDays);
  const tranches = wholeOf(choice.tranches);
  const periodDays = wholeOf(choice.releasePeriodDays) ?? (tranches === 1 ? 0 : null);
  const windowHours = wholeOf(choice.windowHours);
  const scale = fundAssetScale(choice.collateralAsset);
  const collateralMinor = minorOf(choice.collateralAmount, scale, true);
  const priceMinor = fundPriceMinor(choice.collateralAsset, context.prices);
  const ltvPercent = context.policy.collateralLtvPercent[choice.collateralAsset] ?? null;
  const ltvPpm = percentToPpm(ltvPercent);

  const interestMinor = amountMinor !== null && ratePpm !== null && termDays !== null ? fundInterestMinor({ amountMinor, dailyRatePpm: ratePpm, termDays }) : null;
  const totalMinor = interestMinor === null || amountMinor === null ? null : amountMinor + interestMinor;
  const schedule =
    amountMinor !== null && tranches !== null && tranches >= 1 && tranches <= 100 && periodDays !== null
      ? trancheSchedule(amountMinor, tranches, periodDays)
      : null;
  const valueMinor = collateralMinor !== null && priceMinor !== null ? collateralValueMinor(choice.collateralAsset, collateralMinor, scale, priceMinor) : null;
  const limitMinor = valueMinor !== null && ltvPpm !== null ? collateralCreditMinor(valueMinor, ltvPpm) : null;
  const coverPpm = valueMinor !== null && totalMinor !== null ? collateralCoverPpm(valueMinor, totalMinor) : null;

  let problem: PublishEstimate['problem'] = null;
  if (amountMinor !== null && ratePpm !== null && termDays !== null && tranches !== null && periodDays !== null && windowHours !== null) {
    problem = fundTermsProblem({ amountMinor, dailyRatePpm: ratePpm, termDays, tranches, releasePeriodDays: periodDays, windowHours });
  }
  if (problem === null && amountMinor !== null && limitMinor !== null && amountMinor > limitMinor) problem = 'aboveLimit';

  return {
    interest: interestMinor === null ? null : usdt(interestMinor),
    totalDue: totalMinor === null ? null : usdt(totalMinor),
    schedule,
    collateralValue: valueMinor === null ? null : usdt(valueMinor),
    ltvPercent,
    creditLimit: limitMinor === null ? null : usdt(limitMinor),
    coverPercent: coverPpm === null ? null : ppmToPercent(coverPpm),
    investmentRating: coverPpm === null ? null : investmentRatingFrom(coverPpm, context.policy.investmentRatingBands),
    creditRating: context.creditScore === null ? null : creditRatingFrom(context.creditScore, context.policy.creditRatingBands),
    problem,
  };
}

/** The release schedule relative to the fill: the domain's `releaseSchedule` (equal parts, the remainder in the last). */
export function trancheSchedule(amountMinor: bigint, tranches: number, periodDays: number): ScheduledTranche[] {
  return releaseSchedule(amountMinor, tranches, periodDays, 0).map((tranche) => ({
    number: tranche.number,
    amount: usdt(tranche.amountMinor),
    afterDays: Math.round(tranche.releaseAtMs / DAY_MS),
  }));
}

/** The days after the fill a tranche of a published request is due (its own schedule, or its number). */
export function trancheAfterDays(request: Pick<FundRequestView, 'releasePeriodDays' | 'filledAtMs'>, tranche: { number: number; releaseAtMs: number | null }): number {
  if (request.filledAtMs !== null && tranche.releaseAtMs !== null) return Math.round((tranche.releaseAtMs - request.filledAtMs) / DAY_MS);
  return (tranche.number - 1) * request.releasePeriodDays;
}

/** How much of a request is raised, percent (0–100, whole), for the progress bar. */
export function raisedPercent(request: Pick<FundRequestView, 'amount' | 'raised'>): number {
  const amount = minorOf(request.amount, LOAN_ASSET_SCALE, true);
  const raised = minorOf(request.raised, LOAN_ASSET_SCALE, false);
  if (amount === null || raised === null) return 0;
  const percent = Number((raised * 100n) / amount);
  return Math.max(0, Math.min(100, percent));
}

export type InvestProblem = 'tooSmall' | 'overRemaining';

export interface InvestEstimate {
  /** The pro-rata share of the total due: amount × total due ÷ amount asked, rounded down. */
  expectedReturn: string | null;
  problem: InvestProblem | null;
}

/**
 * An investment of `amount` into a request: at most what remains, at least the published minimum
 * unless it fills the rest; its expected return if the request fills and is repaid.
 */
export function investEstimate(request: Pick<FundRequestView, 'amount' | 'totalDue' | 'remaining'>, amount: string, minInvestment: string): InvestEstimate {
  const investMinor = minorOf(amount, LOAN_ASSET_SCALE, true);
  const askedMinor = minorOf(request.amount, LOAN_ASSET_SCALE, true);
  const totalMinor = minorOf(request.totalDue, LOAN_ASSET_SCALE, false);
  const remainingMinor = minorOf(request.remaining, LOAN_ASSET_SCALE, false) ?? 0n;
  const minMinor = minorOf(minInvestment, LOAN_ASSET_SCALE, false) ?? 0n;
  if (investMinor === null) return { expectedReturn: null, problem: null };
  const problem: InvestProblem | null = investMinor > remainingMinor ? 'overRemaining' : investMinor < minMinor && investMinor !== remainingMinor ? 'tooSmall' : null;
  const expected = askedMinor !== null && totalMinor !== null ? (investMinor * totalMinor) / askedMinor : null;
  return { expectedReturn: expected === null ? null : usdt(expected), problem };
}

/** Whether a decimal text is zero (or not a number at all). */
export function isZero(text: string | null | undefined): boolean {
  return text === null || text === undefined || /^0*(\.0*)?$/.test(text);
}
