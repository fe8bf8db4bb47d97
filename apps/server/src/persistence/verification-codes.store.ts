import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CODE_DIGITS,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  type CodeChannel,
  type CodePurpose,
  decideCodeSend,
  isCodeUsable,
  type SendDecision,
} from '@keel/domain';
import type { Db, Queryable } from './db.ts';

const HOUR_MS = 3_600_000;
// Advisory-lock key spaces (the two-number form, so they never meet the one-number locks of
// migrations and the tick recorder): one per target, one per client address.
const CODE_SEND_TARGET_LOCKS = 7_242_101;
const CODE_SEND_ADDRESS_LOCKS = 7_242_102;

function hashCode(salt: string, code: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

/** A fresh 6-digit code from the operating system's CSPRNG (leading zeros kept). */
export function generateCode(): string {
  return randomInt(0, 10 ** CODE_DIGITS).toString().padStart(CODE_DIGITS, '0');
}

/**
 * Decides whether a code may be sent to `target` from `clientIp` now (the limits of the domain
 * module, counted from the codes table, so they hold across server processes). Call it in the
 * transaction that then inserts the code: it first takes transaction-scoped advisory locks on the
 * target and on the address (in that order, for every caller, so no two wait on each other
 * crosswise), held until that transaction ends, so concurrent sends are counted one after the
 * other and each sees the codes of those before it (ADR 0018).
 */
export async function codeSendDecision(db: Queryable, input: { target: string; clientIp: string; now: Date }): Promise<SendDecision> {
  await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CODE_SEND_TARGET_LOCKS, input.target]);
  await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CODE_SEND_ADDRESS_LOCKS, input.clientIp]);
  const since = new Date(input.now.getTime() - HOUR_MS);
  const [targetRows, addressRows] = await Promise.all([
    db.query<{ created_at: Date }>('SELECT created_at FROM verification_codes WHERE target = $1 AND created_at > $2', [input.target, since]),
    db.query<{ created_at: Date }>('SELECT created_at FROM verification_codes WHERE requested_by_ip = $1 AND created_at > $2', [
      input.clientIp,
      since,
    ]),
  ]);
  return decideCodeSend({
    nowMs: input.now.getTime(),
    targetSentAtMs: targetRows.map((row) => row.created_at.getTime()),
    addressSentAtMs: addressRows.map((row) => row.created_at.getTime()),
  });
}

/**
 * Stores a new code (only its salted hash) and answers the code itself, for the message. Earlier
 * unused codes of the same target and purpose die: only the newest one works.
 */
export async function issueCode(
  tx: Queryable,
  input: { purpose: CodePurpose; channel: CodeChannel; target: string; clientIp: string; now: Date },
): Promise<{ code: string; expiresAt: Date }> {
  const code = generateCode();
  const salt = randomBytes(16).toString('hex');
  const expiresAt = new Date(input.now.getTime() + CODE_TTL_MS);
  await tx.query(
    `UPDATE verification_codes SET consumed_at = $3
     WHERE target = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > $3`,
    [input.target, input.purpose, input.now],
  );
  await tx.query(
    `INSERT INTO verification_codes (purpose, channel, target, code_hash, requested_by_ip, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [input.purpose, input.channel, input.target, `${salt}:${hashCode(salt, code)}`, input.clientIp, input.now, expiresAt],
  );
  return { code, expiresAt };
}

export type CodeCheck = { ok: true; codeId: bigint } | { ok: false };

/**
 * Checks a typed code against the newest live code of the target and purpose, in its own
 * transaction, so a wrong guess is counted even when the caller's work is then refused and
 * rolled back. The caller then consumes the code (consumeCode) in the transaction that uses it.
 */
export async function checkCode(
  db: Db,
  input: { purpose: CodePurpose; target: string; code: string; now: Date },
): Promise<CodeCheck> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: bigint; code_hash: string; attempts: number; expires_at: Date; consumed_at: Date | null }>(
      `SELECT id, code_hash, attempts, expires_at, consumed_at FROM verification_codes
       WHERE target = $1 AND purpose = $2 ORDER BY id DESC LIMIT 1 FOR UPDATE`,
      [input.target, input.purpose],
    );
    if (!row) return { ok: false } as const;
    const usable = isCodeUsable(
      { expiresAtMs: row.expires_at.getTime(), consumed: row.consumed_at !== null, attempts: row.attempts },
      input.now.getTime(),
    );
    if (!usable) return { ok: false } as const;
    const [salt, expected] = row.code_hash.split(':') as [string, string];
    const typed = /^\d{6}$/.test(input.code) ? hashCode(salt, input.code) : '';
    const matches = typed.length === expected.length && timingSafeEqual(Buffer.from(typed), Buffer.from(expected));
    if (!matches) {
      await tx.query('UPDATE verification_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
      return { ok: false } as const;
    }
    return { ok: true, codeId: row.id } as const;
  });
}

/**
 * Uses the code up, in the caller's transaction. False when another request consumed it first
 * (two registrations racing with one code): exactly one wins.
 */
export async function consumeCode(tx: Queryable, codeId: bigint, now: Date): Promise<boolean> {
  const rows = await tx.query<{ id: bigint }>(
    `UPDATE verification_codes SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL AND attempts < $3 RETURNING id`,
    [codeId, now, CODE_MAX_ATTEMPTS],
  );
  return rows.length === 1;
}
