import { INVITE_REWARD_REASON } from '@keel/domain';
import { inviteeFeesSql } from './invite-fees.ts';

/**
 * The ledger check's rules for invitation rewards (issue 20, ADR 0045), each a query whose rows are
 * problems: every `invite.reward` entry is the one entry of a settled (invitee, day), keyed by it,
 * paying exactly that day's shares from the fee accounts to the inviter's coin account; every
 * share is the published one of the fees the journal shows that invitee paid that day (the job's
 * own rule, `inviteeFeesSql`), for every settled day of the period and no other; and every
 * invitation names the invitee's own inviter (one level).
 */
export const inviteRewardChecks: readonly { label: string; sql: string }[] = [
  {
    label: 'invitations that differ from their users',
    sql: `SELECT i.invitee_id, i.inviter_id, u.invited_by FROM invitations i JOIN users u ON u.id = i.invitee_id
           WHERE u.invited_by IS DISTINCT FROM i.inviter_id OR i.registered_at <> u.created_at
          UNION ALL
          SELECT u.id, NULL, u.invited_by FROM users u WHERE u.invited_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.invitee_id = u.id)`,
  },
  {
    label: 'invitation reward days and entries that do not match',
    sql: `SELECT d.invitee_id, d.day::text AS day, d.entry_id, e.id AS journal_entry, e.idempotency_key
            FROM invite_reward_days d
            FULL JOIN (SELECT id, idempotency_key FROM journal_entries WHERE reason = '${INVITE_REWARD_REASON}') e ON e.id = d.entry_id
            LEFT JOIN invitations i ON i.invitee_id = d.invitee_id
           WHERE d.invitee_id IS NULL OR (d.entry_id IS NOT NULL AND e.id IS NULL)
              OR (e.id IS NOT NULL AND e.idempotency_key IS DISTINCT FROM '${INVITE_REWARD_REASON}:' || d.invitee_id || ':' || d.day::text)
              OR d.inviter_id <> i.inviter_id OR d.day >= i.next_day
              OR (d.entry_id IS NULL) <> NOT EXISTS (SELECT 1 FROM invite_reward_amounts a WHERE a.invitee_id = d.invitee_id AND a.day = d.day AND a.reward_minor > 0)`,
  },
  {
    label: 'invitation reward entries whose postings differ from their rewards',
    sql: `WITH paid AS (
            SELECT d.entry_id, d.inviter_id, a.fee_account_id, a.asset, a.reward_minor
              FROM invite_reward_amounts a JOIN invite_reward_days d ON d.invitee_id = a.invitee_id AND d.day = a.day
             WHERE d.entry_id IS NOT NULL AND a.reward_minor > 0),
          expected AS (
            SELECT entry_id, fee_account_id AS account_id, -sum(reward_minor) AS amount FROM paid GROUP BY 1, 2
            UNION ALL
            SELECT p.entry_id, c.id, sum(p.reward_minor) FROM paid p
              LEFT JOIN ledger_accounts c ON c.user_id = p.inviter_id AND c.kind = 'coin' AND c.asset = p.asset GROUP BY 1, 2),
          actual AS (
            SELECT p.entry_id, p.account_id, sum(p.amount_minor) FILTER (WHERE p.bucket = 'available') AS amount,
                   count(*) FILTER (WHERE p.bucket <> 'available') AS frozen
              FROM postings p JOIN journal_entries e ON e.id = p.entry_id WHERE e.reason = '${INVITE_REWARD_REASON}' GROUP BY 1, 2)
          SELECT coalesce(x.entry_id, y.entry_id) AS entry_id, coalesce(x.account_id, y.account_id) AS account_id,
                 x.amount::text AS expected, y.amount::text AS posted
            FROM expected x FULL JOIN actual y ON x.entry_id = y.entry_id AND x.account_id = y.account_id
           WHERE x.amount IS DISTINCT FROM y.amount OR y.frozen > 0`,
  },
  {
    label: 'invitation rewards that differ from the trading fees they came from',
    sql: `WITH fees AS (${inviteeFeesSql(
      `SELECT invitee_id, registered_at AS from_at, least(rewards_until, next_day::timestamp AT TIME ZONE 'UTC') AS to_at FROM invitations`,
    )})
          SELECT coalesce(f.invitee_id, a.invitee_id) AS invitee_id, coalesce(f.day, a.day::text) AS day, coalesce(f.fee_account_id, a.fee_account_id) AS fee_account_id,
                 f.fee AS journal_fee, a.fee_minor::text AS rewarded_fee, a.reward_minor::text AS reward
            FROM fees f
            FULL JOIN invite_reward_amounts a ON a.invitee_id = f.invitee_id AND a.day::text = f.day AND a.fee_account_id = f.fee_account_id
            LEFT JOIN invitations i ON i.invitee_id = coalesce(f.invitee_id, a.invitee_id)
           WHERE f.fee IS NULL OR a.fee_minor IS NULL OR a.fee_minor <> f.fee::numeric
              OR a.reward_minor <> div(a.fee_minor * i.share_percent, 100) OR a.inviter_id <> i.inviter_id
              OR a.asset <> f.asset`,
  },
];
