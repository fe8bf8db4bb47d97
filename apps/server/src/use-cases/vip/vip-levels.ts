import { AppError } from '@keel/contracts';
import {
  applicationVerdict,
  formatAmount,
  levelByRule,
  parsePriceMinor,
  progressToNext,
  publicUserName,
  usdtSymbolOf,
  usdtValueMinor,
  USDT_SCALE,
  vipDayOf,
  type VipLevel,
  type VipStanding,
  type VipTerms,
  vipTermsOf,
} from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { startPeriodicPass } from '../../jobs/periodic-pass.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { messageUser } from '../wallet/wallet-support.ts';

const DAY_MS = 86_400_000;
/** How often a node looks for users whose level for today is not computed yet. */
export const VIP_LEVEL_INTERVAL_MS = 10 * 60_000;
export const VIP_LEVEL_BATCH = 100;
/** The log line of each batch the daily job commits. */
export const VIP_LEVELS_LINE = 'vip: levels computed';

const usdt = (minor: bigint) => formatAmount(minor, USDT_SCALE);

/** What the daily level job reads: the database, the clock, recorded prices and the configured table. */
type LevelJobDeps = Pick<Deps, 'db' | 'now' | 'market'> & { config: Pick<Config, 'VIP_LEVELS'> };

/** The published table as the API shows it (thresholds in whole USDT as decimal strings). */
export function vipTableView(table: readonly VipLevel[]) {
  return table.map((each) => ({
    level: each.level,
    feeDiscountBps: each.feeDiscountBps,
    discountedFees: ['swap', 'p2p_release', 'leverage', 'futures'] as ('swap' | 'p2p_release' | 'leverage' | 'futures')[],
    extraDailyWithdrawals: each.extraDailyWithdrawals,
    minVolume30dUsdt: each.minVolume30dUsdt?.toString() ?? null,
    minBalanceUsdt: each.minBalanceUsdt?.toString() ?? null,
    byApplication: each.byApplication
      ? { minVolume30dUsdt: each.byApplication.minVolume30dUsdt.toString(), minBalanceUsdt: each.byApplication.minBalanceUsdt.toString() }
      : null,
  }));
}

/** The level a user has now (0 without a row). */
export async function vipLevelOfUser(db: Queryable, userId: bigint): Promise<number> {
  const [row] = await db.query<{ level: number }>('SELECT level FROM vip_levels WHERE user_id = $1', [userId]);
  return row?.level ?? 0;
}

/**
 * What the user's level gives now under the configured table: what every fee and the daily
 * withdrawal count read at the time they are charged or counted.
 */
export async function vipTermsOfUser(db: Queryable, table: readonly VipLevel[], userId: bigint): Promise<VipTerms> {
  return vipTermsOf(await vipLevelOfUser(db, userId), table);
}

/**
 * What the rule reads: the USDT value of the user's executed swaps in the 30 days before `now`,
 * and the USDT value of their balances (available and frozen, every account) at the last recorded
 * prices. An asset without a recorded price counts nothing (never a guessed value).
 */
export async function standingOf(deps: Pick<Deps, 'market'>, db: Queryable, userId: bigint, now: Date): Promise<VipStanding> {
  const [volume] = await db.query<{ total: string | null }>(
    `SELECT sum(usdt_value_minor)::text AS total FROM swap_quotes
      WHERE user_id = $1 AND executed_entry_id IS NOT NULL AND executed_at > $2 AND executed_at <= $3`,
    [userId, new Date(now.getTime() - 30 * DAY_MS), now],
  );
  const balances = await db.query<{ asset: string; scale: number; total: string }>(
    `SELECT a.asset, s.scale, sum(a.available_minor + a.frozen_minor)::text AS total
       FROM ledger_accounts a JOIN ledger_assets s ON s.code = a.asset
      WHERE a.user_id = $1 GROUP BY a.asset, s.scale`,
    [userId],
  );
  let balanceUsdtMinor = 0n;
  for (const each of balances) {
    const amount = toMinor(each.total);
    if (amount <= 0n) continue;
    const symbol = usdtSymbolOf(each.asset);
    if (symbol === undefined) {
      balanceUsdtMinor += amount;
      continue;
    }
    const tick = deps.market.latest(symbol);
    if (tick) balanceUsdtMinor += usdtValueMinor(amount, Number(each.scale), parsePriceMinor(tick.price)) ;
  }
  return { volume30dUsdtMinor: volume?.total ? toMinor(volume.total) : 0n, balanceUsdtMinor };
}

