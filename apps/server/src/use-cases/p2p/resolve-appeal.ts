import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
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
}

async function appealView(db: Queryable, appeal: AppealRow) {
  const [order] = await db.query<Parameters<typeof orderView>[0]>(`${ORDER_SELECT} WHERE o.id = $1`, [appeal.order_id]);
  const { role: _role, ...view } = orderView(order!, order!.buyer_id);
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
    chat: await staffChat(db, { id: order!.id, buyer_id: order!.buyer_id }),
  };
}

const APPEAL_SELECT = 'SELECT p.*, s.username AS resolver FROM p2p_appeals p LEFT JOIN staff s ON s.id = p.resolved_by';

export async function listAppeals(deps: Deps, query: { status: 'open' | 'resolved'; page: number; pageSize: number }) {
  const where = query.status === 'open' ? 'WHERE p.resolution IS NULL' : 'WHERE p.resolution IS NOT NULL';
  const order = query.status === 'open' ? 'p.opened_at, p.order_id' : 'p.resolved_at DESC, p.order_id';
  const rows = await deps.db.query<AppealRow>(`${APPEAL_SELECT} ${where} ORDER BY ${order} LIMIT $1 OFFSET $2`, [query.pageSize, (query.page - 1) * query.pageSize]);
  const [count] = await deps.db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM p2p_appeals p ${where}`);
  const items = [];
  for (const row of rows) items.push(await appealView(deps.db, row));
  return { items, total: Number(count!.total) };
}

/**
 * Support staff resolve an appeal to one of two outcomes: release the escrow to the buyer (less
 * the fee) or refund it to the seller. They never type an amount. The order is locked first (the
 * P2P lock order), then the appeal is marked; step, audit entry and both sides' messages commit
 * together.
 */
export async function resolveAppeal(deps: Deps, staff: StaffSession, input: { orderId: bigint; outcome: 'release' | 'refund'; note: string; requestId: string }) {
  const now = deps.now();
  const view = await deps.db.transaction(async (tx) => {
    const [appeal] = await tx.query<AppealRow>(`${APPEAL_SELECT} WHERE p.order_id = $1`, [input.orderId]);
    if (!appeal) throw new AppError('RECORD_NOT_FOUND');
    await applyStep(tx, input.orderId, { kind: 'staff' }, { kind: 'resolve', outcome: input.outcome }, now);
    // Both sides read the staff member's note, besides the outcome's own message.
    const [parties] = await tx.query<{ order_no: string; buyer_id: bigint; seller_id: bigint }>('SELECT order_no, buyer_id, seller_id FROM p2p_orders WHERE id = $1', [
      input.orderId,
    ]);
    for (const userId of [parties!.buyer_id, parties!.seller_id]) {
      await messageUser(tx, userId, { title: 'notify.p2p.title', body: 'notify.p2p.appealNote' }, { orderNo: parties!.order_no, note: input.note }, now);
    }
    await tx.query('UPDATE p2p_appeals SET resolution = $2, resolved_by = $3, resolved_at = $4, note = $5 WHERE order_id = $1', [
      input.orderId,
      input.outcome,
      staff.staff.id,
      now,
      input.note,
    ]);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: `p2p.appeal.${input.outcome}`,
      targetType: 'p2p_order',
      targetId: input.orderId.toString(),
      detail: { note: input.note },
      requestId: input.requestId,
      at: now,
    });
    const [resolved] = await tx.query<AppealRow>(`${APPEAL_SELECT} WHERE p.order_id = $1`, [input.orderId]);
    return appealView(tx, resolved!);
  });
  await announceOrder(deps, { id: input.orderId, buyer_id: BigInt(view.buyerId), seller_id: BigInt(view.sellerId) }, view.order.status);
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
