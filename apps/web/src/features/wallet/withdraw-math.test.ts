import { describe, expect, it } from 'vitest';
import { maxWithdrawable, totalWithFee } from './withdraw-math.ts';

describe('totalWithFee', () => {
  it('adds the fee exactly at the asset scale', () => {
    expect(totalWithFee('10', '1', 6)).toBe('11.000000');
    expect(totalWithFee('0.1', '0.2', 6)).toBe('0.300000');
    expect(totalWithFee('0.00010000', '0.00005', 8)).toBe('0.00015000');
  });
});

describe('maxWithdrawable', () => {
  it('leaves room for the fee', () => {
    expect(maxWithdrawable('100.000000', '1.000000', 6)).toBe('99.000000');
    expect(maxWithdrawable('0.00100000', '0.00050000', 8)).toBe('0.00050000');
  });

  it('is null when the balance does not cover more than the fee', () => {
    expect(maxWithdrawable('1.000000', '1.000000', 6)).toBeNull();
    expect(maxWithdrawable('0', '1', 6)).toBeNull();
    expect(maxWithdrawable('oops', '1', 6)).toBeNull();
  });
});
