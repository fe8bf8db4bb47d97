import { ApiError, errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { decisionRefusalKey, proposalRefusal } from './loan-problems.ts';

describe('a loan product proposal refused by the server, on its field', () => {
  it('places each rule of the terms on the field it is about', () => {
    expect(proposalRefusal({ field: 'terms', problem: 'cycle' })).toEqual({ field: 'cycleDays', key: 'admin.loans.problem.cycle' });
    expect(proposalRefusal({ field: 'terms', problem: 'rate' })).toEqual({ field: 'dailyRatePercent', key: 'admin.loans.problem.rate' });
    expect(proposalRefusal({ field: 'terms', problem: 'range' })).toEqual({ field: 'maxAmount', key: 'admin.loans.problem.range' });
    expect(proposalRefusal({ field: 'terms', problem: 'collateral' })).toEqual({ field: 'collateral', key: 'admin.loans.problem.collateral' });
    expect(proposalRefusal({ field: 'terms', problem: 'ratios' })).toEqual({ field: 'marginCallLtvPercent', key: 'admin.loans.problem.ratios' });
  });

  it('says what is wrong with a number, a collateral row’s LTV included', () => {
    expect(proposalRefusal({ field: 'dailyRatePercent', problem: 'too_many_decimals' })).toEqual({ field: 'dailyRatePercent', key: 'admin.loans.problem.tooManyDecimals' });
    expect(proposalRefusal({ field: 'minAmount', problem: 'format' })).toEqual({ field: 'minAmount', key: 'admin.loans.problem.numberFormat' });
    expect(proposalRefusal({ field: 'collateral.1.ltvPercent', problem: 'too_large' })).toEqual({ field: 'collateral.1.ltvPercent', key: 'admin.loans.problem.tooLarge' });
  });

  it('leaves anything else to the general message', () => {
    expect(proposalRefusal(null)).toBeNull();
    expect(proposalRefusal({ field: 'terms', problem: 'something_new' })).toBeNull();
    expect(proposalRefusal({ field: 'elsewhere', problem: 'format' })).toBeNull();
    expect(proposalRefusal({ fields: [{ field: 'body.name', message: 'x' }] })).toBeNull();
  });
});

describe('a refused loan decision', () => {
  const refused = (key: keyof typeof errorCatalogue) => new ApiError({ code: 409, msg: errorCatalogue[key].msg, data: null });

  it('says what the second approver, a decided loan and the lending treasury mean here', () => {
    expect(decisionRefusalKey(refused('SECOND_APPROVER_REQUIRED'))).toBe('admin.loans.refused.secondApprover');
    expect(decisionRefusalKey(refused('NOT_PENDING_REVIEW'))).toBe('admin.loans.refused.notPending');
    expect(decisionRefusalKey(refused('LENDING_FUNDS_UNAVAILABLE'))).toBe('admin.loans.refused.lendingFunds');
    expect(decisionRefusalKey(refused('PERMISSION_DENIED'))).toBeNull();
    expect(decisionRefusalKey(new Error('offline'))).toBeNull();
  });
});
