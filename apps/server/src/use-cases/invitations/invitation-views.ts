import type { ContractData, getInvitationSummaryContract, listInviteesContract, listInviteRewardsContract } from '@keel/contracts';
import { formatAmount, INVITE_TRADING_FEE_REASONS, maskedPublicUserName } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { assetScales } from '../assets/account-balances.ts';

type Summary = ContractData<typeof getInvitationSummaryContract>;
type Invitees = ContractData<typeof listInviteesContract>;
type Rewards = ContractData<typeof listInviteRewardsContract>;

/** The reward rule published now: what people who register from now on are rewarded under. */
export function publishedInviteRule(config: Deps['config']): Summary['rule'] {
  return { sharePercent: config.INVITE_REWARD_SHARE_PERCENT, periodDays: config.INVITE_REWARD_DAYS, feeKinds: [...INVITE_TRADING_FEE_REASONS], levels: 1 };
}

/** The user's code and link parts, the published rule, and their counts and reward totals. */
export async function invitationSummary(deps: Deps, userId: bigint): Promise<Summary> {
  const [user] = await deps.db.query<{ invite_code: string }>('SELECT invite_code FROM users WHERE id = $1', [userId]);
  const [counts] = await deps.db.query<{ invitees: number; verified: number }>(
    `SELECT count(*)::int AS invitees,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM verification_submissions v WHERE v.user_id = i.invitee_id AND v.level = 'identity' AND v.status = 'verified'))::int AS verified
       FROM invitations i WHERE i.inviter_id = $1`,
    [userId],
  );
  const totals = await deps.db.query<{ asset: string; total: string }>(
    'SELECT asset, sum(reward_minor)::text AS total FROM invite_reward_amounts WHERE inviter_id = $1 GROUP BY asset HAVING sum(reward_minor) > 0 ORDER BY asset',
    [userId],
  );
  const scales = await assetScales(deps.db);
  return {
    code: user!.invite_code,
    link: { registerPath: '/register', inviteParam: 'invite' },
    rule: publishedInviteRule(deps.config),
    totals: {
      invitees: counts!.invitees,
      verified: counts!.verified,
      rewards: totals.map((row) => ({ asset: row.asset as Summary['totals']['rewards'][number]['asset'], amount: formatAmount(toMinor(row.total), scales.get(row.asset)!) })),
    },
  };
}

interface NamedRow {
  invitee_id: bigint;
  nickname: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
}

const nameOf = (row: NamedRow) => maskedPublicUserName({ id: row.invitee_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone });

/** The people who registered with the user's code, newest first, named masked. */
export async function listInvitees(deps: Deps, userId: bigint, query: { page: number; pageSize: number }): Promise<Invitees> {
  const rows = await deps.db.query<NamedRow & { registered_at: Date; rewards_until: Date; verified: boolean }>(
    `SELECT i.invitee_id, u.nickname, u.username, u.email, u.phone, i.registered_at, i.rewards_until,
            EXISTS (SELECT 1 FROM verification_submissions v WHERE v.user_id = i.invitee_id AND v.level = 'identity' AND v.status = 'verified') AS verified
       FROM invitations i JOIN users u ON u.id = i.invitee_id
      WHERE i.inviter_id = $1 ORDER BY i.registered_at DESC, i.invitee_id DESC LIMIT $2 OFFSET $3`,
    [userId, query.pageSize, (query.page - 1) * query.pageSize],
  );
  const [count] = await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM invitations WHERE inviter_id = $1', [userId]);
  return {
    items: rows.map((row) => ({ name: nameOf(row), joinedAt: row.registered_at.toISOString(), verified: row.verified, rewardsUntil: row.rewards_until.toISOString() })),
    total: count!.n,
  };
}

/** The user's rewards per invitee, UTC day and fee account, newest day first. */
export async function listInviteRewards(deps: Deps, userId: bigint, query: { page: number; pageSize: number }): Promise<Rewards> {
  const rows = await deps.db.query<NamedRow & { day: string; asset: string; fee_minor: string; reward_minor: string; share_percent: number; entry_id: bigint | null; settled_at: Date }>(
    `SELECT a.invitee_id, u.nickname, u.username, u.email, u.phone, a.day::text AS day, a.asset, a.fee_minor::text AS fee_minor,
            a.reward_minor::text AS reward_minor, i.share_percent, d.entry_id, d.settled_at
       FROM invite_reward_amounts a
       JOIN invite_reward_days d ON d.invitee_id = a.invitee_id AND d.day = a.day
       JOIN invitations i ON i.invitee_id = a.invitee_id
       JOIN users u ON u.id = a.invitee_id
      WHERE a.inviter_id = $1 ORDER BY a.day DESC, a.invitee_id DESC, a.fee_account_id LIMIT $2 OFFSET $3`,
    [userId, query.pageSize, (query.page - 1) * query.pageSize],
  );
  const [count] = await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM invite_reward_amounts WHERE inviter_id = $1', [userId]);
  const scales = await assetScales(deps.db);
  return {
    items: rows.map((row) => {
      const scale = scales.get(row.asset)!;
      return {
        day: row.day,
        invitee: nameOf(row),
        asset: row.asset as Rewards['items'][number]['asset'],
        fee: formatAmount(toMinor(row.fee_minor), scale),
        reward: formatAmount(toMinor(row.reward_minor), scale),
        sharePercent: row.share_percent,
        entryId: row.entry_id === null ? null : row.entry_id.toString(),
        creditedAt: row.settled_at.toISOString(),
      };
    }),
    total: count!.n,
  };
}
