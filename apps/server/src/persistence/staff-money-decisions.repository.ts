import type { Queryable } from './db.ts';
import { toMinor } from './ledger.store.ts';

/**
 * The record of every staff decision that moved money (ADR 0022), and the sums the two-person rule
 * reads from it. Both are used inside the decision's transaction, after `lockDecisionMakers`.
 */

/** Why a record needs a second person, as stored on it (jsonb): minor units as text, so no precision is lost. */
export interface StoredTwoPersonReason {
  rule: 'record' | 'unpriced' | 'staff_window' | 'user_window';
  limitUsdtMinor: string;
  decidedAloneUsdtMinor: string;
  valueUsdtMinor: string;
  windowMs: number;
}

export type MoneyDecisionKind = 'deposit.credit' | 'withdrawal.approve' | 'p2p.release' | 'p2p.refund' | 'loan.disburse' | 'c2c.complete' | 'c2c.fail';

/**
 * The first two locks of every staff decision that may move money, in this order: the deciding
 * staff member's row, then the row of the user the money reaches or leaves. Then the caller locks
 * the record (deposit, withdrawal, or P2P order and its ad), then the hold and the ledger accounts
 * (in id order). Two decisions by one member, or for one user, therefore run one after the other,
 * and the second one's sums include the first. NO KEY UPDATE: the rows are not changed, and
 * inserts that only reference them (a new withdrawal of the user) need not wait.
 */
export async function lockDecisionMakers(tx: Queryable, input: { staffId: bigint; userId: bigint }) {
  await tx.query('SELECT id FROM staff WHERE id = $1 FOR NO KEY UPDATE', [input.staffId]);
  await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [input.userId]);
}

/** What this member decided alone, and what reached or left this user through one-person decisions, since `since` (exclusive). */
export async function aloneSums(tx: Queryable, input: { staffId: bigint; userId: bigint; since: Date }) {
  const [row] = await tx.query<{ staff_alone: string; user_alone: string }>(
    `SELECT COALESCE(sum(usdt_value_minor) FILTER (WHERE staff_id = $1), 0) AS staff_alone,
            COALESCE(sum(usdt_value_minor) FILTER (WHERE user_id = $2), 0) AS user_alone
       FROM staff_money_decisions
      WHERE people = 1 AND decided_at > $3 AND (staff_id = $1 OR user_id = $2)`,
    [input.staffId, input.userId, input.since],
  );
  return { staffAloneUsdtMinor: toMinor(row!.staff_alone), userAloneUsdtMinor: toMinor(row!.user_alone) };
}

export async function recordMoneyDecision(
  tx: Queryable,
  input: {
    kind: MoneyDecisionKind;
    recordId: bigint;
    userId: bigint;
    staffId: bigint;
    /** The member who agreed first, when two people decided. */
    firstStaffId: bigint | null;
    valueUsdtMinor: bigint;
    at: Date;
  },
) {
  await tx.query(
    `INSERT INTO staff_money_decisions (kind, record_id, user_id, staff_id, first_staff_id, people, usdt_value_minor, decided_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      input.kind,
      input.recordId,
      input.userId,
      input.staffId,
      input.firstStaffId,
      input.firstStaffId === null ? 1 : 2,
      input.valueUsdtMinor.toString(),
      input.at,
    ],
  );
}
