import type { WithdrawalStatus } from './wallet-labels.ts';

/**
 * The steps a withdrawal goes through, as its detail page shows them: requested → review (k of n
 * approvals) → approved, waiting for broadcast → completed with the transaction hash; or it ends
 * rejected, failed or cancelled with the reason. Pure, from the view the server answers.
 */

export interface TimelineInput {
  status: WithdrawalStatus;
  approvals: number;
  approvalsRequired: number;
  createdAt: string;
  decidedAt: string | null;
  completedAt: string | null;
}

export type StepId = 'requested' | 'review' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled';
export type StepState = 'done' | 'current' | 'upcoming' | 'ended';

export interface TimelineStep {
  id: StepId;
  state: StepState;
  at: string | null;
}

export function withdrawalTimeline(view: TimelineInput): TimelineStep[] {
  const requested: TimelineStep = { id: 'requested', state: 'done', at: view.createdAt };
  switch (view.status) {
    case 'pending':
      return [requested, { id: 'review', state: 'current', at: null }, { id: 'approved', state: 'upcoming', at: null }, { id: 'completed', state: 'upcoming', at: null }];
    case 'approved':
      return [
        requested,
        { id: 'review', state: 'done', at: view.decidedAt },
        { id: 'approved', state: 'current', at: view.decidedAt },
        { id: 'completed', state: 'upcoming', at: null },
      ];
    case 'completed':
      return [
        requested,
        { id: 'review', state: 'done', at: view.decidedAt },
        { id: 'approved', state: 'done', at: view.decidedAt },
        { id: 'completed', state: 'done', at: view.completedAt },
      ];
    case 'rejected':
      return [requested, { id: 'review', state: 'done', at: null }, { id: 'rejected', state: 'ended', at: view.decidedAt }];
    case 'failed':
      return [
        requested,
        { id: 'review', state: 'done', at: view.decidedAt },
        { id: 'approved', state: 'done', at: view.decidedAt },
        { id: 'failed', state: 'ended', at: view.completedAt ?? view.decidedAt },
      ];
    case 'cancelled':
      return [requested, { id: 'cancelled', state: 'ended', at: view.decidedAt ?? view.completedAt }];
  }
}

/** A user may cancel while the withdrawal waits for review and no staff member has approved it yet. */
export function canCancelWithdrawal(view: Pick<TimelineInput, 'status' | 'approvals'>): boolean {
  return view.status === 'pending' && view.approvals === 0;
}

/** Open withdrawals hold a place in the queue. */
export function isOpenWithdrawal(status: WithdrawalStatus): boolean {
  return status === 'pending' || status === 'approved';
}
