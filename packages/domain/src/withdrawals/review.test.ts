import { describe, expect, it } from 'vitest';
import { type DepositStatus, depositTransition, isOpenWithdrawal, type ReviewState, type WithdrawalStatus, withdrawalTransition } from './review.ts';

const ALICE = 1n;
const BOB = 2n;

const withdrawal = (status: WithdrawalStatus, approvalsRequired: 1 | 2 = 1, firstApprovedBy: bigint | null = null): ReviewState<WithdrawalStatus> => ({
  status,
  approvalsRequired,
  firstApprovedBy,
});
const deposit = (status: DepositStatus, approvalsRequired: 1 | 2 = 1, firstApprovedBy: bigint | null = null): ReviewState<DepositStatus> => ({
  status,
  approvalsRequired,
  firstApprovedBy,
});

describe('withdrawal review', () => {
  it('one approval: pending → approved → completed (paid out) or failed (returned)', () => {
    expect(withdrawalTransition(withdrawal('pending'), { kind: 'approve', staffId: ALICE })).toEqual({ ok: true, status: 'approved', firstApprovedBy: null, effect: 'none' });
    expect(withdrawalTransition(withdrawal('approved'), { kind: 'complete' })).toMatchObject({ ok: true, status: 'completed', effect: 'capture' });
    expect(withdrawalTransition(withdrawal('approved'), { kind: 'fail' })).toMatchObject({ ok: true, status: 'failed', effect: 'release' });
  });

  it('two approvals by two different people; the first changes nothing but the record of it', () => {
    const first = withdrawalTransition(withdrawal('pending', 2), { kind: 'approve', staffId: ALICE });
    expect(first).toEqual({ ok: true, status: 'pending', firstApprovedBy: ALICE, effect: 'none' });
    expect(withdrawalTransition(withdrawal('pending', 2, ALICE), { kind: 'approve', staffId: ALICE })).toEqual({ ok: false, problem: 'same_approver' });
    expect(withdrawalTransition(withdrawal('pending', 2, ALICE), { kind: 'approve', staffId: BOB })).toEqual({
      ok: true,
      status: 'approved',
      firstApprovedBy: ALICE,
      effect: 'none',
    });
  });

  it('reject returns the hold while pending; cancel only before any approval', () => {
    expect(withdrawalTransition(withdrawal('pending'), { kind: 'reject' })).toMatchObject({ ok: true, status: 'rejected', effect: 'release' });
    expect(withdrawalTransition(withdrawal('pending', 2, ALICE), { kind: 'reject' })).toMatchObject({ ok: true, status: 'rejected' });
    expect(withdrawalTransition(withdrawal('pending'), { kind: 'cancel' })).toMatchObject({ ok: true, status: 'cancelled', effect: 'release' });
    expect(withdrawalTransition(withdrawal('pending', 2, ALICE), { kind: 'cancel' })).toEqual({ ok: false, problem: 'not_pending' });
    expect(withdrawalTransition(withdrawal('approved'), { kind: 'cancel' })).toEqual({ ok: false, problem: 'not_pending' });
  });

  it('refuses every step out of the wrong state', () => {
    const refused: [WithdrawalStatus, Parameters<typeof withdrawalTransition>[1]][] = [
      ['approved', { kind: 'approve', staffId: ALICE }],
      ['approved', { kind: 'reject' }],
      ['pending', { kind: 'complete' }],
      ['pending', { kind: 'fail' }],
    ];
    for (const ended of ['completed', 'rejected', 'failed', 'cancelled'] as const) {
      for (const kind of ['reject', 'cancel', 'complete', 'fail'] as const) refused.push([ended, { kind }]);
      refused.push([ended, { kind: 'approve', staffId: ALICE }]);
    }
    for (const [status, command] of refused) expect(withdrawalTransition(withdrawal(status), command), `${status} ${command.kind}`).toEqual({ ok: false, problem: 'not_pending' });
  });

  it('open means in the queue', () => {
    expect(['pending', 'approved', 'completed', 'rejected', 'failed', 'cancelled'].filter((status) => isOpenWithdrawal(status as WithdrawalStatus))).toEqual([
      'pending',
      'approved',
    ]);
  });
});

describe('deposit review', () => {
  it('staff approval credits; above the threshold only the second, different approver credits', () => {
    expect(depositTransition(deposit('pending'), { kind: 'approve', staffId: ALICE })).toEqual({ ok: true, status: 'approved', firstApprovedBy: null, effect: 'credit' });
    expect(depositTransition(deposit('pending', 2), { kind: 'approve', staffId: ALICE })).toEqual({ ok: true, status: 'pending', firstApprovedBy: ALICE, effect: 'none' });
    expect(depositTransition(deposit('pending', 2, ALICE), { kind: 'approve', staffId: ALICE })).toEqual({ ok: false, problem: 'same_approver' });
    expect(depositTransition(deposit('pending', 2, ALICE), { kind: 'approve', staffId: BOB })).toMatchObject({ ok: true, status: 'approved', effect: 'credit' });
  });

  it('the chain confirms (credit) or refuses; a decided deposit is never decided again', () => {
    expect(depositTransition(deposit('pending'), { kind: 'chain_confirmed' })).toMatchObject({ ok: true, status: 'approved', effect: 'credit' });
    expect(depositTransition(deposit('pending'), { kind: 'chain_refused' })).toMatchObject({ ok: true, status: 'rejected', effect: 'none' });
    expect(depositTransition(deposit('pending'), { kind: 'reject' })).toMatchObject({ ok: true, status: 'rejected', effect: 'none' });
    for (const status of ['approved', 'rejected'] as const) {
      for (const command of [{ kind: 'approve', staffId: BOB }, { kind: 'reject' }, { kind: 'chain_confirmed' }, { kind: 'chain_refused' }] as const) {
        expect(depositTransition(deposit(status), command)).toEqual({ ok: false, problem: 'not_pending' });
      }
    }
  });
});
