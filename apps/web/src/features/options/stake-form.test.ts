import { describe, expect, it } from 'vitest';
import { STAKE_OUT_OF_RANGE } from './options-logic.ts';
import { type StakeLimits, stakeFormSchema } from './stake-form.ts';

describe('the order form’s stake', () => {
  const product = { minStake: '10.000000', maxStake: '5000.000000' };
  const problem = (amount: string, available = '1000') => {
    const result = stakeFormSchema(() => ({ available, product })).safeParse({ amount });
    return result.success ? null : result.error.issues[0]!.message;
  };

  it('is sent as typed, canonical, when it is in range and within the balance', () => {
    expect(stakeFormSchema(() => ({ available: '1000', product })).parse({ amount: ' 100,5 ' })).toEqual({ amount: '100.5' });
    expect(problem('10')).toBeNull();
  });

  it('says the balance first, then the product’s range', () => {
    expect(problem('5')).toBe(STAKE_OUT_OF_RANGE);
    expect(problem('1000.5')).toBe('amount:aboveAvailable');
    expect(problem('5000.5', '9000')).toBe(STAKE_OUT_OF_RANGE);
    expect(problem('6000', '1000')).toBe('amount:aboveAvailable');
    expect(problem('1.0000001')).toBe('amount:tooManyDecimals');
    expect(problem('0')).toBe('amount:notPositive');
  });

  it('checks against the product and the balance on screen when the form is checked', () => {
    const limits: StakeLimits = { available: '1000', product };
    const schema = stakeFormSchema(() => limits);
    expect(schema.safeParse({ amount: '20' }).success).toBe(true);
    limits.product = { minStake: '50.000000', maxStake: '100.000000' };
    expect(schema.safeParse({ amount: '20' }).success).toBe(false);
  });
});
