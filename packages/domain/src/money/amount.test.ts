import { describe, expect, it } from 'vitest';
import { AmountError, convertForPayout, feeOf, formatAmount, mulDiv, parseAmount, parsePositiveAmount } from './amount.ts';

describe('parseAmount', () => {
  it('reads decimals into minor units at the asset scale', () => {
    expect(parseAmount('12.5', 6)).toBe(12_500_000n);
    expect(parseAmount('0.000001', 6)).toBe(1n);
    expect(parseAmount('1', 18)).toBe(10n ** 18n);
    expect(parseAmount('0.10000000', 6)).toBe(100_000n); // trailing zeros beyond the scale are harmless
    expect(parseAmount('007', 2)).toBe(700n);
    expect(parseAmount('5', 0)).toBe(5n);
  });

  it.each([
    ['', 'format'],
    ['-1', 'format'],
    ['+1', 'format'],
    ['1e3', 'format'],
    ['1,5', 'format'],
    [' 1', 'format'],
    ['1.', 'format'],
    ['.5', 'format'],
    ['0x10', 'format'],
    ['0.0000001', 'too_many_decimals'],
    ['1'.repeat(31), 'too_large'],
  ])('refuses %j (%s)', (text, problem) => {
    expect(() => parseAmount(text, 6)).toThrow(AmountError);
    try {
      parseAmount(text, 6);
    } catch (error) {
      expect((error as AmountError).problem).toBe(problem);
    }
  });

  it('requires a positive amount where one is moved', () => {
    expect(() => parsePositiveAmount('0.000', 6)).toThrow(/not_positive/);
    expect(parsePositiveAmount('0.000001', 6)).toBe(1n);
  });
});

describe('formatAmount', () => {
  it('writes every decimal of the scale', () => {
    expect(formatAmount(12_500_000n, 6)).toBe('12.500000');
    expect(formatAmount(1n, 8)).toBe('0.00000001');
    expect(formatAmount(0n, 2)).toBe('0.00');
    expect(formatAmount(-150n, 2)).toBe('-1.50');
    expect(formatAmount(42n, 0)).toBe('42');
    expect(formatAmount(10n ** 30n, 18)).toBe('1000000000000.000000000000000000');
  });

  it('round-trips with parseAmount for many seeded values', () => {
    let state = 0x9e3779b9n;
    const next = () => {
      state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return state;
    };
    for (let i = 0; i < 2_000; i += 1) {
      const scale = Number(next() % 19n);
      // Up to 30 whole digits at any scale: the largest amount the parser accepts.
      const minor = (next() * next()) % 10n ** BigInt(30 + scale);
      expect(parseAmount(formatAmount(minor, scale), scale)).toBe(minor);
    }
  });
});

describe('rounding', () => {
  it('mulDiv rounds towards minus or plus infinity for every sign', () => {
    expect(mulDiv(7n, 1n, 2n, 'floor')).toBe(3n);
    expect(mulDiv(7n, 1n, 2n, 'ceil')).toBe(4n);
    expect(mulDiv(-7n, 1n, 2n, 'floor')).toBe(-4n);
    expect(mulDiv(-7n, 1n, 2n, 'ceil')).toBe(-3n);
    expect(mulDiv(7n, 1n, -2n, 'floor')).toBe(-4n);
    expect(mulDiv(6n, 1n, 2n, 'ceil')).toBe(3n);
    expect(() => mulDiv(1n, 1n, 0n, 'floor')).toThrow(RangeError);
  });

  it('fees round up: 0.1 % of 1 minor unit is still 1 minor unit', () => {
    expect(feeOf(1n, 10n)).toBe(1n);
    expect(feeOf(10_000n, 10n)).toBe(10n);
    expect(feeOf(10_001n, 10n)).toBe(11n);
    expect(feeOf(0n, 10n)).toBe(0n);
    expect(() => feeOf(-1n, 10n)).toThrow(RangeError);
  });

  it('payouts round down across scales', () => {
    // 1 BTC (scale 8) at 64,000.123456 USDT per BTC → USDT (scale 6).
    const rate = { numerator: 64_000_123_456n, denominator: 1_000_000n };
    expect(convertForPayout(100_000_000n, { scale: 8 }, { scale: 6 }, rate)).toBe(64_000_123_456n);
    // 1 satoshi is worth 0.00064000123456 USDT: the user gets 0.000640, never 0.000641.
    expect(convertForPayout(1n, { scale: 8 }, { scale: 6 }, rate)).toBe(640n);
    // USDT (6) → ETH (18) at 1/3,000 ETH per USDT.
    expect(convertForPayout(1_000_000n, { scale: 6 }, { scale: 18 }, { numerator: 1n, denominator: 3_000n })).toBe(333_333_333_333_333n);
  });
});
