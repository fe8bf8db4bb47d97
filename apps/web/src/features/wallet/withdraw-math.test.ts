import { describe, expect, it } from 'vitest';
import { maxWithdrawable, totalWithFee, withdrawAmountProblem } from './withdraw-math.ts';

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

describe('withdrawAmountProblem', () => {
  const context = { scale: 6, fee: '1.000000', min: '10.000000', available: '50.000000' };

  it('passes an amount between the minimum and the balance less the fee', () => {
    expect(withdrawAmountProblem('10', context)).toBeNull();
    expect(withdrawAmountProblem('49', context)).toBeNull();
    expect(withdrawAmountProblem('48,5', context)).toBeNull();
  });

  it('names each problem', () => {
    expect(withdrawAmountProblem('', context)).toBe('required');
    expect(withdrawAmountProblem('1e3', context)).toBe('format');
    expect(withdrawAmountProblem('10.0000001', context)).toBe('tooManyDecimals');
    expect(withdrawAmountProblem('0', context)).toBe('notPositive');
    expect(withdrawAmountProblem('9.99', context)).toBe('belowMin');
    expect(withdrawAmountProblem('49.000001', context)).toBe('aboveAvailableWithFee');
  });

  it('skips the balance check while the balance is unknown', () => {
    expect(withdrawAmountProblem('1000', { ...context, available: undefined })).toBeNull();
  });
});
