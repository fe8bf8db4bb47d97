import { AppError } from '@keel/contracts';
import { appealResolutionStep, type VipLevel } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { lockDecisionMakers, recordMoneyDecision, type StoredTwoPersonReason } from '../../persistence/staff-money-decisions.repository.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { secondPersonNeeded, storedTwoPersonReason, twoPersonLimits, twoPersonReasonView } from '../admin/two-person-rule.ts';
import { readUpload } from '../verification/upload-image.ts';
import { staffChat } from './order-chat.ts';
import { announceOrder } from './p2p-notices.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { applyStep } from './order-steps.ts';
import { ORDER_SELECT, orderView } from './p2p-views.ts';

interface AppealRow {
  order_id: bigint;
  opened_by: bigint;
  reason: string;
  opened_at: Date;
  resolution: 'release' | 'refund' | null;
  resolver: string | null;
  resolved_at: Date | null;
  note: string | null;
  proposed_outcome: 'release' | 'refund' | null;
  proposed_by: bigint | null;
  proposer: string | null;
  proposed_at: Date | null;
  proposal_note: string | null;
  two_person_reason: StoredTwoPersonReason | null;
}

async function appealView(db: Queryable, appeal: AppealRow, vipLevels: readonly VipLevel[]) {
  const [order] = await db.query<Parameters<typeof orderView>[0]>(`${ORDER_SELECT} WHERE o.id = $1`, [appeal.order_id]);
  const { role: _role, ...view } = orderView(order!, order!.buyer_id, vipLevels);
  return {
    order: view,
    buyerId: order!.buyer_id.toString(),
    sellerId: order!.seller_id.toString(),
    openedBy: appeal.opened_by === order!.buyer_id ? ('buyer' as const) : ('seller' as const),
    reason: appeal.reason,
    openedAt: appeal.opened_at.toISOString(),
    resolution: appeal.resolution,
    resolvedBy: appeal.resolver,
    resolvedAt: appeal.resolved_at?.toISOString() ?? null,
    note: appeal.note,
    proposal:
      appeal.proposed_outcome && appeal.proposer && appeal.proposed_at
        ? { outcome: appeal.proposed_outcome, note: appeal.proposal_note ?? '', staff: appeal.proposer, at: appeal.proposed_at.toISOString() }
        : null,
    twoPersonReason: appeal.two_person_reason ? twoPersonReasonView(appeal.two_person_reason) : null,
    chat: await staffChat(db, { id: order!.id, buyer_id: order!.buyer_id }),
  };
}

type AppealView = Awaited<ReturnType<typeof appealView>>;

const APPEAL_SELECT = `SELECT p.*, s.username AS resolver, pr.username AS proposer
  FROM p2p_appeals p LEFT JOIN staff s ON s.id = p.resolved_by LEFT JOIN staff pr ON pr.id = p.proposed_by`;

