import { dailyInterestMinor, daysDueBy, payoutTimeMs } from '@keel/domain';
import { startPeriodicPass } from '../../jobs/periodic-pass.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { postEntriesTogether } from '../../persistence/ledger-bulk.store.ts';
import { type EntryInput, ensureUserAccounts, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { earnTreasuryAccount } from './earn-support.ts';

/** Subscriptions settled per transaction at most. */
export const EARN_PAYOUTS_PER_BATCH = 1_000;
/** How often each node looks for interest that fell due (payout times are a day apart; the query is indexed). */
export const EARN_PAYOUT_INTERVAL_MS = 5_000;

/** What the payout step needs of a locked subscription row. */
export interface DueSubscription {
  id: bigint;
  subscription_no: string;
  user_id: bigint;
  product_id: bigint;
  asset: string;
  principal_minor: string;
  cycle_days: number;
  daily_rate_ppm: number;
  payout_minute_utc: number;
  subscribed_at_ms: bigint;
  paid_days: number;
  account_id: bigint;
  hold_id: bigint;
}

const DUE_COLUMNS = `id, subscription_no, user_id, product_id, asset, principal_minor::text AS principal_minor, cycle_days, daily_rate_ppm,
  payout_minute_utc, subscribed_at_ms, paid_days, account_id, hold_id`;

export interface SettledSubscription {
  subscriptionId: bigint;
  userId: bigint;
  daysPaid: number;
  matured: boolean;
}

/**
 * Pays, inside `tx`, every day that has come due by `nowMs` and is not yet paid of these
 * subscriptions, whose rows the caller holds FOR UPDATE; a subscription whose last day is among them
 * matures: its principal returns from the DeFi account's frozen part to the coin account with that
 * day. Each day is one journal entry from the earn treasury to the user's coin account, keyed
 * (subscription, day), and one `earn_payouts` row whose primary key is (subscription, day): a day is
 * paid once however often this runs. Locks, after the subscriptions: the maturing products (id
 * order), the assets' obligations rows (name order), then the ledger accounts (id order, by
 * postEntriesTogether) — the order every earn writer uses. All or nothing with the caller's transaction.
 */
export async function payDueDays(tx: Queryable, rows: readonly DueSubscription[], nowMs: number): Promise<SettledSubscription[]> {
  const plans = rows
    .map((row) => ({ row, dueDays: daysDueBy(Number(row.subscribed_at_ms), row.payout_minute_utc, row.cycle_days, nowMs) }))
    .filter((plan) => plan.dueDays > plan.row.paid_days);
  if (plans.length === 0) return [];
  const maturing = plans.filter((plan) => plan.dueDays === plan.row.cycle_days);
  const productIds = [...new Set(maturing.map((plan) => plan.row.product_id))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (productIds.length > 0) await tx.query('SELECT id FROM earn_products WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [productIds.map(String)]);
  const assets = [...new Set(plans.map((plan) => plan.row.asset))].sort();
  await tx.query('SELECT asset FROM earn_obligations WHERE asset = ANY($1::text[]) ORDER BY asset FOR UPDATE', [assets]);

  const treasuries = new Map<string, bigint>();
  for (const asset of assets) treasuries.set(asset, await earnTreasuryAccount(tx, asset));
  // Every user's coin account per asset in one statement (a batch may name a thousand users).
  const coins = new Map<string, bigint>();
  for (const asset of assets) {
    const users = plans.filter((plan) => plan.row.asset === asset).map((plan) => plan.row.user_id);
    for (const [userId, accountId] of await ensureUserAccounts(tx, users, 'coin', asset)) coins.set(`${userId}:${asset}`, accountId);
  }

  const at = new Date(nowMs);
  const entries: EntryInput[] = [];
  const payouts: { subscriptionId: bigint; day: number; dueAtMs: number; interestMinor: bigint; entryIndex: number | null }[] = [];
  const owedDown = new Map<string, bigint>();
  const productDown = new Map<bigint, bigint>();
  const settled: SettledSubscription[] = [];
  const updates: { id: bigint; holdId: bigint; paidDays: number; paidMinor: bigint; nextPayoutAtMs: number | null; matured: boolean; closeIndex: number | null }[] = [];
  for (const { row, dueDays } of plans) {
    const principal = toMinor(row.principal_minor);
    const interest = dailyInterestMinor(principal, row.daily_rate_ppm);
    const coin = coins.get(`${row.user_id}:${row.asset}`)!;
    const treasury = treasuries.get(row.asset)!;
    for (let day = row.paid_days + 1; day <= dueDays; day += 1) {
      const dueAtMs = payoutTimeMs(Number(row.subscribed_at_ms), row.payout_minute_utc, day);
      let entryIndex: number | null = null;
      if (interest > 0n) {
        entries.push({
          reason: 'earn.interest',
          referenceType: 'earn_subscription',
          referenceId: row.id.toString(),
          idempotencyKey: `earn.interest:${row.id}:${day}`,
          memo: `${row.subscription_no} day ${day} of ${row.cycle_days}, due ${new Date(dueAtMs).toISOString()}`,
          postings: [
            { accountId: treasury, asset: row.asset, bucket: 'available', amountMinor: -interest },
            { accountId: coin, asset: row.asset, bucket: 'available', amountMinor: interest },
          ],
          at,
        });
        entryIndex = entries.length - 1;
      }
      payouts.push({ subscriptionId: row.id, day, dueAtMs, interestMinor: interest, entryIndex });
    }
    const days = dueDays - row.paid_days;
    const paidMinor = interest * BigInt(days);
    owedDown.set(row.asset, (owedDown.get(row.asset) ?? 0n) + paidMinor);
    const matured = dueDays === row.cycle_days;
    let closeIndex: number | null = null;
    if (matured) {
      entries.push({
        reason: 'earn.mature',
        referenceType: 'earn_subscription',
        referenceId: row.id.toString(),
        idempotencyKey: `earn.close:${row.id}`,
        memo: `${row.subscription_no} matured: principal returned`,
        postings: [
          { accountId: row.account_id, asset: row.asset, bucket: 'frozen', amountMinor: -principal },
          { accountId: coin, asset: row.asset, bucket: 'available', amountMinor: principal },
        ],
        at,
      });
      closeIndex = entries.length - 1;
      productDown.set(row.product_id, (productDown.get(row.product_id) ?? 0n) + principal);
    }
    updates.push({
      id: row.id,
      holdId: row.hold_id,
      paidDays: dueDays,
      paidMinor,
      nextPayoutAtMs: matured ? null : payoutTimeMs(Number(row.subscribed_at_ms), row.payout_minute_utc, dueDays + 1),
      matured,
      closeIndex,
    });
    settled.push({ subscriptionId: row.id, userId: row.user_id, daysPaid: days, matured });
  }

  const posted = await postEntriesTogether(tx, entries);
  // Rows held FOR UPDATE with paid_days moving in the same transaction as the entries: a replay here
  // would mean a day paid outside this rule.
  if (posted.some((entry) => entry.replayed)) throw new Error('an earn day or maturity already in the journal was due again');
  const entryIdOf = (index: number | null) => (index === null ? null : posted[index]!.entryId.toString());

  await tx.query(
    `INSERT INTO earn_payouts (subscription_id, day, due_at_ms, paid_at_ms, interest_minor, entry_id)
     SELECT c.subscription_id, c.day, c.due_at_ms, $1, c.interest, c.entry_id
     FROM unnest($2::bigint[], $3::int[], $4::bigint[], $5::numeric[], $6::bigint[]) AS c(subscription_id, day, due_at_ms, interest, entry_id)`,
    [
      nowMs,
      payouts.map((payout) => payout.subscriptionId.toString()),
      payouts.map((payout) => payout.day),
      payouts.map((payout) => String(payout.dueAtMs)),
      payouts.map((payout) => payout.interestMinor.toString()),
      payouts.map((payout) => entryIdOf(payout.entryIndex)),
    ],
  );
  await tx.query(
    `UPDATE earn_subscriptions s SET paid_days = c.paid_days, interest_paid_minor = s.interest_paid_minor + c.paid,
       next_payout_at_ms = c.next_payout_at_ms,
       status = CASE WHEN c.matured THEN 'completed' ELSE s.status END,
       closed_at_ms = CASE WHEN c.matured THEN $1 ELSE s.closed_at_ms END,
       close_entry_id = c.close_entry_id
     FROM unnest($2::bigint[], $3::int[], $4::numeric[], $5::bigint[], $6::boolean[], $7::bigint[]) AS c(id, paid_days, paid, next_payout_at_ms, matured, close_entry_id)
     WHERE s.id = c.id AND s.status = 'active'`,
    [
      nowMs,
      updates.map((update) => update.id.toString()),
      updates.map((update) => update.paidDays),
      updates.map((update) => update.paidMinor.toString()),
      updates.map((update) => (update.nextPayoutAtMs === null ? null : String(update.nextPayoutAtMs))),
      updates.map((update) => update.matured),
      updates.map((update) => entryIdOf(update.closeIndex)),
    ],
  );
  const closedHolds = updates.filter((update) => update.matured);
  if (closedHolds.length > 0) {
    await tx.query(
      `UPDATE ledger_holds h SET status = 'released', closed_entry_id = c.entry_id, closed_at = $1
       FROM unnest($2::bigint[], $3::bigint[]) AS c(hold_id, entry_id) WHERE h.id = c.hold_id AND h.status = 'open'`,
      [
        at,
        closedHolds.map((update) => update.holdId.toString()),
        closedHolds.map((update) => entryIdOf(update.closeIndex)),
      ],
    );
  }
  if (productDown.size > 0) {
    await tx.query(
      `UPDATE earn_products p SET active_minor = p.active_minor - c.down FROM unnest($1::bigint[], $2::numeric[]) AS c(id, down) WHERE p.id = c.id`,
      [[...productDown.keys()].map(String), [...productDown.values()].map(String)],
    );
  }
  await tx.query(
    `UPDATE earn_obligations o SET owed_minor = o.owed_minor - c.down FROM unnest($1::text[], $2::numeric[]) AS c(asset, down) WHERE o.asset = c.asset`,
    [[...owedDown.keys()], [...owedDown.values()].map(String)],
  );
  return settled;
}

/**
 * One batch of the payout job: the active subscriptions whose next payout time has passed, soonest
 * first, claimed FOR UPDATE SKIP LOCKED (any number of nodes share the work; a subscription being
 * redeemed is taken by the next pass), each paid every day due since its last payout (catch-up
 * after downtime, each day with the day it belongs to) and matured when its last day is among them.
 */
export async function payDueInterestBatch(deps: Pick<Deps, 'db' | 'now'>, limit = EARN_PAYOUTS_PER_BATCH): Promise<SettledSubscription[]> {
  return deps.db.transaction(async (tx) => {
    const nowMs = deps.now().getTime();
    const due = await tx.query<DueSubscription>(
      `SELECT ${DUE_COLUMNS} FROM earn_subscriptions WHERE status = 'active' AND next_payout_at_ms <= $1
       ORDER BY next_payout_at_ms, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [nowMs, limit],
    );
    return payDueDays(tx, due, nowMs);
  });
}

/**
 * Every due payout, batch after batch, until none is left. Embedded PGlite has no autovacuum, so
 * its planner may know nothing of how many subscriptions are due and claim each batch by scanning
 * and sorting all of them (bench/README.md, "Earn interest"): a run that fills its first batch
 * analyzes the table once, and the rest of the run walks the due index in order.
 */
export async function payDueInterest(deps: Pick<Deps, 'db' | 'now'>, limit = EARN_PAYOUTS_PER_BATCH): Promise<SettledSubscription[]> {
  const settled: SettledSubscription[] = [];
  for (let batches = 0; ; batches += 1) {
    const batch = await payDueInterestBatch(deps, limit);
    settled.push(...batch);
    if (batch.length < limit) return settled;
    if (batches === 0 && deps.db.kind === 'pglite') await deps.db.exec('ANALYZE earn_subscriptions');
  }
}

/**
 * Tells each user whose subscriptions were paid or matured (committed), once per user and pass: the
 * event only makes their screens refetch, so one naming the last of their subscriptions is enough.
 */
export async function announceSettled(deps: Pick<Deps, 'events' | 'logger'>, settled: readonly SettledSubscription[]): Promise<void> {
  const lastPerUser = new Map<bigint, SettledSubscription>();
  for (const each of settled) lastPerUser.set(each.userId, each);
  for (const [userId, each] of lastPerUser) {
    await publishToUser(deps, userId, { kind: 'earn.subscription', subscriptionId: each.subscriptionId.toString(), status: each.matured ? 'completed' : 'active' });
  }
}

/**
 * The payout loop of one node: a pass every `intervalMs`. Every node may run one (SKIP LOCKED). A
 * failed pass is logged and retried; nothing of it committed. Stops after the pass under way.
 */
export function startEarnPayouts(deps: Pick<Deps, 'db' | 'now' | 'logger' | 'events'>, intervalMs = EARN_PAYOUT_INTERVAL_MS): { stop: () => Promise<void> } {
  return startPeriodicPass(
    async () => {
      const settled = await payDueInterest(deps);
      if (settled.length > 0) {
        deps.logger.info({ subscriptions: settled.length, matured: settled.filter((each) => each.matured).length }, 'earn: interest paid');
        await announceSettled(deps, settled);
      }
    },
    { intervalMs, logger: deps.logger, failure: 'earn: payout pass failed' },
  );
}
