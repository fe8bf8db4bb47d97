import type { LoanView, LoansOverview } from '@keel/contracts';
import {
  AmountError,
  collateralCreditMinor,
  collateralValueMinor,
  defaultAssets,
  formatAmount,
  LOAN_ASSET_SCALE,
  type LoanApplicationProblem,
  loanApplicationProblem,
  loanInterestMinor,
  PRICE_SCALE,
  parseAmount,
  parsePositiveAmount,
} from '@keel/domain';

// The loan screens' figures (issue 18, ADR 0036), computed with the domain's functions — the ones
// the server applies — so what the application page shows live is what the agreement and the
// server then state. Amounts are decimal strings at the asset's scale, as the API sends them.

type Product = LoansOverview['products'][number];
type Price = LoansOverview['prices'][number];

/** Decimals of an asset (USDT 6, BTC 8, ETH 18). */
export function loanAssetScale(asset: string): number {
  return defaultAssets.find((each) => each.code === asset)?.scale ?? 6;
}

/** A positive amount of the asset in minor units, or null when the text is not one. */
export function positiveMinor(text: string, scale: number): bigint | null {
  try {
    return parsePositiveAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

/** An amount (zero allowed) in minor units, or null when the text is not one. */
function minorOrNull(text: string | null | undefined, scale: number): bigint | null {
  if (text === null || text === undefined) return null;
  try {
    return parseAmount(text, scale);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);
const min = (...values: bigint[]) => values.reduce((a, b) => (b < a ? b : a));

/** The recorded price of a collateral asset in 8-decimal minor units (USDT is 1), or null when none was recorded. */
export function priceMinorOf(asset: string, prices: readonly Price[]): bigint | null {
  if (asset === 'USDT') return 10n ** BigInt(PRICE_SCALE);
  const price = prices.find((each) => each.asset === asset)?.price ?? null;
  return price === null ? null : positiveMinor(price, PRICE_SCALE);
}

export interface ApplyEstimate {
  /** amount × daily rate × cycle days, rounded down; null without a valid amount. */
  interest: string | null;
  totalDue: string | null;
  /** The pledge's value at the recorded price; null without a valid collateral amount or a price. */
  collateralValue: string | null;
  /** What the pledge can borrow: its value × the asset's LTV. */
  pledgeCredit: string | null;
  /** The most this application can borrow: the least of the product's maximum, the pledge's credit and the available credit. */
  limit: string;
  /** What the server would refuse, by the domain's rule; null when nothing (yet) is wrong. */
  problem: LoanApplicationProblem | null;
}

export interface ApplyChoice {
  amount: string;
  collateralAsset: string;
  collateralAmount: string;
}

/** The live figures of an application (`amount` and `collateralAmount` as typed, already normalised). */
export function applyEstimate(product: Product, choice: ApplyChoice, context: { prices: readonly Price[]; available: string }): ApplyEstimate {
  const amountMinor = positiveMinor(choice.amount, LOAN_ASSET_SCALE);
  const term = product.collateral.find((each) => each.asset === choice.collateralAsset) ?? null;
  const collateralScale = loanAssetScale(choice.collateralAsset);
  const collateralMinor = term ? positiveMinor(choice.collateralAmount, collateralScale) : null;
  const priceMinor = term ? priceMinorOf(term.asset, context.prices) : null;
  const valueMinor = term && collateralMinor !== null && priceMinor !== null ? collateralValueMinor(term.asset, collateralMinor, collateralScale, priceMinor) : null;
  const pledgeMinor = term && valueMinor !== null ? collateralCreditMinor(valueMinor, term.ltvPpm) : null;
  const maxMinor = minorOrNull(product.maxAmount, LOAN_ASSET_SCALE) ?? 0n;
  const minMinor = minorOrNull(product.minAmount, LOAN_ASSET_SCALE) ?? 0n;
  const availableMinor = minorOrNull(context.available, LOAN_ASSET_SCALE) ?? 0n;
  const limitMinor = pledgeMinor === null ? min(maxMinor, availableMinor) : min(maxMinor, pledgeMinor, availableMinor);
  const interestMinor = amountMinor === null ? null : loanInterestMinor(amountMinor, product.dailyRatePpm, product.cycleDays);
  const problem =
    amountMinor === null
      ? null
      : loanApplicationProblem(
          { minAmountMinor: minMinor, maxAmountMinor: maxMinor },
          amountMinor,
          // Without a pledge yet, only the range and the available credit can be judged.
          { pledgeCreditMinor: pledgeMinor ?? amountMinor, availableCreditMinor: availableMinor },
        );
  return {
    interest: interestMinor === null ? null : usdt(interestMinor),
    totalDue: interestMinor === null || amountMinor === null ? null : usdt(amountMinor + interestMinor),
    collateralValue: valueMinor === null ? null : usdt(valueMinor),
    pledgeCredit: pledgeMinor === null ? null : usdt(pledgeMinor),
    limit: usdt(limitMinor),
    problem,
  };
}

/**
 * The least collateral of an asset that lets `amount` be borrowed: amount ÷ (LTV × price), rounded
 * up to the asset's smallest unit; null without a valid amount or a price.
 */
export function collateralNeeded(amount: string, term: { asset: string; ltvPpm: number }, prices: readonly Price[]): string | null {
  const amountMinor = positiveMinor(amount, LOAN_ASSET_SCALE);
  const priceMinor = priceMinorOf(term.asset, prices);
  if (amountMinor === null || priceMinor === null || term.ltvPpm <= 0) return null;
  const scale = loanAssetScale(term.asset);
  // value = collateral × price ÷ 10^(scale + 8 − 6); credit = value × ltv ÷ 10^6 ≥ amount.
  const numerator = amountMinor * 1_000_000n * 10n ** BigInt(scale + PRICE_SCALE);
  const denominator = BigInt(term.ltvPpm) * priceMinor * 10n ** BigInt(LOAN_ASSET_SCALE);
  let needed = (numerator + denominator - 1n) / denominator;
  // The domain's value rounds down: step up until the credit it gives covers the amount.
  while (collateralCreditMinor(collateralValueMinor(term.asset, needed, scale, priceMinor), term.ltvPpm) < amountMinor) needed += 1n;
  return formatAmount(needed, scale);
}

export interface RepaySplit {
  /** The interest charged and unpaid now: what is owed now less the principal left. */
  interestDue: string;
  /** What this repayment pays: interest first, then principal. */
  interest: string;
  principal: string;
  /** What is still owed after it. */
  remaining: string;
}

/**
 * How a repayment of `amount` (or the whole of what is owed now, `full`) divides: interest first,
 * then principal; null when the loan owes nothing now or the amount is not a valid one within it.
 */
export function repaySplit(loan: Pick<LoanView, 'owedNow' | 'principalOutstanding'>, amount: string, full: boolean): RepaySplit | null {
  const owed = minorOrNull(loan.owedNow, LOAN_ASSET_SCALE);
  const principalLeft = minorOrNull(loan.principalOutstanding, LOAN_ASSET_SCALE) ?? 0n;
  if (owed === null || owed <= 0n) return null;
  const interestDue = owed > principalLeft ? owed - principalLeft : 0n;
  const paying = full ? owed : positiveMinor(amount, LOAN_ASSET_SCALE);
  if (paying === null || paying > owed) return null;
  const interest = paying < interestDue ? paying : interestDue;
  return { interestDue: usdt(interestDue), interest: usdt(interest), principal: usdt(paying - interest), remaining: usdt(owed - paying) };
}

/** Whether `amount` is more than what the loan owes now. */
export function aboveOwed(loan: Pick<LoanView, 'owedNow'>, amount: string): boolean {
  const owed = minorOrNull(loan.owedNow, LOAN_ASSET_SCALE);
  const paying = positiveMinor(amount, LOAN_ASSET_SCALE);
  return owed !== null && paying !== null && paying > owed;
}
