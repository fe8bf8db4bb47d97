import type { Deps } from '../../deps.ts';

/**
 * The user's system messages (`/message`): what Keel told them — verification decisions, deposits
 * and withdrawals, P2P order steps. Unread ones light the tab bar's flag (GET /home/user/unread).
 */
export async function listSystemMessages(deps: Deps, userId: bigint, query: { page: number; pageSize: number }) {
  const rows = await deps.db.query<{ id: bigint; title: string; body: string; read_at: Date | null; created_at: Date }>(
    'SELECT id, title, body, read_at, created_at FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3',
    [userId, query.pageSize, (query.page - 1) * query.pageSize],
  );
  const [counts] = await deps.db.query<{ total: bigint; unread: bigint }>(
    'SELECT count(*)::bigint AS total, count(*) FILTER (WHERE read_at IS NULL)::bigint AS unread FROM messages WHERE user_id = $1',
    [userId],
  );
  return {
    items: rows.map((row) => ({ id: row.id.toString(), title: row.title, body: row.body, read: row.read_at !== null, createdAt: row.created_at.toISOString() })),
    total: Number(counts!.total),
    unread: Number(counts!.unread),
  };
}

/** Marks the user's messages up to `upToId` read — what the list has shown — and answers how many stay unread. */
export async function markSystemMessagesRead(deps: Deps, userId: bigint, upToId: bigint) {
  await deps.db.query('UPDATE messages SET read_at = $3 WHERE user_id = $1 AND id <= $2 AND read_at IS NULL', [userId, upToId, deps.now()]);
  const [row] = await deps.db.query<{ unread: bigint }>('SELECT count(*)::bigint AS unread FROM messages WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return { unread: Number(row!.unread) };
}