/** The highest level a still-valid approved application gave (an application grant lasts 30 days). */
async function applicationLevelOf(db: Queryable, userId: bigint, now: Date): Promise<{ level: number; id: bigint } | null> {
  const [row] = await db.query<{ id: bigint; level: number }>(
    `SELECT id, level FROM vip_applications WHERE user_id = $1 AND status = 'approved' AND reviewed_at > $2
      ORDER BY level DESC, id DESC LIMIT 1`,
    [userId, new Date(now.getTime() - 30 * DAY_MS)],
  );
  return row ? { level: row.level, id: row.id } : null;
}

async function setLevel(tx: Queryable, userId: bigint, level: number, source: 'rule' | 'application', applicationId: bigint | null, now: Date) {
  await tx.query(
    `INSERT INTO vip_levels (user_id, level, source, application_id, since, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (user_id) DO UPDATE SET
       since = CASE WHEN vip_levels.level = EXCLUDED.level THEN vip_levels.since ELSE EXCLUDED.since END,
       level = EXCLUDED.level, source = EXCLUDED.source, application_id = EXCLUDED.application_id, updated_at = EXCLUDED.updated_at`,
    [userId, level, source, applicationId, now],
  );
}

/**
 * One batch of the daily job: users without a computed level for today's UTC day, claimed with
 * `SKIP LOCKED`, each given the level of the published rule (or a valid application's, if higher)
 * and a `vip_level_runs` row for (user, day) in the same transaction. The primary key of that row
 * makes a second grant for one (user, day) impossible; a killed batch commits nothing, and the
 * next pass (any node, after a restart) takes the same users again. Returns how many it computed.
 */
export async function computeVipLevelsBatch(deps: LevelJobDeps, batchSize = VIP_LEVEL_BATCH): Promise<number> {
  const now = deps.now();
  const day = vipDayOf(now.getTime());
  return deps.db.transaction(async (tx) => {
    // Each claimed user with the level they have now (0 without a row), read in the same query.
    const users = await tx.query<{ id: bigint; level: number }>(
      `SELECT u.id, COALESCE(v.level, 0) AS level FROM users u LEFT JOIN vip_levels v ON v.user_id = u.id
        WHERE NOT EXISTS (SELECT 1 FROM vip_level_runs r WHERE r.user_id = u.id AND r.day = $1::date)
        ORDER BY u.id LIMIT $2 FOR UPDATE OF u SKIP LOCKED`,
      [day, batchSize],
    );
    for (const user of users) {
      const before = Number(user.level);
      const standing = await standingOf(deps, tx, user.id, now);
      const ruleLevel = levelByRule(standing, deps.config.VIP_LEVELS);
      const applied = await applicationLevelOf(tx, user.id, now);
      const byApplication = applied !== null && applied.level > ruleLevel;
      // A granted level the table no longer has falls to the highest published one below it.
      const level = vipTermsOf(byApplication ? applied.level : ruleLevel, deps.config.VIP_LEVELS).level;
      await tx.query(
        `INSERT INTO vip_level_runs (user_id, day, volume_30d_usdt_minor, balance_usdt_minor, rule_level, level, computed_at)
         VALUES ($1, $2::date, $3, $4, $5, $6, $7)`,
        [user.id, day, standing.volume30dUsdtMinor.toString(), standing.balanceUsdtMinor.toString(), ruleLevel, level, now],
      );
      await setLevel(tx, user.id, level, byApplication ? 'application' : 'rule', byApplication ? applied.id : null, now);
      // Told in the same transaction as the change: once per change, never for a day that keeps the level.
      if (level !== before) await tellLevelChanged(tx, user.id, { before, after: vipTermsOf(level, deps.config.VIP_LEVELS), standing, byApplication, day }, now);
    }
    return users.length;
  });
}

/** Every user's level for today, batch after batch until none is left. */
export async function computeVipLevels(deps: LevelJobDeps, batchSize = VIP_LEVEL_BATCH, onBatch?: (count: number) => void) {
  let total = 0;
  for (;;) {
    const count = await computeVipLevelsBatch(deps, batchSize);
    if (count === 0) return total;
    total += count;
    onBatch?.(count);
  }
}

/** The daily level job of one node: a look every `intervalMs`; today's work is done once per (user, day). */
export function startVipLevelJob(deps: LevelJobDeps & Pick<Deps, 'logger'>, intervalMs = VIP_LEVEL_INTERVAL_MS) {
  return startPeriodicPass(
    async () => {
      await computeVipLevels(deps, VIP_LEVEL_BATCH, (users) => deps.logger.info({ users }, VIP_LEVELS_LINE));
    },
    { intervalMs, logger: deps.logger, failure: 'vip: level pass failed' },
  );
}

const percentOf = (bps: number) => (bps / 100).toString();

/**
 * The user's message when the daily job changes their level (ADR 0046): the level before and now,
 * why (the rule's figures of the day, or a valid application), and what the level gives.
 */
