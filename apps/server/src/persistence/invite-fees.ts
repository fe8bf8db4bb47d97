import { INVITE_TRADING_FEE_REASONS } from '@keel/domain';

/**
 * The trading fees users paid, read from the journal (issue 20, ADR 0045): the one rule the reward
 * job pays by and the ledger check proves against. `windows` is SQL yielding rows
 * `(invitee_id, from_at, to_at)`; the answer has one row per (invitee, UTC day, fee account) with
 * fees in the window: `invitee_id`, `day` (text, YYYY-MM-DD), `fee_account_id`, `asset`, `fee`
 * (text, minor units).
 *
 * A fee is a positive posting to a platform `fees` account in an entry whose reason is one of
 * INVITE_TRADING_FEE_REASONS, paid by the user the entry touches (the buyer of a P2P release, whose
 * account it credits; the seller's escrow pays out the buyer's coins less the fee). An entry is
 * counted once per payer however many of the payer's postings it has; its day is the UTC day of its
 * time. Read through the invitee's own accounts (their postings by account, then their entries), so
 * the busy fee accounts are never scanned.
 */
export function inviteeFeesSql(windows: string): string {
  const reasons = INVITE_TRADING_FEE_REASONS.map((reason) => `'${reason}'`).join(', ');
  return `WITH w AS (${windows}),
    paid AS (
      SELECT DISTINCT w.invitee_id, e.id AS entry_id, e.created_at
        FROM w
        JOIN ledger_accounts ua ON ua.user_id = w.invitee_id
        JOIN postings up ON up.account_id = ua.id
        JOIN journal_entries e ON e.id = up.entry_id
       WHERE e.reason IN (${reasons}) AND e.created_at >= w.from_at AND e.created_at < w.to_at
         AND (e.reason <> 'p2p.release' OR up.amount_minor > 0)
    )
    SELECT p.invitee_id, to_char((p.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, fp.account_id AS fee_account_id, fp.asset,
           sum(fp.amount_minor)::text AS fee
      FROM paid p
      JOIN postings fp ON fp.entry_id = p.entry_id AND fp.amount_minor > 0
      JOIN ledger_accounts fa ON fa.id = fp.account_id AND fa.kind = 'fees' AND fa.user_id IS NULL
     GROUP BY p.invitee_id, 2, fp.account_id, fp.asset`;
}

export interface InviteeFeeRow {
  invitee_id: bigint;
  day: string;
  fee_account_id: bigint;
  asset: string;
  fee: string;
}
