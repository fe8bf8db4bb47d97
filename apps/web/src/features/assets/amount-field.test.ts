import { describe, expect, it } from 'vitest';
import { amountField, amountProblem, amountProblemOfMessage } from './amount-field.ts';

describe('amountProblem', () => {
  it('names what the domain refuses: format, the asset scale, zero', () => {
    expect(amountProblem('12.5', { scale: 6 })).toBeNull();
    expect(amountProblem('1e3', { scale: 6 })).toBe('format');
    expect(amountProblem('-1', { scale: 6 })).toBe('format');
    expect(amountProblem('1'.repeat(31), { scale: 6 })).toBe('format');
    expect(amountProblem('0.000000001', { scale: 8 })).toBe('tooManyDecimals');
    // Trailing zeros are not decimals the asset lacks.
    expect(amountProblem('0.100000000', { scale: 8 })).toBeNull();
    expect(amountProblem('0', { scale: 6 })).toBe('notPositive');
  });

  it('checks the balance only when it is known', () => {
    expect(amountProblem('50.000001', { scale: 6, available: '50.000000' })).toBe('aboveAvailable');
    expect(amountProblem('50', { scale: 6, available: '50.000000' })).toBeNull();
    expect(amountProblem('1000', { scale: 6 })).toBeNull();
  });

  it('checks a withdrawal against the published minimum and amount + fee against the balance', () => {
    const withdrawal = { scale: 6, fee: '1.000000', min: '10.000000', available: '50.000000' };
    expect(amountProblem('10', withdrawal)).toBeNull();
    expect(amountProblem('49', withdrawal)).toBeNull();
    expect(amountProblem('9.99', withdrawal)).toBe('belowMin');
    expect(amountProblem('49.000001', withdrawal)).toBe('aboveAvailableWithFee');
  });

  it('checks amount + a fee that depends on the amount (given the amount as typed) against the balance', () => {
    const seen: string[] = [];
    const feeFor = (amount: string) => {
      seen.push(amount);
      return amount === '10' ? '10' : '10.000002';
    };
    const limits = { scale: 6, available: '20', fee: '100', feeFor };
    expect(amountProblem('10', limits)).toBeNull();
    expect(amountProblem('9.999999', limits)).toBe('aboveAvailableWithFee');
    expect(seen).toEqual(['10', '9.999999']);
  });
});

describe('amountField', () => {
  it('sends the amount as typed, with spaces dropped and a decimal comma read as a point', () => {
    expect(amountField({ scale: 6 }).parse(' 48,5 ')).toBe('48.5');
    expect(amountField({ scale: 6 }).parse('1 000.25')).toBe('1000.25');
  });

  it('carries the problem in the message, and reads limits that change when it checks', () => {
    let available = '10';
    const field = amountField(() => ({ scale: 6, available }));
    const messageOf = (text: string) => field.safeParse(text).error?.issues[0]?.message;
    expect(amountProblemOfMessage(messageOf('11'))).toBe('aboveAvailable');
    available = '20';
    expect(messageOf('11')).toBeUndefined();
    expect(messageOf('')).toBe('amount:required');
    expect(amountProblemOfMessage('amount:nonsense')).toBeUndefined();
  });
});