async function tellLevelChanged(
  tx: Queryable,
  userId: bigint,
  change: { before: number; after: VipTerms; standing: VipStanding; byApplication: boolean; day: string },
  at: Date,
) {
  const raised = change.after.level > change.before;
  await messageUser(
    tx,
    userId,
    raised ? { title: 'notify.vip.raised.title', body: 'notify.vip.raised.body' } : { title: 'notify.vip.lowered.title', body: 'notify.vip.lowered.body' },
    {
      level: String(change.after.level),
      before: String(change.before),
      day: change.day,
      volume: usdt(change.standing.volume30dUsdtMinor),
      balance: usdt(change.standing.balanceUsdtMinor),
      discount: percentOf(change.after.feeDiscountBps),
      extra: String(change.after.extraDailyWithdrawals),
      how: change.byApplication ? 'application' : 'rule',
    },
    at,
  );
}

interface ApplicationRow {
  id: bigint;
  user_id: bigint;
  level: number;
  note: string | null;
  status: 'in_review' | 'approved' | 'rejected';
  submitted_at: Date;
  reviewed_at: Date | null;
  reviewer: string | null;
  reject_reason: string | null;
  volume_30d_usdt_minor: string | null;
  balance_usdt_minor: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
  nickname: string | null;
}

const SELECT_APPLICATION = `SELECT a.*, s.username AS reviewer, u.username, u.email, u.phone, u.nickname
  FROM vip_applications a JOIN users u ON u.id = a.user_id LEFT JOIN staff s ON s.id = a.reviewed_by`;

function applicationView(row: ApplicationRow) {
  return {
    id: row.id.toString(),
    level: row.level,
    note: row.note,
    status: row.status,
    submittedAt: row.submitted_at.toISOString(),
    reviewedAt: row.reviewed_at?.toISOString() ?? null,
    rejectReason: row.reject_reason,
  };
}

