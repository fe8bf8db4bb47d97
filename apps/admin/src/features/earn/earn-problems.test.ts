import { describe, expect, it } from 'vitest';
import { proposalRefusal } from './earn-problems.ts';

describe('an earn proposal refused by the server, on its field', () => {
  it('places each rule of the terms on the field it is about', () => {
    expect(proposalRefusal({ field: 'terms', problem: 'daily_rate' })).toEqual({ field: 'dailyRatePercent', key: 'admin.earn.problem.dailyRate' });
    expect(proposalRefusal({ field: 'terms', problem: 'penalty_without_redemption' })).toEqual({
      field: 'penaltyRatePercent',
      key: 'admin.earn.problem.penaltyWithoutRedemption',
    });
    expect(proposalRefusal({ field: 'terms', problem: 'amount_range' })).toEqual({ field: 'maxAmount', key: 'admin.earn.problem.amountRange' });
    expect(proposalRefusal({ field: 'terms', problem: 'quota' })).toEqual({ field: 'userQuota', key: 'admin.earn.problem.quota' });
    expect(proposalRefusal({ field: 'terms', problem: 'cycle_days' })?.field).toBe('cycleDays');
    expect(proposalRefusal({ field: 'terms', problem: 'payout_time' })?.field).toBe('payoutTimeUtc');
    expect(proposalRefusal({ field: 'terms', problem: 'penalty_rate' })?.field).toBe('penaltyRatePercent');
  });

  it('says what is wrong with a number, an asset, a fixed field and a quota below what is active', () => {
    expect(proposalRefusal({ field: 'dailyRatePercent', problem: 'too_many_decimals' })).toEqual({ field: 'dailyRatePercent', key: 'admin.earn.problem.tooManyDecimals' });
    expect(proposalRefusal({ field: 'minAmount', problem: 'format' })).toEqual({ field: 'minAmount', key: 'admin.earn.problem.numberFormat' });
    expect(proposalRefusal({ field: 'asset', problem: 'unknown' })).toEqual({ field: 'asset', key: 'admin.earn.problem.unknownAsset' });
    expect(proposalRefusal({ field: 'kind', problem: 'fixed' })).toEqual({ field: 'kind', key: 'admin.earn.problem.fixed' });
    expect(proposalRefusal({ field: 'totalQuota', problem: 'below_active' })).toEqual({ field: 'totalQuota', key: 'admin.earn.problem.belowActive' });
  });

  it('leaves anything else to the general message', () => {
    expect(proposalRefusal(null)).toBeNull();
    expect(proposalRefusal({ field: 'terms', problem: 'something_new' })).toBeNull();
    expect(proposalRefusal({ field: 'elsewhere', problem: 'format' })).toBeNull();
    expect(proposalRefusal({ fields: [{ field: 'body.name', message: 'x' }] })).toBeNull();
  });
});
