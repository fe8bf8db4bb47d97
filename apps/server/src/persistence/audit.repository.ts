import type { Queryable } from './db.ts';

export interface AuditInput {
  staffId: bigint | null;
  action: string;
  targetType?: string;
  targetId?: string;
  detail?: Record<string, unknown>;
  clientIp?: string;
  requestId?: string;
  at: Date;
}

/** Appends one audit entry. Call it inside the transaction of the action it records. */
export async function appendAudit(db: Queryable, entry: AuditInput): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (staff_id, action, target_type, target_id, detail, client_ip, request_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      entry.staffId,
      entry.action,
      entry.targetType ?? null,
      entry.targetId ?? null,
      JSON.stringify(entry.detail ?? {}),
      entry.clientIp ?? null,
      entry.requestId ?? null,
      entry.at,
    ],
  );
}
