import { ApiError, errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { decisionRefusalKey, decisionsOpenTo, proposalRefusal } from './correction-problems.ts';

const refused = (key: keyof typeof errorCatalogue, data: unknown = null) => new ApiError({ code: errorCatalogue[key].status, msg: errorCatalogue[key].msg, data });

describe('a correction proposal refused by the server, on its field', () => {
  it('puts the reason, the house account’s asset, the unknown user or merchant and the amount on their fields', () => {
    expect(proposalRefusal(refused('PARAMETER_ERROR', { field: 'reason', problem: 'too_short' }))).toEqual({ field: 'reason', key: 'admin.corrections.problem.reason' });
    expect(proposalRefusal(refused('PARAMETER_ERROR', { field: 'asset', problem: 'not_held_by_house_account', houseAccount: 'lending_treasury' }))).toEqual({
      field: 'asset',
      key: 'admin.corrections.problem.houseAsset',
    });
    expect(proposalRefusal(refused('RECORD_NOT_FOUND', { field: 'userId' }))).toEqual({ field: 'userId', key: 'admin.corrections.problem.noUser' });
    expect(proposalRefusal(refused('RECORD_NOT_FOUND', { field: 'merchantId' }))).toEqual({ field: 'merchantId', key: 'admin.corrections.problem.noMerchant' });
    expect(proposalRefusal(refused('WRONG_AMOUNT', { field: 'amount', problem: 'too_many_decimals', scale: 6 }))).toEqual({
      field: 'amount',
      key: 'admin.corrections.problem.decimals',
      vars: { scale: 6 },
    });
    expect(proposalRefusal(refused('WRONG_AMOUNT', { field: 'amount', problem: 'format', scale: 8 }))).toEqual({
      field: 'amount',
      key: 'admin.corrections.problem.amount',
      vars: { scale: 8 },
    });
  });

  it('leaves anything else to the general message', () => {
    expect(proposalRefusal(refused('PARAMETER_ERROR', { fields: [{ field: 'body.amount', message: 'x' }] }))).toBeNull();
    expect(proposalRefusal(refused('RECORD_NOT_FOUND', null))).toBeNull();
    expect(proposalRefusal(refused('PERMISSION_DENIED'))).toBeNull();
    expect(proposalRefusal(new Error('offline'))).toBeNull();
  });
});

describe('a refused correction decision', () => {
  it('tells the maker, the finance checker above the amount, the ledger’s refusal and a decided correction apart', () => {
    expect(decisionRefusalKey(refused('SECOND_APPROVER_REQUIRED', { rule: 'maker_cannot_check' }))).toBe('admin.corrections.refused.maker');
    expect(decisionRefusalKey(refused('SECOND_APPROVER_REQUIRED', { rule: 'admin_checker_required' }))).toBe('admin.corrections.refused.adminChecker');
    expect(decisionRefusalKey(refused('SECOND_APPROVER_REQUIRED', { rule: 'something_new' }))).toBeNull();
    expect(decisionRefusalKey(refused('INSUFFICIENT_BALANCE'))).toBe('admin.corrections.refused.insufficient');
    expect(decisionRefusalKey(refused('NOT_PENDING_REVIEW', { status: 'approved' }))).toBe('admin.corrections.refused.notPending');
    expect(decisionRefusalKey(refused('PERMISSION_DENIED'))).toBeNull();
    expect(decisionRefusalKey(new Error('offline'))).toBeNull();
  });
});

describe('the decisions a member may take on a correction', () => {
  const pending = { status: 'pending', proposedBy: 'maker', adminCheckerRequired: false } as const;
  const finance = { username: 'checker', roles: ['finance'] };
  const admin = { username: 'boss', roles: ['admin'] };

  it('gives the maker neither, whatever their roles', () => {
    expect(decisionsOpenTo(pending, { username: 'maker', roles: ['admin', 'finance'] })).toEqual({ approve: false, reject: false, why: 'admin.corrections.own' });
  });

  it('lets a finance member only reject what an admin must approve; an admin both', () => {
    const large = { ...pending, adminCheckerRequired: true };
    expect(decisionsOpenTo(large, finance)).toEqual({ approve: false, reject: true, why: 'admin.corrections.adminOnly' });
    expect(decisionsOpenTo(large, admin)).toEqual({ approve: true, reject: true, why: null });
    expect(decisionsOpenTo(pending, finance)).toEqual({ approve: true, reject: true, why: null });
  });

  it('offers nothing on an ended correction', () => {
    expect(decisionsOpenTo({ ...pending, status: 'approved' }, admin)).toEqual({ approve: false, reject: false, why: null });
  });
});
