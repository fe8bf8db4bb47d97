import { describe, expect, it } from 'vitest';
import { adminCheckerRequired, correctionPostings, correctionReasonProblem, decideCorrection } from './corrections.ts';

const pending = { status: 'pending' as const, proposedBy: 1n, adminCheckerRequired: false };

describe('decideCorrection: maker and checker', () => {
  it('a different finance member approves or rejects a correction under the admin amount', () => {
    expect(decideCorrection(pending, { staffId: 2n, staffIsAdmin: false, approve: true })).toEqual({ ok: true, status: 'approved' });
    expect(decideCorrection(pending, { staffId: 2n, staffIsAdmin: false, approve: false })).toEqual({ ok: true, status: 'rejected' });
  });

  it('the maker decides their own correction neither way, even as an admin', () => {
    for (const approve of [true, false]) {
      expect(decideCorrection(pending, { staffId: 1n, staffIsAdmin: true, approve })).toEqual({ ok: false, problem: 'maker_cannot_check' });
    }
  });

  it('above the published amount only an admin approves; anyone else may still reject', () => {
    const large = { ...pending, adminCheckerRequired: true };
    expect(decideCorrection(large, { staffId: 2n, staffIsAdmin: false, approve: true })).toEqual({ ok: false, problem: 'admin_checker_required' });
    expect(decideCorrection(large, { staffId: 3n, staffIsAdmin: true, approve: true })).toEqual({ ok: true, status: 'approved' });
    expect(decideCorrection(large, { staffId: 2n, staffIsAdmin: false, approve: false })).toEqual({ ok: true, status: 'rejected' });
  });

  it('an ended correction is decided once', () => {
    for (const status of ['approved', 'rejected'] as const) {
      expect(decideCorrection({ ...pending, status }, { staffId: 2n, staffIsAdmin: true, approve: true })).toEqual({ ok: false, problem: 'not_pending' });
    }
  });
});

describe('adminCheckerRequired', () => {
  it('over the amount, or of unknown worth, needs an admin; at or under it does not', () => {
    expect(adminCheckerRequired(1_000_000_001n, 1_000_000_000n)).toBe(true);
    expect(adminCheckerRequired(1_000_000_000n, 1_000_000_000n)).toBe(false);
    expect(adminCheckerRequired(5n, 1_000_000_000n)).toBe(false);
    expect(adminCheckerRequired(null, 1_000_000_000n)).toBe(true);
  });
});

describe('correctionReasonProblem', () => {
  it('the user reads the reason: between 10 and 500 characters after trimming', () => {
    expect(correctionReasonProblem('   short   ')).toBe('too_short');
    expect(correctionReasonProblem('Deposit 42 credited twice by the chain check')).toBeNull();
    expect(correctionReasonProblem('x'.repeat(501))).toBe('too_long');
    expect(correctionReasonProblem('多'.repeat(10))).toBeNull();
  });
});

describe('correctionPostings', () => {
  it('a positive amount reaches the target from the counter account; a negative one goes back', () => {
    expect(correctionPostings(10n, 99n, 'USDT', 5_000_000n)).toEqual([
      { accountId: 99n, asset: 'USDT', bucket: 'available', amountMinor: -5_000_000n },
      { accountId: 10n, asset: 'USDT', bucket: 'available', amountMinor: 5_000_000n },
    ]);
    expect(correctionPostings(10n, 99n, 'BTC', -3n)).toEqual([
      { accountId: 10n, asset: 'BTC', bucket: 'available', amountMinor: -3n },
      { accountId: 99n, asset: 'BTC', bucket: 'available', amountMinor: 3n },
    ]);
  });

  it('zero is not a correction', () => {
    expect(() => correctionPostings(10n, 99n, 'USDT', 0n)).toThrow(RangeError);
  });
});
