import { describe, expect, it } from 'vitest';
import { parseAmount } from '../money/amount.ts';
import { PRICE_SCALE, parsePriceMinor } from '../market/price.ts';
import { priceSwap, RATE_SCALE, SwapPricingError, usdtSymbolOf } from './quote.ts';
import { DEFAULT_VIP_LEVELS, vipTermsOf } from '../vip/levels.ts';

const USDT = { code: 'USDT', scale: 6 };
const BTC = { code: 'BTC', scale: 8 };
const ETH = { code: 'ETH', scale: 18 };
const base = { priceScale: PRICE_SCALE, spreadBps: 20n, feeBps: 10n };

describe('priceSwap', () => {
  it('sells 1 BTC at 90,000 with a 0.2 % spread and a 0.1 % fee', () => {
    const priced = priceSwap({
      ...base,
      from: BTC,
      to: USDT,
      amountMinor: parseAmount('1', 8),
      fromPriceMinor: parsePriceMinor('90000'),
      toPriceMinor: 0n,
    });
    expect(priced.midRateMinor).toBe(90_000n * 10n ** BigInt(RATE_SCALE));
    // 90,000 × (1 − 0.002) = 89,820
    expect(priced.rateMinor).toBe(89_820n * 10n ** BigInt(RATE_SCALE));
    expect(priced.grossReceiveMinor).toBe(parseAmount('89820', 6));
    // 0.1 % of 89,820 = 89.82
    expect(priced.feeMinor).toBe(parseAmount('89.82', 6));
    expect(priced.receiveMinor).toBe(parseAmount('89730.18', 6));
  });

  it('buys BTC with USDT: the rate is rounded down at 12 decimals and the receipt follows the shown rate', () => {
    const priced = priceSwap({
      ...base,
      from: USDT,
      to: BTC,
      amountMinor: parseAmount('100', 6),
      fromPriceMinor: 0n,
      toPriceMinor: parsePriceMinor('90000'),
    });
    // 1 / 90,000 = 0.0000111111111111… → 0.000011111111 (floor at 12 decimals)
    expect(priced.midRateMinor).toBe(11_111_111n);
    // × 0.998 = 0.000011088888889 → floor → 0.000011088888
    expect(priced.rateMinor).toBe(11_088_888n);
    // 100 × 0.000011088888 = 0.0011088888 BTC → floor at 8 decimals = 0.00110888
    expect(priced.grossReceiveMinor).toBe(110_888n);
    // fee 0.1 % of 110,888 sat = 110.888 → ceil → 111 sat
    expect(priced.feeMinor).toBe(111n);
    expect(priced.receiveMinor).toBe(110_777n);
  });

  it('takes the VIP discount off the fee, rounding the discount down (ADR 0046)', () => {
    const plain = { ...base, from: USDT, to: BTC, amountMinor: parseAmount('100', 6), fromPriceMinor: 0n, toPriceMinor: parsePriceMinor('90000') };
    // fee 111 sat before the discount; VIP 2 takes 20 %: 22.2 → 22 sat off, 89 sat charged.
    const priced = priceSwap({ ...plain, vip: vipTermsOf(2, DEFAULT_VIP_LEVELS) });
    expect(priced).toMatchObject({ feeBeforeDiscountMinor: 111n, vipLevel: 2, discountBps: 2_000, discountMinor: 22n, feeMinor: 89n });
    expect(priced.receiveMinor).toBe(110_888n - 89n);
    expect(priceSwap(plain)).toMatchObject({ feeBeforeDiscountMinor: 111n, vipLevel: 0, discountBps: 0, discountMinor: 0n, feeMinor: 111n });
  });

  it('crosses two priced assets (ETH → BTC) through USDT', () => {
    const priced = priceSwap({
      ...base,
      spreadBps: 0n,
      feeBps: 0n,
      from: ETH,
      to: BTC,
      amountMinor: parseAmount('3', 18),
      fromPriceMinor: parsePriceMinor('3000'),
      toPriceMinor: parsePriceMinor('90000'),
    });
    // 3,000 / 90,000 = 0.033333333333 (12 decimals); 3 ETH → 0.099999999999 → 0.09999999 BTC
    expect(priced.midRateMinor).toBe(33_333_333_333n);
    expect(priced.grossReceiveMinor).toBe(9_999_999n);
    expect(priced.feeMinor).toBe(0n);
  });

  it('never pays more than the mid value: receipt ≤ amount × mid for many amounts', () => {
    for (let step = 1n; step < 2_000n; step += 37n) {
      const amountMinor = step * 123_457n;
      const priced = priceSwap({
        ...base,
        from: USDT,
        to: ETH,
        amountMinor,
        fromPriceMinor: 0n,
        toPriceMinor: parsePriceMinor('3123.45678901'),
      });
      // Exact mid value in ETH wei: amount[USDT micro] × 10^18 / (10^6 × price) with price = 3123.45678901.
      const exactWeiTimesPrice = amountMinor * 10n ** 18n * 10n ** 8n;
      const midValueWei = exactWeiTimesPrice / (10n ** 6n * parsePriceMinor('3123.45678901'));
      expect(priced.receiveMinor + priced.feeMinor).toBeLessThanOrEqual(midValueWei);
      expect(priced.feeMinor * 1000n).toBeGreaterThanOrEqual(priced.grossReceiveMinor);
    }
  });

  it('refuses a receipt that would round to nothing', () => {
    expect(() =>
      priceSwap({ ...base, from: USDT, to: BTC, amountMinor: 1n, fromPriceMinor: 0n, toPriceMinor: parsePriceMinor('90000') }),
    ).toThrow(SwapPricingError);
  });

  it('refuses the same asset on both sides and a missing price', () => {
    expect(() => priceSwap({ ...base, from: BTC, to: BTC, amountMinor: 1n, fromPriceMinor: 1n, toPriceMinor: 1n })).toThrow(
      /same_asset/,
    );
    expect(() => priceSwap({ ...base, from: BTC, to: USDT, amountMinor: 1n, fromPriceMinor: 0n, toPriceMinor: 0n })).toThrow(
      /bad_price/,
    );
  });

  it('names the USDT market of an asset', () => {
    expect(usdtSymbolOf('BTC')).toBe('BTC/USDT');
    expect(usdtSymbolOf('USDT')).toBeUndefined();
  });
});
