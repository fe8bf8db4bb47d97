import {
  dayFromText,
  daysDue,
  dayStartMs,
  dayText,
  INVITE_REWARD_REASON,
  inviteRewardMinor,
  inviteRewardPostings,
  lastCompleteDay,
  rewardWindow,
} from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Deps } from '../../deps.ts';
import { startPeriodicPass } from '../../jobs/periodic-pass.ts';
import type { Queryable } from '../../persistence/db.ts';
import { type InviteeFeeRow, inviteeFeesSql } from '../../persistence/invite-fees.ts';
import { postEntriesTogether } from '../../persistence/ledger-bulk.store.ts';
import { type EntryInput, ensureUserAccounts, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { messageUser } from '../wallet/wallet-support.ts';

/** Invitees settled per transaction at most. */
export const INVITE_REWARDS_PER_BATCH = 200;
/** Days one run settles per invitee at most: a long downtime is caught up over several runs, oldest days first. */
export const INVITE_REWARD_DAYS_PER_RUN = 31;

/**
 * Records, inside the registration's transaction, that `inviteeId` registered with `inviterId`'s
 * code at `at`, under the rule published now (copied: a later change applies to later invitees).
 */
export async function recordInvitation(tx: Queryable, config: Pick<Config, 'INVITE_REWARD_SHARE_PERCENT' | 'INVITE_REWARD_DAYS'>, inviteeId: bigint, inviterId: bigint, at: Date) {
  const window = rewardWindow(at.getTime(), config.INVITE_REWARD_DAYS);
  await tx.query(
    `INSERT INTO invitations (invitee_id, inviter_id, share_percent, period_days, registered_at, rewards_until, last_day, next_day)
     VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8::date)`,
    [inviteeId, inviterId, config.INVITE_REWARD_SHARE_PERCENT, config.INVITE_REWARD_DAYS, at, new Date(window.endMs), dayText(window.lastDay), dayText(window.firstDay)],
  );
}

interface ClaimedInvitation {
  invitee_id: bigint;
  inviter_id: bigint;
  share_percent: number;
  registered_at: Date;
  rewards_until: Date;
  last_day: string;
  next_day: string;
}

/** What one batch settled: the days with fees, and the inviters told of a day's rewards for the first time. */
export interface SettledRewards {
  invitees: number;
  daysWithFees: number;
  entries: number;
  messaged: bigint[];
}

/**
 * One batch of the reward job, one transaction: invitations with a complete UTC day left to settle,
 * oldest first, claimed FOR UPDATE SKIP LOCKED (any number of nodes share the work; none settles an
 * invitee another holds). For each, every complete day from its next unsettled one (at most
 * INVITE_REWARD_DAYS_PER_RUN, never past its period) is settled: the day's trading fees per fee
 * account (`inviteeFeesSql`), the share rounded down, one journal entry per (invitee, day) from the
 * fee accounts to the inviter's coin account (keyed `invite.reward:<invitee>:<day>`), the day's row
 * — its primary key (invitee, day) makes a second payment impossible — and the fee rows, then the
 * invitation's next day moved past them. A day with fees whose shares all round to nothing gets its
 * row without an entry; a day without fees only moves the cursor. Each inviter with a reward entry
 * for a day gets one message for that day, however many invitees and runs pay it. Lock order:
 * invitation rows, then the ledger accounts (ascending ids, postEntriesTogether).
 */
export async function creditInviteRewardsBatch(deps: Pick<Deps, 'db' | 'now'>, limit = INVITE_REWARDS_PER_BATCH): Promise<SettledRewards> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const nowMs = now.getTime();
    const claimed = await tx.query<ClaimedInvitation>(
      `SELECT invitee_id, inviter_id, share_percent, registered_at, rewards_until, last_day::text AS last_day, next_day::text AS next_day
         FROM invitations WHERE next_day <= last_day AND next_day <= $1::date
        ORDER BY next_day, invitee_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [dayText(lastCompleteDay(nowMs)), limit],
    );
    const settled: SettledRewards = { invitees: claimed.length, daysWithFees: 0, entries: 0, messaged: [] };
    if (claimed.length === 0) return settled;

    const plans = claimed.map((row) => {
      const due = daysDue(dayFromText(row.next_day), dayFromText(row.last_day), nowMs, INVITE_REWARD_DAYS_PER_RUN)!;
      return {
        row,
        due,
        fromMs: Math.max(dayStartMs(due.fromDay), row.registered_at.getTime()),
        toMs: Math.min(dayStartMs(due.throughDay + 1), row.rewards_until.getTime()),
      };
    });
    const fees = await tx.query<InviteeFeeRow>(
      inviteeFeesSql('SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS c(invitee_id, from_at, to_at)'),
      [plans.map((plan) => plan.row.invitee_id.toString()), plans.map((plan) => new Date(plan.fromMs)), plans.map((plan) => new Date(plan.toMs))],
    );
    const planOf = new Map(plans.map((plan) => [plan.row.invitee_id, plan]));

    // Fees by (invitee, day), in a fixed order: day, then fee account.
    const byDay = new Map<string, { inviteeId: bigint; day: string; fees: { feeAccountId: bigint; asset: string; feeMinor: bigint }[] }>();
    for (const fee of [...fees].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.fee_account_id < b.fee_account_id ? -1 : 1))) {
      const key = `${fee.invitee_id}:${fee.day}`;
      const group = byDay.get(key) ?? { inviteeId: fee.invitee_id, day: fee.day, fees: [] };
      group.fees.push({ feeAccountId: fee.fee_account_id, asset: fee.asset, feeMinor: toMinor(fee.fee) });
      byDay.set(key, group);
    }

    // The inviters' coin accounts, per asset, in one statement each.
    const coins = new Map<string, bigint>();
    const assets = [...new Set(fees.map((fee) => fee.asset))].sort();
    for (const asset of assets) {
      const inviters = [...byDay.values()].filter((group) => group.fees.some((fee) => fee.asset === asset)).map((group) => planOf.get(group.inviteeId)!.row.inviter_id);
      for (const [userId, accountId] of await ensureUserAccounts(tx, inviters, 'coin', asset)) coins.set(`${userId}:${asset}`, accountId);
    }

    const entries: EntryInput[] = [];
    const days: { inviteeId: bigint; day: string; inviterId: bigint; entryIndex: number | null }[] = [];
    const amounts: { inviteeId: bigint; day: string; feeAccountId: bigint; inviterId: bigint; asset: string; feeMinor: bigint; rewardMinor: bigint }[] = [];
    for (const group of byDay.values()) {
      const { row } = planOf.get(group.inviteeId)!;
      const postings = inviteRewardPostings(group.fees, row.share_percent, (asset) => coins.get(`${row.inviter_id}:${asset}`)!);
      let entryIndex: number | null = null;
      if (postings) {
        entries.push({
          reason: INVITE_REWARD_REASON,
          // The day, not the invitee: the inviter's records name nobody (ADR 0045).
          referenceType: 'invite_reward_day',
          referenceId: group.day,
          idempotencyKey: `${INVITE_REWARD_REASON}:${row.invitee_id}:${group.day}`,
          memo: `Invitation reward: ${row.share_percent} % of the trading fees of an invited user on ${group.day} (UTC)`,
          postings,
          at: now,
        });
        entryIndex = entries.length - 1;
      }
      days.push({ inviteeId: row.invitee_id, day: group.day, inviterId: row.inviter_id, entryIndex });
      for (const fee of group.fees) {
        amounts.push({ ...fee, inviteeId: row.invitee_id, day: group.day, inviterId: row.inviter_id, rewardMinor: inviteRewardMinor(fee.feeMinor, row.share_percent) });
      }
    }

    const posted = await postEntriesTogether(tx, entries);
    // The invitation rows are held and their cursor moves in this transaction: a replay would mean a
    // day paid outside this rule.
    if (posted.some((entry) => entry.replayed)) throw new Error('an invitation reward already in the journal was due again');
    const entryIdOf = (index: number | null) => (index === null ? null : posted[index]!.entryId.toString());
    if (days.length > 0) {
      await tx.query(
        `INSERT INTO invite_reward_days (invitee_id, day, inviter_id, entry_id, settled_at)
         SELECT c.invitee_id, c.day, c.inviter_id, c.entry_id, $1 FROM unnest($2::bigint[], $3::date[], $4::bigint[], $5::bigint[]) AS c(invitee_id, day, inviter_id, entry_id)`,
        [
          now,
          days.map((day) => day.inviteeId.toString()),
          days.map((day) => day.day),
          days.map((day) => day.inviterId.toString()),
          days.map((day) => entryIdOf(day.entryIndex)),
        ],
      );
      await tx.query(
        `INSERT INTO invite_reward_amounts (invitee_id, day, fee_account_id, inviter_id, asset, fee_minor, reward_minor)
         SELECT * FROM unnest($1::bigint[], $2::date[], $3::bigint[], $4::bigint[], $5::text[], $6::numeric[], $7::numeric[])`,
        [
          amounts.map((amount) => amount.inviteeId.toString()),
          amounts.map((amount) => amount.day),
          amounts.map((amount) => amount.feeAccountId.toString()),
          amounts.map((amount) => amount.inviterId.toString()),
          amounts.map((amount) => amount.asset),
          amounts.map((amount) => amount.feeMinor.toString()),
          amounts.map((amount) => amount.rewardMinor.toString()),
        ],
      );
    }
    await tx.query(
      `UPDATE invitations i SET next_day = c.next_day FROM unnest($1::bigint[], $2::date[]) AS c(invitee_id, next_day) WHERE i.invitee_id = c.invitee_id`,
      [plans.map((plan) => plan.row.invitee_id.toString()), plans.map((plan) => dayText(plan.due.throughDay + 1))],
    );

    // One message per (inviter, day) with a reward entry: the notice row is the "once".
    const paidDays = days.filter((day) => day.entryIndex !== null);
    if (paidDays.length > 0) {
      const fresh = await tx.query<{ inviter_id: bigint; day: string }>(
        `INSERT INTO invite_reward_notices (inviter_id, day)
         SELECT DISTINCT c.inviter_id, c.day FROM unnest($1::bigint[], $2::date[]) AS c(inviter_id, day) ORDER BY 1, 2
         ON CONFLICT DO NOTHING RETURNING inviter_id, day::text AS day`,
        [paidDays.map((day) => day.inviterId.toString()), paidDays.map((day) => day.day)],
      );
      for (const notice of fresh) {
        await messageUser(tx, notice.inviter_id, { title: 'notify.invite.rewarded.title', body: 'notify.invite.rewarded.body' }, { day: notice.day }, now);
      }
      settled.messaged = [...new Set(fresh.map((notice) => notice.inviter_id))];
    }
    settled.daysWithFees = days.length;
    settled.entries = entries.length;
    return settled;
  });
}

/** Every due (invitee, day), batch after batch, until none is left. */
export async function creditInviteRewards(deps: Pick<Deps, 'db' | 'now'>, limit = INVITE_REWARDS_PER_BATCH): Promise<SettledRewards> {
  const total: SettledRewards = { invitees: 0, daysWithFees: 0, entries: 0, messaged: [] };
  for (;;) {
    const batch = await creditInviteRewardsBatch(deps, limit);
    total.invitees += batch.invitees;
    total.daysWithFees += batch.daysWithFees;
    total.entries += batch.entries;
    total.messaged.push(...batch.messaged);
    if (batch.invitees < limit) return total;
  }
}

/**
 * The reward loop of one node: a run every `intervalMs` (every node may run one: SKIP LOCKED). A
 * failed run is logged and retried; nothing of its transaction committed. Stops after the run under way.
 */
export function startInviteRewards(deps: Pick<Deps, 'db' | 'now' | 'logger' | 'events'>, intervalMs: number): { stop: () => Promise<void> } {
  return startPeriodicPass(
    async () => {
      const settled = await creditInviteRewards(deps);
      if (settled.daysWithFees > 0) deps.logger.info({ invitees: settled.invitees, days: settled.daysWithFees, entries: settled.entries }, 'invitations: rewards credited');
      for (const inviterId of new Set(settled.messaged)) await publishToUser(deps, inviterId, { kind: 'message', unread: true });
    },
    { intervalMs, logger: deps.logger, failure: 'invitations: reward run failed' },
  );
}