export async function listAppeals(deps: Deps, query: { status: 'open' | 'resolved'; page: number; pageSize: number }) {
  const where = query.status === 'open' ? 'WHERE p.resolution IS NULL' : 'WHERE p.resolution IS NOT NULL';
  const order = query.status === 'open' ? 'p.opened_at, p.order_id' : 'p.resolved_at DESC, p.order_id';
  const rows = await deps.db.query<AppealRow>(`${APPEAL_SELECT} ${where} ORDER BY ${order} LIMIT $1 OFFSET $2`, [query.pageSize, (query.page - 1) * query.pageSize]);
  const [count] = await deps.db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM p2p_appeals p ${where}`);
  const items = [];
  for (const row of rows) items.push(await appealView(deps.db, row, deps.config.VIP_LEVELS));
  return { items, total: Number(count!.total) };
}

/** One appeal, open or resolved, by its order, for support staff who open a link to it. */
export async function getAppeal(deps: Deps, orderId: bigint) {
  const [row] = await deps.db.query<AppealRow>(`${APPEAL_SELECT} WHERE p.order_id = $1`, [orderId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return appealView(deps.db, row, deps.config.VIP_LEVELS);
}

/**
 * Support staff resolve an appeal to one of two outcomes: release the escrow to the buyer (less
 * the fee) or refund it to the seller. They never type an amount. Under the two-person rule
 * (ADR 0022: escrow worth more than the appeal threshold, or past this member's or the receiving
 * user's one-person limit within the window) the first member's resolution is only a proposal
 * (outcome and note); a different member asking for the same outcome carries it out, and asking
 * for the other outcome replaces the proposal (`appealResolutionStep`), so a disagreement moves no
 * money. Locks: the member, then the user the escrow would reach (buyer on a release, seller on a
 * refund), then the order (the P2P lock order: order, ad, hold, ledger accounts). Step, the record
 * of the money decision, audit entry and both sides' messages commit together — and, through the
 * API, the answer (ADR 0019).
 */
export async function resolveAppeal(
  deps: Deps,
  staff: StaffSession,
  input: { orderId: bigint; outcome: 'release' | 'refund'; note: string; requestId: string },
  idempotency?: IdempotentRequest<AppealView>,
) {
  const now = deps.now();
  const staffId = staff.staff.id;
  const view = await deps.db.transaction(async (tx) => {
    // The parties and the quantity of an order never change, so they are read before the locks that need them.
    const [order] = await tx.query<{ buyer_id: bigint; seller_id: bigint; quantity_minor: string; order_no: string }>(
      'SELECT o.buyer_id, o.seller_id, o.quantity_minor, o.order_no FROM p2p_orders o JOIN p2p_appeals p ON p.order_id = o.id WHERE o.id = $1',
      [input.orderId],
    );
    if (!order) throw new AppError('RECORD_NOT_FOUND');
    const receiverId = input.outcome === 'release' ? order.buyer_id : order.seller_id;
    await lockDecisionMakers(tx, { staffId, userId: receiverId });
    const [locked] = await tx.query<{ status: string }>('SELECT status FROM p2p_orders WHERE id = $1 FOR UPDATE', [input.orderId]);
    if (locked!.status !== 'appealing') throw new AppError('ORDER_STATE_CHANGED', { problem: 'wrong_state', status: locked!.status });
    const [appeal] = await tx.query<AppealRow>(`${APPEAL_SELECT} WHERE p.order_id = $1`, [input.orderId]);
    // P2P trades USDT only: the escrow's quantity is its USDT value.
    const valueUsdtMinor = toMinor(order.quantity_minor);
    const proposal = appeal!.proposed_outcome && appeal!.proposed_by !== null ? { outcome: appeal!.proposed_outcome, staffId: appeal!.proposed_by } : null;
    // Once an appeal needed two people it keeps needing them; otherwise the rule decides now, under the locks.
    const reason =
      proposal === null ? await secondPersonNeeded(tx, twoPersonLimits(deps.config, 'appeal'), { staffId, userId: receiverId, valueUsdtMinor, at: now }) : null;
    const step = appealResolutionStep({ proposal, reason, staffId, outcome: input.outcome });
    if (step.kind === 'refused') throw new AppError('SECOND_APPROVER_REQUIRED');

    if (step.kind === 'propose') {
      await tx.query(
        `UPDATE p2p_appeals SET proposed_outcome = $2, proposed_by = $3, proposed_at = $4, proposal_note = $5,
           two_person_reason = COALESCE(two_person_reason, $6::jsonb) WHERE order_id = $1`,
        [input.orderId, input.outcome, staffId, now, input.note, reason ? JSON.stringify(storedTwoPersonReason(reason)) : null],
      );
      await appendAudit(tx, {
        staffId,
        action: `p2p.appeal.propose_${input.outcome}`,
        targetType: 'p2p_order',
        targetId: input.orderId.toString(),
        detail: {
          note: input.note,
          ...(proposal ? { replaces: proposal.outcome, replacesStaffId: proposal.staffId.toString() } : {}),
          ...(reason ? { twoPersonReason: storedTwoPersonReason(reason) } : {}),
        },
        requestId: input.requestId,
        at: now,
      });
    } else {
      await applyStep(tx, input.orderId, { kind: 'staff' }, { kind: 'resolve', outcome: input.outcome }, now, deps.config.VIP_LEVELS);
      // Both sides read the staff member's note, besides the outcome's own message.
      for (const userId of [order.buyer_id, order.seller_id]) {
        await messageUser(tx, userId, { title: 'notify.p2p.title', body: 'notify.p2p.appealNote' }, { orderNo: order.order_no, note: input.note }, now);
      }
      await tx.query('UPDATE p2p_appeals SET resolution = $2, resolved_by = $3, resolved_at = $4, note = $5 WHERE order_id = $1', [
        input.orderId,
        input.outcome,
        staffId,
        now,
        input.note,
      ]);
      await recordMoneyDecision(tx, {
        kind: `p2p.${input.outcome}`,
        recordId: input.orderId,
        userId: receiverId,
        staffId,
        firstStaffId: step.firstStaffId,
        valueUsdtMinor,
        at: now,
      });
      await appendAudit(tx, {
        staffId,
        action: `p2p.appeal.${input.outcome}`,
        targetType: 'p2p_order',
        targetId: input.orderId.toString(),
        detail: { note: input.note, people: step.people, ...(step.firstStaffId !== null ? { proposedByStaffId: step.firstStaffId.toString() } : {}) },
        requestId: input.requestId,
        at: now,
      });
    }
    const [after] = await tx.query<AppealRow>(`${APPEAL_SELECT} WHERE p.order_id = $1`, [input.orderId]);
    const afterView = await appealView(tx, after!, deps.config.VIP_LEVELS);
    await idempotency?.answerInTransaction(tx, afterView);
    return afterView;
  });
  // A proposal changes nothing either side sees; a resolution ends the order.
  if (view.resolution !== null) {
    await announceOrder(deps, { id: input.orderId, buyer_id: BigInt(view.buyerId), seller_id: BigInt(view.sellerId) }, view.order.status);
  }
  return view;
}

/** A chat image for support staff, only of an order under appeal (or appealed before); each view is audited. */
export async function readChatImageForStaff(deps: Deps, staff: StaffSession, messageId: bigint, requestId: string) {
  const [row] = await deps.db.query<{ upload_id: bigint | null; sender_id: bigint; order_id: bigint }>(
    `SELECT m.upload_id, m.sender_id, m.order_id FROM p2p_chat_messages m JOIN p2p_appeals p ON p.order_id = m.order_id WHERE m.id = $1`,
    [messageId],
  );
  if (!row?.upload_id) throw new AppError('RECORD_NOT_FOUND');
  const file = await readUpload(deps, row.upload_id, row.sender_id, 'chat');
  await appendAudit(deps.db, {
    staffId: staff.staff.id,
    action: 'p2p.chat_image.view',
    targetType: 'p2p_order',
    targetId: row.order_id.toString(),
    detail: { messageId: messageId.toString() },
    requestId,
    at: deps.now(),
  });
  return file;
}
