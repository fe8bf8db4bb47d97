import { AppError } from '@keel/contracts';
import { publicUserName } from '@keel/domain';
import { translate } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { publishToUser } from '../../realtime/publish.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { readUpload } from './upload-image.ts';

interface Row {
  id: bigint;
  user_id: bigint;
  username: string | null;
  email: string | null;
  phone: string | null;
  nickname: string | null;
  language: string;
  level: 'identity' | 'advanced';
  status: 'in_review' | 'verified' | 'rejected';
  fields: Record<string, string> | string;
  front_upload_id: bigint;
  back_upload_id: bigint;
  holding_upload_id: bigint;
  extra_upload_id: bigint | null;
  submitted_at: Date;
  reviewed_at: Date | null;
  reviewer: string | null;
  reject_reason: string | null;
}

const SELECT = `SELECT v.*, u.username, u.email, u.phone, u.nickname, u.language, s.username AS reviewer
  FROM verification_submissions v JOIN users u ON u.id = v.user_id LEFT JOIN staff s ON s.id = v.reviewed_by`;

function view(row: Row) {
  return {
    id: row.id.toString(),
    userId: row.user_id.toString(),
    // A queue names users without their contacts, whoever reads it (ADR 0023).
    userName: publicUserName({ id: row.user_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
    level: row.level,
    status: row.status,
    fields: typeof row.fields === 'string' ? (JSON.parse(row.fields) as Record<string, string>) : row.fields,
    photos: {
      front: row.front_upload_id.toString(),
      back: row.back_upload_id.toString(),
      holding: row.holding_upload_id.toString(),
      extra: row.extra_upload_id?.toString() ?? null,
    },
    submittedAt: row.submitted_at.toISOString(),
    reviewedAt: row.reviewed_at?.toISOString() ?? null,
    reviewedBy: row.reviewer,
    rejectReason: row.reject_reason,
  };
}

export async function listVerifications(deps: Deps, query: { status: Row['status']; page: number; pageSize: number }) {
  const rows = await deps.db.query<Row>(`${SELECT} WHERE v.status = $1 ORDER BY v.submitted_at, v.id LIMIT $2 OFFSET $3`, [
    query.status,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: bigint }>('SELECT count(*)::bigint AS total FROM verification_submissions WHERE status = $1', [
    query.status,
  ]);
  return { items: rows.map(view), total: Number(count!.total) };
}

/** One submission, in any state, for a reviewer who opens a link to it. */
export async function getVerification(deps: Deps, submissionId: bigint) {
  const [row] = await deps.db.query<Row>(`${SELECT} WHERE v.id = $1`, [submissionId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return view(row);
}

/** A verification photo for a reviewer; the view itself is an audited act. */
export async function readUploadForReview(deps: Deps, staff: StaffSession, uploadId: bigint, requestId: string) {
  const file = await readUpload(deps, uploadId, undefined, 'verification');
  await appendAudit(deps.db, {
    staffId: staff.staff.id,
    action: 'upload.view',
    targetType: 'user',
    targetId: file.ownerId.toString(),
    detail: { uploadId: uploadId.toString() },
    requestId,
    at: deps.now(),
  });
  return file;
}

async function notifyUser(tx: Queryable, row: Row, approved: boolean, reason: string | undefined, at: Date) {
  const language = row.language as Parameters<typeof translate>[0];
  const level = translate(language, `notify.verification.level.${row.level}`);
  const title = translate(language, approved ? 'notify.verification.approved.title' : 'notify.verification.rejected.title', { level });
  const body = approved
    ? translate(language, 'notify.verification.approved.body', { level })
    : translate(language, 'notify.verification.rejected.body', { level, reason: reason ?? '' });
  await tx.query('INSERT INTO messages (user_id, title, body, created_at) VALUES ($1, $2, $3, $4)', [row.user_id, title, body, at]);
}

/**
 * Approves or rejects a submission in review: one transaction for the decision, its audit entry
 * and the user's system message (which lights the unread flag). A submission decided by someone
 * else meanwhile is refused, not decided twice. After COMMIT the user's open connections are told
 * of the new message (`/ws` event `message`).
 */
export async function decideVerification(
  deps: Deps,
  staff: StaffSession,
  input: { submissionId: bigint; decision: 'approve' | 'reject'; reason?: string; requestId: string },
) {
  const now = deps.now();
  const decided = await deps.db.transaction(async (tx) => {
    const [current] = await tx.query<Row>(`${SELECT} WHERE v.id = $1 FOR UPDATE OF v`, [input.submissionId]);
    if (!current) throw new AppError('RECORD_NOT_FOUND');
    if (current.status !== 'in_review') throw new AppError('VERIFICATION_NOT_IN_REVIEW');
    const approved = input.decision === 'approve';
    await tx.query(
      `UPDATE verification_submissions SET status = $2, reviewed_by = $3, reviewed_at = $4, reject_reason = $5 WHERE id = $1`,
      [input.submissionId, approved ? 'verified' : 'rejected', staff.staff.id, now, approved ? null : input.reason],
    );
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: approved ? 'verification.approve' : 'verification.reject',
      targetType: 'user',
      targetId: current.user_id.toString(),
      detail: { submissionId: input.submissionId.toString(), level: current.level, ...(approved ? {} : { reason: input.reason }) },
      requestId: input.requestId,
      at: now,
    });
    await notifyUser(tx, current, approved, input.reason, now);
    const [after] = await tx.query<Row>(`${SELECT} WHERE v.id = $1`, [input.submissionId]);
    return view(after!);
  });
  await publishToUser(deps, BigInt(decided.userId), { kind: 'message', unread: true });
  return decided;
}
