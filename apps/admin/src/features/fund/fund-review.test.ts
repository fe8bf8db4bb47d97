import { ApiError, errorCatalogue, fundRequestStatuses } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { borrowerOf, fundDecisionRefusalKey, fundTabs, requestIn, type StaffFundRequest, trancheState } from './fund-review.ts';

describe('the funding requests’ tabs', () => {
  it('open on the review queue and offer every state once', () => {
    expect(fundTabs[0]).toBe('review');
    expect([...fundTabs].sort()).toEqual([...fundRequestStatuses].sort());
  });
});

describe('a request’s tranche', () => {
  it('is released once it has a release time, scheduled once the fill dated it, otherwise waiting for the fill', () => {
    expect(trancheState({ number: 1, amount: '500', releaseAtMs: 1_000, releasedAtMs: 1_000, entryId: '7' })).toBe('released');
    expect(trancheState({ number: 2, amount: '500', releaseAtMs: 2_000, releasedAtMs: null, entryId: null })).toBe('scheduled');
    expect(trancheState({ number: 1, amount: '1000', releaseAtMs: null, releasedAtMs: null, entryId: null })).toBe('unscheduled');
  });
});

describe('a request opened at its URL', () => {
  const request = { id: '12', borrower: 'Acme Ltd', userId: '40' } as StaffFundRequest;

  it('is found among the requests the list shows, or not at all', () => {
    expect(requestIn([request], '12')).toBe(request);
    expect(requestIn([request], '13')).toBeUndefined();
    expect(requestIn(undefined, '12')).toBeUndefined();
  });

  it('names the borrower by public name and user id', () => {
    expect(borrowerOf(request)).toBe('Acme Ltd (#40)');
  });
});

describe('a refused funding decision', () => {
  const refused = (key: keyof typeof errorCatalogue) => new ApiError({ code: 409, msg: errorCatalogue[key].msg, data: null });

  it('says what an already decided request means here, and leaves the rest to the catalogue', () => {
    expect(fundDecisionRefusalKey(refused('NOT_PENDING_REVIEW'))).toBe('admin.fund.refused.notPending');
    expect(fundDecisionRefusalKey(refused('PERMISSION_DENIED'))).toBeNull();
    expect(fundDecisionRefusalKey(new Error('offline'))).toBeNull();
  });
});
