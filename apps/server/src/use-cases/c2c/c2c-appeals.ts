import { AppError } from '@keel/contracts';
import { appealResolutionStep } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { lockDecisionMakers, recordMoneyDecision, type StoredTwoPersonReason } from '../../persistence/staff-money-decisions.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { secondPersonNeeded, storedTwoPersonReason, twoPersonLimits, twoPersonReasonView } from '../admin/two-person-rule.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { applyC2cStep } from './c2c-steps.ts';
import { C2C_SELECT, type C2cRequestRow, merchantRequestView, readRequestRow } from './c2c-views.ts';

// Support's side of C2C disputes (issue 19): the same two-person rule as P2P appeals (ADR 0022).

const APPEAL_SELECT = `${C2C_SELECT} LEFT JOIN staff pr ON pr.id = r.proposed_by LEFT JOIN staff rs ON rs.id = r.resolved_by`;
const APPEAL_COLUMNS_ROW = 'pr.username AS proposer, rs.username AS resolver';

type AppealRow = C2cRequestRow & { proposer: string | null; resolver: string | null };

const selectAppeals = (where: string) => `${APPEAL_SELECT.replace('SELECT ', `SELECT ${APPEAL_COLUMNS_ROW}, `)} WHERE ${where}`;

function appealView(row: AppealRow) {
  return {
    ...merchantRequestView(row),
    proposal:
      row.proposed_outcome && row.proposer && row.proposed_at
        ? { outcome: row.proposed_outcome, note: row.proposal_note ?? '', staff: row.proposer, atMs: row.proposed_at.getTime() }
        : null,
    twoPersonReason: row.two_person_reason ? twoPersonReasonView(row.two_person_reason as StoredTwoPersonReason) : null,
    resolvedBy: row.resolver,
  };
}

type AppealView = ReturnType<typeof appealView>;

async function readAppeal(db: Queryable, requestId: bigint): Promise<AppealView> {
  const [row] = await db.query<AppealRow>(selectAppeals('r.id = $1 AND r.appeal_by IS NOT NULL'), [requestId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return appealView(row);
}

export async function listC2cAppeals(deps: Pick<Deps, 'db'>, query: { status: 'open' | 'resolved'; page: number; pageSize: number }) {
  const where = query.status === 'open' ? `r.status = 'appealing'` : `r.appeal_by IS NOT NULL AND r.resolution IS NOT NULL`;
  const order = query.status === 'open' ? 'r.updated_at, r.id' : 'r.ended_at DESC, r.id';
  const rows = await deps.db.query<AppealRow>(`${selectAppeals(where)} ORDER BY ${order} LIMIT $1 OFFSET $2`, [query.pageSize, (query.page - 1) * query.pageSize]);
  const [count] = await deps.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM c2c_requests r WHERE ${where}`);
  return { items: rows.map(appealView), total: count!.total };
}

/**
 * Support resolves a C2C dispute: complete (the held USDT to the receiver — the user of a deposit,
 * the merchant's float of a withdrawal) or fail (the hold back to whoever gave it). Never an amount.
 * Under the two-person rule (the P2P appeal threshold, or the one-person limits) the first member
 * only proposes; a different member asking for the same outcome carries it out. Locks: the member,
 * the user the decision concerns, then the request (the C2C lock order). Step, money decision
 * record, audit entry, the user's message and the answer commit together.
 */
export async function resolveC2cAppeal(
  deps: Deps,
  staff: StaffSession,
  input: { requestId: bigint; outcome: 'complete' | 'fail'; note: string; callId: string },
  idempotency?: IdempotentRequest<AppealView>,
): Promise<AppealView> {
  const now = deps.now();
  const staffId = staff.staff.id;
  let userId = 0n;
  const view = await deps.db.transaction(async (tx) => {
    const before = await readRequestRow(tx, input.requestId);
    if (!before || before.appeal_by === null) throw new AppError('RECORD_NOT_FOUND');
    userId = before.user_id;
    await lockDecisionMakers(tx, { staffId, userId: before.user_id });
    const [locked] = await tx.query<{ status: string }>('SELECT status FROM c2c_requests WHERE id = $1 FOR UPDATE', [input.requestId]);
    if (locked!.status !== 'appealing') throw new AppError('ORDER_STATE_CHANGED', { problem: 'wrong_state', status: locked!.status });
    const row = (await readRequestRow(tx, input.requestId))!;
    const valueUsdtMinor = toMinor(row.usdt_minor);
    // appealResolutionStep compares outcomes only: complete and fail stand for its two.
    const asAppeal = (outcome: 'complete' | 'fail'): 'release' | 'refund' => (outcome === 'complete' ? 'release' : 'refund');
    const proposal = row.proposed_outcome && row.proposed_by !== null ? { outcome: asAppeal(row.proposed_outcome), staffId: row.proposed_by } : null;
    const reason =
      proposal === null ? await secondPersonNeeded(tx, twoPersonLimits(deps.config, 'appeal'), { staffId, userId: row.user_id, valueUsdtMinor, at: now }) : null;
    const step = appealResolutionStep({ proposal, reason, staffId, outcome: asAppeal(input.outcome) });
    if (step.kind === 'refused') throw new AppError('SECOND_APPROVER_REQUIRED');
    if (step.kind === 'propose') {
      await tx.query(
        `UPDATE c2c_requests SET proposed_outcome = $2, proposed_by = $3, proposed_at = $4, proposal_note = $5,
           two_person_reason = COALESCE(two_person_reason, $6::jsonb) WHERE id = $1`,
        [input.requestId, input.outcome, staffId, now, input.note, reason ? JSON.stringify(storedTwoPersonReason(reason)) : null],
      );
      await appendAudit(tx, {
        staffId,
        action: `c2c.appeal.propose_${input.outcome}`,
        targetType: 'c2c_request',
        targetId: input.requestId.toString(),
        detail: { note: input.note, ...(reason ? { twoPersonReason: storedTwoPersonReason(reason) } : {}) },
        requestId: input.callId,
        at: now,
      });
    } else {
      await applyC2cStep(tx, input.requestId, { kind: 'support' }, { kind: 'resolve', outcome: input.outcome }, now);
      await tx.query('UPDATE c2c_requests SET resolution = $2, resolved_by = $3, resolution_note = $4 WHERE id = $1', [input.requestId, input.outcome, staffId, input.note]);
      await messageUser(tx, row.user_id, { title: 'notify.c2c.title', body: 'notify.c2c.appealNote' }, { orderNo: row.order_no, note: input.note }, now);
      await recordMoneyDecision(tx, {
        kind: `c2c.${input.outcome}`,
        recordId: input.requestId,
        userId: row.user_id,
        staffId,
        firstStaffId: step.firstStaffId,
        valueUsdtMinor,
        at: now,
      });
      await appendAudit(tx, {
        staffId,
        action: `c2c.appeal.${input.outcome}`,
        targetType: 'c2c_request',
        targetId: input.requestId.toString(),
        detail: { note: input.note, people: step.people, ...(step.firstStaffId !== null ? { proposedByStaffId: step.firstStaffId.toString() } : {}) },
        requestId: input.callId,
        at: now,
      });
    }
    const after = await readAppeal(tx, input.requestId);
    await idempotency?.answerInTransaction(tx, after);
    return after;
  });
  if (view.resolution !== null) await publishToUser(deps, userId, { kind: 'message', unread: true });
  return view;
}
