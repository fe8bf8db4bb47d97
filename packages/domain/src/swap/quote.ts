import { BPS_PER_WHOLE, feeOf, mulDiv } from '../money/amount.ts';
import type { AssetSpec } from '../money/assets.ts';
import { discountFee, type VipTerms } from '../vip/levels.ts';

/**
 * Swap (flash exchange) pricing, pure. Every asset is priced in USDT by a recorded tick
 * (`<ASSET>/USDT`); USDT itself is worth exactly 1. The mid rate of A→B is price(A) / price(B).
 *
 * Rates are decimals with RATE_SCALE digits, rounded down, and the receipt is computed from the
 * *shown* rate, so a user can check `amount × rate = gross` and `gross − fee = receipt` with the
 * numbers on the screen. Rounding always favours the user's counterparty by at most one minor
 * unit: rates and the gross receipt round down, the fee rounds up (ADR 0004).
 */
export const RATE_SCALE = 12;
const RATE_ONE = 10n ** BigInt(RATE_SCALE);

/** The swap fee: spec section 9, trading fee 0.1 %. */
export const SWAP_FEE_BPS = 10n;

/** The asset every price is quoted in. */
export const QUOTE_ASSET = 'USDT';

export interface SwapPricingInput {
  from: AssetSpec;
  to: AssetSpec;
  /** What the user gives, in `from` minor units; positive. */
  amountMinor: bigint;
  /** USDT per one unit of `from` / `to`, at PRICE_SCALE (8 decimals); ignored for USDT. */
  fromPriceMinor: bigint;
  toPriceMinor: bigint;
  /** Price scale of the two prices above. */
  priceScale: number;
  spreadBps: bigint;
  feeBps: bigint;
  /** The user's VIP level at quote time (ADR 0046); its discount comes off the fee. Level 0 when absent. */
  vip?: VipTerms;
}

export interface SwapPricing {
  /** `to` per one `from`, at RATE_SCALE, rounded down. */
  midRateMinor: bigint;
  /** The mid rate less the spread, at RATE_SCALE, rounded down. */
  rateMinor: bigint;
  /** amount × rate in `to` minor units, rounded down. */
  grossReceiveMinor: bigint;
  /** fee on the gross receipt, rounded up, before the VIP discount. */
  feeBeforeDiscountMinor: bigint;
  /** the VIP level's discount on the fee, basis points of the fee, and the amount (rounded down). */
  vipLevel: number;
  discountBps: number;
  discountMinor: bigint;
  /** the fee charged: before the discount less the discount. */
  feeMinor: bigint;
  /** What the user receives. */
  receiveMinor: bigint;
}

export class SwapPricingError extends Error {
  readonly problem: 'same_asset' | 'bad_price' | 'bad_rate' | 'receipt_not_positive';
  constructor(problem: SwapPricingError['problem']) {
    super(`swap cannot be priced: ${problem}`);
    this.name = 'SwapPricingError';
    this.problem = problem;
  }
}

export function priceSwap(input: SwapPricingInput): SwapPricing {
  if (input.from.code === input.to.code) throw new SwapPricingError('same_asset');
  if (input.amountMinor <= 0n) throw new RangeError('swap amount must be positive');
  if (input.spreadBps < 0n || input.spreadBps >= BPS_PER_WHOLE || input.feeBps < 0n || input.feeBps >= BPS_PER_WHOLE) {
    throw new SwapPricingError('bad_rate');
  }
  const priceOne = 10n ** BigInt(input.priceScale);
  const fromPrice = input.from.code === QUOTE_ASSET ? priceOne : input.fromPriceMinor;
  const toPrice = input.to.code === QUOTE_ASSET ? priceOne : input.toPriceMinor;
  if (fromPrice <= 0n || toPrice <= 0n) throw new SwapPricingError('bad_price');

  const midRateMinor = mulDiv(fromPrice, RATE_ONE, toPrice, 'floor');
  const rateMinor = mulDiv(midRateMinor, BPS_PER_WHOLE - input.spreadBps, BPS_PER_WHOLE, 'floor');
  if (rateMinor <= 0n) throw new SwapPricingError('bad_rate');
  // amount[from minor] × rate / 10^RATE_SCALE, rescaled from `from`'s decimals to `to`'s.
  const grossReceiveMinor = mulDiv(
    input.amountMinor * rateMinor,
    10n ** BigInt(input.to.scale),
    RATE_ONE * 10n ** BigInt(input.from.scale),
    'floor',
  );
  const fee = discountFee(feeOf(grossReceiveMinor, input.feeBps), input.vip);
  const feeMinor = fee.feeMinor;
  const receiveMinor = grossReceiveMinor - feeMinor;
  if (receiveMinor <= 0n) throw new SwapPricingError('receipt_not_positive');
  return {
    midRateMinor,
    rateMinor,
    grossReceiveMinor,
    feeBeforeDiscountMinor: fee.feeBeforeDiscountMinor,
    vipLevel: fee.level,
    discountBps: fee.discountBps,
    discountMinor: fee.discountMinor,
    feeMinor,
    receiveMinor,
  };
}

/** The market symbol that prices an asset in USDT, or undefined for USDT itself. */
export function usdtSymbolOf(assetCode: string): string | undefined {
  return assetCode === QUOTE_ASSET ? undefined : `${assetCode}/${QUOTE_ASSET}`;
}
