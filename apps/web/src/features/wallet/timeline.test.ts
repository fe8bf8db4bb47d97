import { describe, expect, it } from 'vitest';
import { canCancelWithdrawal, isOpenWithdrawal, type TimelineInput, withdrawalTimeline } from './timeline.ts';

const base: TimelineInput = {
  status: 'pending',
  approvals: 0,
  approvalsRequired: 1,
  createdAt: '2026-11-22T10:00:00.000Z',
  decidedAt: null,
  completedAt: null,
};
const shape = (view: Partial<TimelineInput>) => withdrawalTimeline({ ...base, ...view }).map((step) => `${step.id}:${step.state}`);

describe('withdrawalTimeline', () => {
  it('shows the review as the current step while pending', () => {
    expect(shape({})).toEqual(['requested:done', 'review:current', 'approved:upcoming', 'completed:upcoming']);
  });

  it('follows the withdrawal to its end', () => {
    expect(shape({ status: 'approved', decidedAt: '2026-11-22T11:00:00.000Z' })).toEqual(['requested:done', 'review:done', 'approved:current', 'completed:upcoming']);
    expect(shape({ status: 'completed' })).toEqual(['requested:done', 'review:done', 'approved:done', 'completed:done']);
    expect(shape({ status: 'rejected' })).toEqual(['requested:done', 'review:done', 'rejected:ended']);
    expect(shape({ status: 'failed' })).toEqual(['requested:done', 'review:done', 'approved:done', 'failed:ended']);
    expect(shape({ status: 'cancelled' })).toEqual(['requested:done', 'cancelled:ended']);
  });

  it('dates each step from the view', () => {
    const steps = withdrawalTimeline({ ...base, status: 'completed', decidedAt: 'D', completedAt: 'C' });
    expect(steps.map((step) => step.at)).toEqual([base.createdAt, 'D', 'D', 'C']);
  });
});

describe('canCancelWithdrawal', () => {
  it('allows cancelling only before any approval', () => {
    expect(canCancelWithdrawal({ status: 'pending', approvals: 0 })).toBe(true);
    expect(canCancelWithdrawal({ status: 'pending', approvals: 1 })).toBe(false);
    expect(canCancelWithdrawal({ status: 'approved', approvals: 0 })).toBe(false);
  });

  it('knows which withdrawals are open', () => {
    expect(isOpenWithdrawal('pending')).toBe(true);
    expect(isOpenWithdrawal('approved')).toBe(true);
    expect(isOpenWithdrawal('completed')).toBe(false);
  });
});
