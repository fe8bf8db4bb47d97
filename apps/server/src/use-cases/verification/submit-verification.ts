import { AppError } from '@keel/contracts';
import { dailyWithdrawalLimitUsdt, normalizePhone, tierOf } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';

type Level = 'identity' | 'advanced';
type LevelState = 'unverified' | 'in_review' | 'verified' | 'rejected';

interface SubmissionRow {
  id: bigint;
  level: Level;
  status: 'in_review' | 'verified' | 'rejected';
  submitted_at: Date;
  reviewed_at: Date | null;
  reject_reason: string | null;
}

/** The state of each level: verified wins; otherwise the newest submission's state; none = unverified. */
export async function verificationStatesOf(db: Queryable, userId: bigint) {
  const rows = await db.query<SubmissionRow>(
    `SELECT id, level, status, submitted_at, reviewed_at, reject_reason FROM verification_submissions
     WHERE user_id = $1 ORDER BY (status = 'verified') DESC, id DESC`,
    [userId],
  );
  const stateOf = (level: Level) => {
    const row = rows.find((each) => each.level === level);
    return {
      status: (row?.status ?? 'unverified') as LevelState,
      submittedAt: row?.submitted_at.toISOString() ?? null,
      reviewedAt: row?.reviewed_at?.toISOString() ?? null,
      rejectReason: row?.status === 'rejected' ? row.reject_reason : null,
    };
  };
  const identity = stateOf('identity');
  const advanced = stateOf('advanced');
  const tier = tierOf({ identityVerified: identity.status === 'verified', advancedVerified: advanced.status === 'verified' });
  return { identity, advanced, tier, dailyWithdrawalLimitUsdt: dailyWithdrawalLimitUsdt[tier].toString() };
}

interface Photos {
  frontUploadId: string;
  backUploadId: string;
  holdingUploadId: string;
  extraUploadId?: string;
}

/**
 * Submits a level for review. Refused while one waits ("in review") or once verified; advanced
 * needs identity verified first. Every photo must be one of the user's own uploads, so nobody can
 * submit someone else's ID photo by its id.
 */
export async function submitVerification(
  deps: Deps,
  userId: bigint,
  level: Level,
  input: Photos & Record<string, string | undefined>,
): Promise<{ submissionId: string; status: 'in_review' }> {
  const { frontUploadId, backUploadId, holdingUploadId, extraUploadId, ...typed } = input;
  const fields = Object.fromEntries(Object.entries(typed).filter((entry): entry is [string, string] => entry[1] !== undefined));
  if (level === 'advanced') {
    const phone = normalizePhone(fields.contactPhone ?? '');
    if (!phone) throw new AppError('WRONG_PHONE_NUMBER');
    fields.contactPhone = phone;
  }
  const uploadIds = [frontUploadId, backUploadId, holdingUploadId, ...(extraUploadId ? [extraUploadId] : [])].map(BigInt);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      // Serialises a user's submissions: two at once cannot both pass the checks below.
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      const states = await verificationStatesOf(tx, userId);
      const own = states[level];
      if (own.status === 'verified') throw new AppError('ALREADY_VERIFIED');
      if (own.status === 'in_review') throw new AppError('VERIFICATION_IN_REVIEW');
      if (level === 'advanced' && states.identity.status !== 'verified') throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
      const owned = await tx.query<{ id: bigint }>(
        `SELECT id FROM uploads WHERE id = ANY($1::bigint[]) AND user_id = $2 AND purpose = 'verification'`,
        [uploadIds.map(String), userId],
      );
      if (new Set(owned.map((row) => row.id)).size !== new Set(uploadIds).size) throw new AppError('RECORD_NOT_FOUND', { field: 'uploadId' });
      const [row] = await tx.query<{ id: bigint }>(
        `INSERT INTO verification_submissions
           (user_id, level, fields, front_upload_id, back_upload_id, holding_upload_id, extra_upload_id, submitted_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8) RETURNING id`,
        [userId, level, JSON.stringify(fields), frontUploadId, backUploadId, holdingUploadId, extraUploadId ?? null, now],
      );
      return { submissionId: row!.id.toString(), status: 'in_review' as const };
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new AppError('VERIFICATION_IN_REVIEW');
    throw error;
  }
}
