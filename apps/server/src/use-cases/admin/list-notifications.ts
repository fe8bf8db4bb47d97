import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { StaffSession } from './staff-auth.ts';

interface Row {
  id: bigint;
  channel: 'email' | 'sms';
  target: string;
  subject: string;
  body: string;
  topic: string;
  status: 'pending' | 'delivered' | 'outbox_only';
  provider: string | null;
  created_at: Date;
  delivered_at: Date | null;
  attempts: number | null;
  last_error: string | null;
}

/**
 * The outbox for staff. It can hold live codes (when nothing delivers them), so reading it is an
 * audited act, like viewing a verification photo.
 */
export async function listNotifications(
  deps: Deps,
  staff: StaffSession,
  query: { page: number; pageSize: number; target?: string; requestId: string },
) {
  const filter = query.target ? query.target.toLowerCase() : null;
  const rows = await deps.db.query<Row>(
    `SELECT n.*, j.attempts, j.last_error FROM notification_outbox n
     LEFT JOIN jobs j ON j.job_key = 'notification:' || n.id
     WHERE ($1::text IS NULL OR n.target = $1) ORDER BY n.id DESC LIMIT $2 OFFSET $3`,
    [filter, query.pageSize, (query.page - 1) * query.pageSize],
  );
  const [count] = await deps.db.query<{ total: bigint }>(
    'SELECT count(*)::bigint AS total FROM notification_outbox WHERE ($1::text IS NULL OR target = $1)',
    [filter],
  );
  await appendAudit(deps.db, {
    staffId: staff.staff.id,
    action: 'notifications.view',
    detail: { page: query.page, ...(filter ? { target: filter } : {}) },
    requestId: query.requestId,
    at: deps.now(),
  });
  return {
    items: rows.map((row) => ({
      id: row.id.toString(),
      channel: row.channel,
      target: row.target,
      subject: row.subject,
      body: row.body,
      topic: row.topic,
      status: row.status,
      provider: row.provider,
      createdAt: row.created_at.toISOString(),
      deliveredAt: row.delivered_at?.toISOString() ?? null,
      attempts: row.attempts ?? 0,
      lastError: row.last_error,
    })),
    total: Number(count!.total),
  };
}