function staffApplicationView(row: ApplicationRow) {
  return {
    ...applicationView(row),
    userId: row.user_id.toString(),
    // A queue names users without their contacts (ADR 0023).
    userName: publicUserName({ id: row.user_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
    reviewedBy: row.reviewer,
    volume30dUsdt: row.volume_30d_usdt_minor === null ? null : usdt(toMinor(row.volume_30d_usdt_minor)),
    balanceUsdt: row.balance_usdt_minor === null ? null : usdt(toMinor(row.balance_usdt_minor)),
  };
}

/** My VIP page: the table, my level and why, my standing, my progress to the next, my applications. */
export async function myVip(deps: Deps, userId: bigint) {
  const now = deps.now();
  const [row] = await deps.db.query<{ level: number; source: 'rule' | 'application'; since: Date }>(
    'SELECT level, source, since FROM vip_levels WHERE user_id = $1',
    [userId],
  );
  const level = row?.level ?? 0;
  const standing = await standingOf(deps, deps.db, userId, now);
  const progress = progressToNext(level, standing, deps.config.VIP_LEVELS);
  const states = await verificationStatesOf(deps.db, userId);
  const applications = await deps.db.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE a.user_id = $1 ORDER BY a.id DESC LIMIT 20`, [userId]);
  // The level history: each day's run row, what the rule read and what it gave.
  const runs = await deps.db.query<{ day: string; level: number; rule_level: number; volume: string; balance: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, level, rule_level, volume_30d_usdt_minor::text AS volume, balance_usdt_minor::text AS balance
       FROM vip_level_runs WHERE user_id = $1 ORDER BY day DESC LIMIT 30`,
    [userId],
  );
  return {
    levels: vipTableView(deps.config.VIP_LEVELS),
    level,
    source: row?.source ?? 'rule',
    since: row?.since.toISOString() ?? null,
    volume30dUsdt: usdt(standing.volume30dUsdtMinor),
    balanceUsdt: usdt(standing.balanceUsdtMinor),
    progress: {
      next: progress.next,
      volume: progress.volume ? { have: usdt(progress.volume.haveMinor), need: usdt(progress.volume.needMinor) } : null,
      balance: progress.balance ? { have: usdt(progress.balance.haveMinor), need: usdt(progress.balance.needMinor) } : null,
    },
    advancedVerified: states.advanced.status === 'verified',
    applications: applications.map(applicationView),
    history: runs.map((run) => ({
      day: run.day,
      level: run.level,
      ruleLevel: run.rule_level,
      volume30dUsdt: usdt(toMinor(run.volume)),
      balanceUsdt: usdt(toMinor(run.balance)),
    })),
  };
}

/**
 * Applies for a level the table grants on application. Needs advanced verification (spec), one
 * open application at a time, and a level above mine that the table grants on application.
 */
export async function applyForVip(deps: Deps, userId: bigint, input: { level: number; note?: string }) {
  const now = deps.now();
  const states = await verificationStatesOf(deps.db, userId);
  if (states.advanced.status !== 'verified') throw new AppError('ADVANCED_VERIFICATION_REQUIRED');
  const target = deps.config.VIP_LEVELS.find((each) => each.level === input.level);
  if (!target?.byApplication) throw new AppError('VIP_APPLICATION_NOT_ALLOWED', { reason: 'not_by_application' });
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    if (input.level <= (await vipLevelOfUser(tx, userId))) throw new AppError('VIP_APPLICATION_NOT_ALLOWED', { reason: 'not_above_current' });
    const [open] = await tx.query<{ id: bigint }>(`SELECT id FROM vip_applications WHERE user_id = $1 AND status = 'in_review'`, [userId]);
    if (open) throw new AppError('VIP_APPLICATION_NOT_ALLOWED', { reason: 'already_in_review' });
    const [created] = await tx.query<{ id: bigint }>(
      `INSERT INTO vip_applications (user_id, level, note, status, submitted_at) VALUES ($1, $2, $3, 'in_review', $4) RETURNING id`,
      [userId, input.level, input.note ?? null, now],
    );
    const [row] = await tx.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE a.id = $1`, [created!.id]);
    return applicationView(row!);
  });
}

export async function listVipApplications(deps: Deps, query: { status: ApplicationRow['status']; page: number; pageSize: number }) {
  const rows = await deps.db.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE a.status = $1 ORDER BY a.submitted_at, a.id LIMIT $2 OFFSET $3`, [
    query.status,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: bigint }>('SELECT count(*)::bigint AS total FROM vip_applications WHERE status = $1', [query.status]);
  return { items: rows.map(staffApplicationView), total: Number(count!.total) };
}

/**
 * Approves or rejects an application in review. Approval reads the applicant's standing now and
 * is refused unless the published rule allows the level on application (`applicationVerdict`):
 * staff cannot grant a level by hand. The level takes effect at once; the reviewer, the standing
 * and the decision are recorded and audited in the same transaction.
 */
export async function decideVipApplication(
  deps: Deps,
  staff: StaffSession,
  input: { applicationId: bigint; decision: 'approve' | 'reject'; reason?: string; requestId: string },
) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [current] = await tx.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE a.id = $1 FOR UPDATE OF a`, [input.applicationId]);
    if (!current) throw new AppError('RECORD_NOT_FOUND');
    if (current.status !== 'in_review') throw new AppError('VERIFICATION_NOT_IN_REVIEW');
    const approved = input.decision === 'approve';
    const standing = await standingOf(deps, tx, current.user_id, now);
    if (approved) {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [current.user_id]);
      const verdict = applicationVerdict(current.level, await vipLevelOfUser(tx, current.user_id), standing, deps.config.VIP_LEVELS);
      if (!verdict.allowed) throw new AppError('VIP_APPLICATION_NOT_ALLOWED', { reason: verdict.reason });
    }
    await tx.query(
      `UPDATE vip_applications SET status = $2, reviewed_by = $3, reviewed_at = $4, reject_reason = $5,
         volume_30d_usdt_minor = $6, balance_usdt_minor = $7 WHERE id = $1`,
      [
        input.applicationId,
        approved ? 'approved' : 'rejected',
        staff.staff.id,
        now,
        approved ? null : input.reason,
        standing.volume30dUsdtMinor.toString(),
        standing.balanceUsdtMinor.toString(),
      ],
    );
    if (approved) await setLevel(tx, current.user_id, current.level, 'application', current.id, now);
    const granted = vipTermsOf(current.level, deps.config.VIP_LEVELS);
    await messageUser(
      tx,
      current.user_id,
      approved
        ? { title: 'notify.vip.approved.title', body: 'notify.vip.approved.body' }
        : { title: 'notify.vip.rejected.title', body: 'notify.vip.rejected.body' },
      { level: String(current.level), discount: percentOf(granted.feeDiscountBps), extra: String(granted.extraDailyWithdrawals), reason: input.reason ?? '' },
      now,
    );
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: approved ? 'vip.application.approve' : 'vip.application.reject',
      targetType: 'user',
      targetId: current.user_id.toString(),
      detail: {
        applicationId: input.applicationId.toString(),
        level: current.level,
        volume30dUsdt: usdt(standing.volume30dUsdtMinor),
        balanceUsdt: usdt(standing.balanceUsdtMinor),
        ...(approved ? {} : { reason: input.reason }),
      },
      requestId: input.requestId,
      at: now,
    });
    const [after] = await tx.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE a.id = $1`, [input.applicationId]);
    return staffApplicationView(after!);
  });
}
