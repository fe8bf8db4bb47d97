/**
 * The review state machines of deposits and withdrawals (issue 5), as pure functions: the server
 * locks the record, asks these what a command does, and applies the answer (new state and the
 * ledger effect) in the same transaction.
 *
 * Maker-checker: above the published threshold a record needs two approvals by two different
 * staff members. The first approval changes nothing the user sees; the second does the work.
 */

export type DepositStatus = 'pending' | 'approved' | 'rejected';
export type WithdrawalStatus = 'pending' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled';

export interface ReviewState<S extends string> {
  status: S;
  approvalsRequired: 1 | 2;
  firstApprovedBy: bigint | null;
}

export type ReviewProblem = 'not_pending' | 'same_approver';

/** What a step does to the money: nothing yet, credit the deposit, return the hold, or pay the hold out. */
export type ReviewEffect = 'none' | 'credit' | 'release' | 'capture';

export type ReviewOutcome<S extends string> =
  | { ok: true; status: S; firstApprovedBy: bigint | null; effect: ReviewEffect }
  | { ok: false; problem: ReviewProblem };

function approve<S extends string>(state: ReviewState<S>, staffId: bigint, approvedStatus: S, effect: ReviewEffect): ReviewOutcome<S> {
  if (state.approvalsRequired === 2 && state.firstApprovedBy === null) {
    return { ok: true, status: state.status, firstApprovedBy: staffId, effect: 'none' };
  }
  if (state.approvalsRequired === 2 && state.firstApprovedBy === staffId) return { ok: false, problem: 'same_approver' };
  return { ok: true, status: approvedStatus, firstApprovedBy: state.firstApprovedBy, effect };
}

export type DepositCommand = { kind: 'approve'; staffId: bigint } | { kind: 'reject' } | { kind: 'chain_confirmed' } | { kind: 'chain_refused' };

/**
 * Staff approve (credit) or reject a pending deposit; an on-chain check confirms or refuses it with
 * no staff step (the chain is the second party there, so no maker-checker).
 */
export function depositTransition(state: ReviewState<DepositStatus>, command: DepositCommand): ReviewOutcome<DepositStatus> {
  if (state.status !== 'pending') return { ok: false, problem: 'not_pending' };
  switch (command.kind) {
    case 'approve':
      return approve(state, command.staffId, 'approved', 'credit');
    case 'chain_confirmed':
      return { ok: true, status: 'approved', firstApprovedBy: state.firstApprovedBy, effect: 'credit' };
    case 'reject':
    case 'chain_refused':
      return { ok: true, status: 'rejected', firstApprovedBy: state.firstApprovedBy, effect: 'none' };
  }
}

export type WithdrawalCommand =
  | { kind: 'approve'; staffId: bigint }
  | { kind: 'reject' }
  | { kind: 'cancel' }
  | { kind: 'complete' }
  | { kind: 'fail' };

/**
 * pending → approved (after one or two approvals) → completed (broadcast hash recorded: the hold is
 * paid out) or failed (not broadcast: the hold returns). pending → rejected by staff or cancelled by
 * the user: the hold returns.
 */
export function withdrawalTransition(state: ReviewState<WithdrawalStatus>, command: WithdrawalCommand): ReviewOutcome<WithdrawalStatus> {
  const keep = state.firstApprovedBy;
  switch (command.kind) {
    case 'approve':
      return state.status === 'pending' ? approve(state, command.staffId, 'approved', 'none') : { ok: false, problem: 'not_pending' };
    case 'reject':
      return state.status === 'pending' ? { ok: true, status: 'rejected', firstApprovedBy: keep, effect: 'release' } : { ok: false, problem: 'not_pending' };
    case 'cancel':
      // Only before any staff member has touched it: once approved for broadcast it may already be on its way.
      return state.status === 'pending' && state.firstApprovedBy === null
        ? { ok: true, status: 'cancelled', firstApprovedBy: keep, effect: 'release' }
        : { ok: false, problem: 'not_pending' };
    case 'complete':
      return state.status === 'approved' ? { ok: true, status: 'completed', firstApprovedBy: keep, effect: 'capture' } : { ok: false, problem: 'not_pending' };
    case 'fail':
      return state.status === 'approved' ? { ok: true, status: 'failed', firstApprovedBy: keep, effect: 'release' } : { ok: false, problem: 'not_pending' };
  }
}

/** Open withdrawals are in the queue; every other state has ended. */
export function isOpenWithdrawal(status: WithdrawalStatus): boolean {
  return status === 'pending' || status === 'approved';
}
