import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { readUpload } from '../verification/upload-image.ts';

/**
 * The per-order chat (issue 6): text and images between the two sides of an order, the evidence
 * if it comes to an appeal. Only the two parties read or write it; a sender may withdraw a message
 * within 10 minutes — the other side then sees that it was withdrawn, while support staff handling
 * an appeal still see the original. Text is stored and sent as text; clients never render it as HTML.
 */

/** Spec section 9: the chat message withdrawal window. */
export const CHAT_WITHDRAW_WINDOW_MS = 10 * 60_000;
/** A bound on one order's chat (TIGER_STYLE: a limit on everything). */
export const MAX_CHAT_MESSAGES_PER_ORDER = 500;

interface ChatRow {
  id: bigint;
  order_id: bigint;
  sender_id: bigint;
  text: string | null;
  upload_id: bigint | null;
  created_at: Date;
  withdrawn_at: Date | null;
  read_at: Date | null;
}

function chatView(row: ChatRow, viewerId: bigint) {
  const withdrawn = row.withdrawn_at !== null;
  return {
    id: row.id.toString(),
    orderId: row.order_id.toString(),
    from: row.sender_id === viewerId ? ('me' as const) : ('them' as const),
    kind: row.upload_id === null ? ('text' as const) : ('image' as const),
    text: withdrawn ? null : row.text,
    hasImage: !withdrawn && row.upload_id !== null,
    withdrawn,
    read: row.read_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

/** The order's two parties, or "not found" for anyone who is not one of them. */
async function partiesOf(db: Queryable, orderId: bigint, userId: bigint): Promise<{ buyer_id: bigint; seller_id: bigint }> {
  const [order] = await db.query<{ buyer_id: bigint; seller_id: bigint }>('SELECT buyer_id, seller_id FROM p2p_orders WHERE id = $1', [orderId]);
  if (!order || (order.buyer_id !== userId && order.seller_id !== userId)) throw new AppError('RECORD_NOT_FOUND');
  return order;
}

/** After commit: both sides' connections hear of the new or withdrawn message and fetch it. */
async function announceChat(deps: Deps, parties: { buyer_id: bigint; seller_id: bigint }, orderId: bigint, messageId: string) {
  for (const userId of [parties.buyer_id, parties.seller_id]) {
    await publishToUser(deps, userId, { kind: 'p2p.chat', orderId: orderId.toString(), messageId });
  }
}

export async function listChat(deps: Deps, userId: bigint, orderId: bigint) {
  await partiesOf(deps.db, orderId, userId);
  // Reading marks the other side's messages read.
  await deps.db.query('UPDATE p2p_chat_messages SET read_at = $3 WHERE order_id = $1 AND sender_id <> $2 AND read_at IS NULL', [orderId, userId, deps.now()]);
  const rows = await deps.db.query<ChatRow>(
    `SELECT * FROM (SELECT * FROM p2p_chat_messages WHERE order_id = $1 ORDER BY id DESC LIMIT $2) latest ORDER BY id`,
    [orderId, MAX_CHAT_MESSAGES_PER_ORDER],
  );
  return { items: rows.map((row) => chatView(row, userId)) };
}

export async function sendChat(deps: Deps, userId: bigint, orderId: bigint, input: { text?: string; uploadId?: string }) {
  const parties = await partiesOf(deps.db, orderId, userId);
  if (input.uploadId !== undefined) {
    const [upload] = await deps.db.query(`SELECT 1 FROM uploads WHERE id = $1 AND user_id = $2 AND purpose = 'chat'`, [BigInt(input.uploadId), userId]);
    // Someone else's upload, or a verification photo, is "not found".
    if (!upload) throw new AppError('RECORD_NOT_FOUND', { field: 'uploadId' });
  }
  const message = await deps.db.transaction(async (tx) => {
    // The order's row lock makes the count and the insert one step, so the bound holds.
    await tx.query('SELECT id FROM p2p_orders WHERE id = $1 FOR NO KEY UPDATE', [orderId]);
    const [count] = await tx.query<{ total: bigint }>('SELECT count(*)::bigint AS total FROM p2p_chat_messages WHERE order_id = $1', [orderId]);
    if (Number(count!.total) >= MAX_CHAT_MESSAGES_PER_ORDER) throw new AppError('TOO_MANY_ITEMS', { limit: MAX_CHAT_MESSAGES_PER_ORDER });
    const [row] = await tx.query<ChatRow>(
      'INSERT INTO p2p_chat_messages (order_id, sender_id, text, upload_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [orderId, userId, input.text ?? null, input.uploadId ?? null, deps.now()],
    );
    return chatView(row!, userId);
  });
  await announceChat(deps, parties, orderId, message.id);
  return message;
}

export async function withdrawChat(deps: Deps, userId: bigint, orderId: bigint, messageId: bigint) {
  const parties = await partiesOf(deps.db, orderId, userId);
  const now = deps.now();
  const [row] = await deps.db.query<ChatRow>(
    `UPDATE p2p_chat_messages SET withdrawn_at = $4
     WHERE id = $1 AND order_id = $2 AND sender_id = $3 AND withdrawn_at IS NULL AND created_at > $5 RETURNING *`,
    [messageId, orderId, userId, now, new Date(now.getTime() - CHAT_WITHDRAW_WINDOW_MS)],
  );
  if (row) {
    await announceChat(deps, parties, orderId, row.id.toString());
    return chatView(row, userId);
  }
  const [exists] = await deps.db.query<{ sender_id: bigint }>('SELECT sender_id FROM p2p_chat_messages WHERE id = $1 AND order_id = $2', [messageId, orderId]);
  if (!exists) throw new AppError('RECORD_NOT_FOUND');
  // Too late, already withdrawn, or the other side's message: the window rule is what the user reads.
  throw new AppError('WITHDRAW_WINDOW_OVER');
}

/** An image of the chat for a party; a withdrawn one is gone for them. */
export async function readChatImage(deps: Deps, userId: bigint, orderId: bigint, messageId: bigint) {
  await partiesOf(deps.db, orderId, userId);
  const [row] = await deps.db.query<{ upload_id: bigint | null; sender_id: bigint }>(
    'SELECT upload_id, sender_id FROM p2p_chat_messages WHERE id = $1 AND order_id = $2 AND withdrawn_at IS NULL',
    [messageId, orderId],
  );
  if (!row?.upload_id) throw new AppError('RECORD_NOT_FOUND');
  return readUpload(deps, row.upload_id, row.sender_id, 'chat');
}

/** The full chat of an order for support staff, withdrawn messages with their original text. */
export async function staffChat(db: Queryable, order: { id: bigint; buyer_id: bigint }) {
  const rows = await db.query<ChatRow>('SELECT * FROM p2p_chat_messages WHERE order_id = $1 ORDER BY id', [order.id]);
  return rows.map((row) => ({
    id: row.id.toString(),
    from: row.sender_id === order.buyer_id ? ('buyer' as const) : ('seller' as const),
    kind: row.upload_id === null ? ('text' as const) : ('image' as const),
    text: row.text,
    hasImage: row.upload_id !== null,
    withdrawnAt: row.withdrawn_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  }));
}
