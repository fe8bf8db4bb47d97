// Earn interest (issue 17): one day's payout for 100,000 active earn subscriptions, reconciled
// exactly. Keel's side is the production payout job (`payDueInterest`: the due subscriptions claimed
// 1,000 at a time FOR UPDATE SKIP LOCKED, each batch one transaction — every day's entry of the
// batch posted by one ledger_write_batch call, payouts, subscriptions and the obligations row
// written by one statement each). The peer is the obvious design: the due subscriptions found by
// the same index, then one transaction per subscription (lock it, the obligations row, postEntry
// from the earn treasury to the user's coin account with the same key, its earn_payouts row, the
// subscription and the obligations row updated), 4 concurrent workers on PostgreSQL, 1 on PGlite
// (one session), with the same domain rules. Each side runs on its own, identically seeded
// database (PGlite: a copy of the seeded data folder; PostgreSQL: a second schema seeded the same
// way), since the payout job pays everything due. Subscriptions are written by the bulk seeder
// that makes exactly what subscribing does (test/helpers/earn-seed.ts) — the ledger check runs on
// the seed before the run. Afterwards, on each side: every subscription paid day 1 and only day 1,
// one keyed entry and one payout row each, the interest total and the obligations exact, every
// user's coin balance exact, the ledger check clean; and both sides' books identical (digests of
// subscriptions, payouts, interest entries and balances). Targets: Keel ≤ 10 s on PostgreSQL,
// ≤ 20 s on PGlite, Keel ≥ 5× the peer. Writes bench/results/interest.json.
// `npm run bench:interest`; never part of `npm test`.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dailyInterestMinor, daysDueBy, payoutTimeMs, transferPostings } from '@keel/domain';
import { type Db, openPglite, openPostgres } from '../apps/server/src/persistence/db.ts';
import { checkLedger } from '../apps/server/src/persistence/ledger-check.ts';
import { postEntriesTogether } from '../apps/server/src/persistence/ledger-bulk.store.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, toMinor } from '../apps/server/src/persistence/ledger.store.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';
import { earnTreasuryAccount } from '../apps/server/src/use-cases/earn/earn-support.ts';
import { type DueSubscription, EARN_PAYOUTS_PER_BATCH, payDueInterest } from '../apps/server/src/use-cases/earn/pay-interest.ts';
import { seedSubscriptions } from '../apps/server/test/helpers/earn-seed.ts';
import { addProduct, fundTreasury, specProduct, usdt } from '../apps/server/test/integration/earn/earn-helpers.ts';
import { loadAverage, machineInfo } from './machine.ts';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const PER_USER = 100;
const USERS = Math.ceil(SUBSCRIPTIONS / PER_USER);
/** interleaved: user u holds subscriptions u, u + USERS, u + 2 × USERS, … (as subscriptions made over time spread in the due order); grouped: each user's 100 in a row. */
const LAYOUT = (process.env.BENCH_LAYOUT ?? 'interleaved') as 'interleaved' | 'grouped';
const PEER_WORKERS = 4;
const POOL_SIZE = 8;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGET_SECONDS = { postgres: 10, pglite: 20 } as const;
const TARGET_RATIO = 5;

const PRINCIPAL = usdt('100');
const CYCLE_DAYS = 10;
const DAILY_RATE_PPM = 3_000;
/** Paid at 11:00 UTC; subscribed at noon the day before; the job runs at noon: exactly day 1 is due. */
const PAYOUT_MINUTE_UTC = 11 * 60;
const SUBSCRIBED_AT_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
const NOW_MS = Date.UTC(2026, 10, 27, 12, 0, 0);
const DAILY = dailyInterestMinor(PRINCIPAL, DAILY_RATE_PPM);
const DAY_1_AT_MS = payoutTimeMs(SUBSCRIBED_AT_MS, PAYOUT_MINUTE_UTC, 1);
const DAY_2_AT_MS = payoutTimeMs(SUBSCRIBED_AT_MS, PAYOUT_MINUTE_UTC, 2);
/** What each user's coin account holds before subscribing: the principal of their subscriptions and 1,000 USDT more. */
const FUNDING = PRINCIPAL * BigInt(PER_USER) + usdt('1000');
/** The earn treasury: every promise to maturity (what selling them required) and 1,000 USDT more. */
const TREASURY = DAILY * BigInt(CYCLE_DAYS) * BigInt(SUBSCRIPTIONS) + usdt('1000');

if (SUBSCRIPTIONS % PER_USER !== 0) throw new Error(`BENCH_SUBSCRIPTIONS must be a multiple of ${PER_USER}`);
if (daysDueBy(SUBSCRIBED_AT_MS, PAYOUT_MINUTE_UTC, CYCLE_DAYS, NOW_MS) !== 1) throw new Error('the bench clock must make exactly one day due');

type DbKind = 'pglite' | 'postgres';
type Side = 'keel' | 'peer';

async function pool<T>(items: readonly T[], workers: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const formatUsdt = (minor: bigint) => `${minor / 1_000_000n}.${(minor % 1_000_000n).toString().padStart(6, '0')}`;

/** Users with funded coin accounts, the product, the earn treasury, and every subscription as subscribing would write it. */
async function seed(db: Db): Promise<{ productId: bigint; subscriptionIds: bigint[] }> {
  await migrate(db);
  const at = new Date(SUBSCRIBED_AT_MS - 3_600_000);
  const productId = BigInt(
    await addProduct(
      db,
      specProduct({
        name: 'Bench 10 days',
        cycleDays: CYCLE_DAYS,
        dailyRatePpm: DAILY_RATE_PPM,
        payoutMinuteUtc: PAYOUT_MINUTE_UTC,
        userQuotaMinor: PRINCIPAL * BigInt(PER_USER),
        totalQuotaMinor: PRINCIPAL * BigInt(SUBSCRIPTIONS),
      }),
      at,
    ),
  );
  await fundTreasury(db, formatUsdt(TREASURY));
  const users = await db.query<{ id: bigint }>(
    `INSERT INTO users (username, password_hash, invite_code)
     SELECT 'earnbench' || n, 'x', 'EB' || n FROM generate_series(1, $1::int) AS n ORDER BY n RETURNING id`,
    [USERS],
  );
  const userIds = users.map((user) => user.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const coins = await db.query<{ id: bigint }>(
    `INSERT INTO ledger_accounts (user_id, kind, asset) SELECT u.id, 'coin', 'USDT' FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n) ORDER BY u.n RETURNING id`,
    [userIds.map(String)],
  );
  const treasury = await ensurePlatformAccount(db, 'treasury', 'USDT', { allowNegative: true });
  await db.transaction((tx) =>
    postEntriesTogether(
      tx,
      coins.map((coin) => ({ reason: 'demo.fund', postings: transferPostings(treasury, coin.id, 'USDT', FUNDING), at })),
    ),
  );
  const subscriptionIds: bigint[] = [];
  if (LAYOUT === 'grouped') {
    subscriptionIds.push(...(await seedSubscriptions(db, { productId, userIds, perUser: PER_USER, principalMinor: PRINCIPAL, subscribedAtMs: SUBSCRIBED_AT_MS })));
  } else {
    for (let round = 0; round < PER_USER; round += 1) {
      subscriptionIds.push(...(await seedSubscriptions(db, { productId, userIds, perUser: 1, principalMinor: PRINCIPAL, subscribedAtMs: SUBSCRIBED_AT_MS })));
    }
  }
  const check = await checkLedger(db);
  if (!check.ok) throw new Error(`the seed is not a valid ledger state: ${check.problems.join('; ')}`);
  return { productId, subscriptionIds };
}

const DUE_COLUMNS = `id, subscription_no, user_id, product_id, asset, principal_minor::text AS principal_minor, cycle_days, daily_rate_ppm,
  payout_minute_utc, subscribed_at_ms, paid_days, account_id, hold_id, status`;

/** The peer: the due subscriptions by the same index, then one transaction per subscription. */
async function peerPay(db: Db, workers: number): Promise<number> {
  const due = await db.query<{ id: bigint }>(
    `SELECT id FROM earn_subscriptions WHERE status = 'active' AND next_payout_at_ms <= $1 ORDER BY next_payout_at_ms, id`,
    [NOW_MS],
  );
  const at = new Date(NOW_MS);
  let paid = 0;
  await pool(due, workers, async ({ id }) => {
    await db.transaction(async (tx) => {
      // Lock order of every earn writer: the subscription, (products,) the obligations row, the accounts.
      const [row] = await tx.query<DueSubscription & { status: string }>(`SELECT ${DUE_COLUMNS} FROM earn_subscriptions WHERE id = $1 FOR UPDATE`, [id]);
      if (row?.status !== 'active') return;
      const dueDays = daysDueBy(Number(row.subscribed_at_ms), row.payout_minute_utc, row.cycle_days, NOW_MS);
      if (dueDays <= row.paid_days) return;
      // A maturity (principal back, hold released, product's principal down) never falls due in this bench.
      if (dueDays === row.cycle_days) throw new Error(`the peer does not mature subscriptions: ${row.id}`);
      await tx.query('SELECT owed_minor FROM earn_obligations WHERE asset = $1 FOR UPDATE', [row.asset]);
      const treasury = await earnTreasuryAccount(tx, row.asset);
      const coin = await ensureUserAccount(tx, row.user_id, 'coin', row.asset);
      const interest = dailyInterestMinor(toMinor(row.principal_minor), row.daily_rate_ppm);
      for (let day = row.paid_days + 1; day <= dueDays; day += 1) {
        const dueAtMs = payoutTimeMs(Number(row.subscribed_at_ms), row.payout_minute_utc, day);
        let entryId: bigint | null = null;
        if (interest > 0n) {
          const posted = await postEntry(tx, {
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
          if (posted.replayed) throw new Error(`day ${day} of ${row.id} was already in the journal`);
          entryId = posted.entryId;
        }
        await tx.query('INSERT INTO earn_payouts (subscription_id, day, due_at_ms, paid_at_ms, interest_minor, entry_id) VALUES ($1, $2, $3, $4, $5, $6)', [
          row.id,
          day,
          dueAtMs,
          NOW_MS,
          interest.toString(),
          entryId,
        ]);
      }
      const paidMinor = interest * BigInt(dueDays - row.paid_days);
      await tx.query('UPDATE earn_subscriptions SET paid_days = $2, interest_paid_minor = interest_paid_minor + $3, next_payout_at_ms = $4 WHERE id = $1', [
        row.id,
        dueDays,
        paidMinor.toString(),
        payoutTimeMs(Number(row.subscribed_at_ms), row.payout_minute_utc, dueDays + 1),
      ]);
      await tx.query('UPDATE earn_obligations SET owed_minor = owed_minor - $2 WHERE asset = $1', [row.asset, paidMinor.toString()]);
      paid += 1;
    });
  });
  return paid;
}

/** Day 1 paid to every subscription exactly once, nothing else; the totals exact; the ledger check. */
async function reconcile(db: Db) {
  const problems: string[] = [];
  const [subs] = await db.query<{ total: number; exact: number; interest: string }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status = 'active' AND paid_days = 1 AND interest_paid_minor = $1 AND next_payout_at_ms = $2)::int AS exact,
            coalesce(sum(interest_paid_minor), 0)::text AS interest
     FROM earn_subscriptions`,
    [DAILY.toString(), DAY_2_AT_MS],
  );
  if (subs!.total !== SUBSCRIPTIONS) problems.push(`${subs!.total} subscriptions, expected ${SUBSCRIPTIONS}`);
  if (subs!.exact !== SUBSCRIPTIONS) problems.push(`${SUBSCRIPTIONS - subs!.exact} subscriptions not at exactly day 1 paid (${formatUsdt(DAILY)} USDT, next payout day 2)`);
  const expectedTotal = DAILY * BigInt(SUBSCRIPTIONS);
  if (toMinor(subs!.interest) !== expectedTotal) problems.push(`interest paid ${subs!.interest}, expected ${expectedTotal}`);
  const [payouts] = await db.query<{ total: number; exact: number; entries: number; keyed: number }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE p.day = 1 AND p.due_at_ms = $1 AND p.paid_at_ms = $2 AND p.interest_minor = $3)::int AS exact,
            count(DISTINCT p.entry_id)::int AS entries,
            count(*) FILTER (WHERE e.reason = 'earn.interest' AND e.reference_id = p.subscription_id::text
                             AND e.idempotency_key = 'earn.interest:' || p.subscription_id || ':1')::int AS keyed
     FROM earn_payouts p LEFT JOIN journal_entries e ON e.id = p.entry_id`,
    [DAY_1_AT_MS, NOW_MS, DAILY.toString()],
  );
  if (payouts!.total !== SUBSCRIPTIONS || payouts!.exact !== SUBSCRIPTIONS || payouts!.entries !== SUBSCRIPTIONS || payouts!.keyed !== SUBSCRIPTIONS) {
    problems.push(`payouts: ${payouts!.total} rows, ${payouts!.exact} exact, ${payouts!.entries} distinct entries, ${payouts!.keyed} keyed right; expected ${SUBSCRIPTIONS} each`);
  }
  const [entries] = await db.query<{ n: number; keys: number; treasury: string }>(
    `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys,
            (SELECT coalesce(sum(p.amount_minor), 0) FROM postings p JOIN journal_entries j ON j.id = p.entry_id JOIN ledger_accounts a ON a.id = p.account_id
              WHERE j.reason = 'earn.interest' AND a.user_id IS NULL AND a.kind = 'treasury' AND a.label = 'earn')::text AS treasury
     FROM journal_entries WHERE reason = 'earn.interest'`,
  );
  if (entries!.n !== SUBSCRIPTIONS || entries!.keys !== SUBSCRIPTIONS) problems.push(`${entries!.n} interest entries with ${entries!.keys} keys, expected ${SUBSCRIPTIONS}`);
  if (toMinor(entries!.treasury) !== -expectedTotal) problems.push(`the earn treasury paid ${entries!.treasury}, expected ${-expectedTotal}`);
  const [owed] = await db.query<{ owed: string }>(`SELECT owed_minor::text AS owed FROM earn_obligations WHERE asset = 'USDT'`);
  const expectedOwed = DAILY * BigInt(CYCLE_DAYS - 1) * BigInt(SUBSCRIPTIONS);
  if (toMinor(owed?.owed ?? -1) !== expectedOwed) problems.push(`obligations ${owed?.owed}, expected ${expectedOwed}`);
  const expectedCoin = FUNDING - PRINCIPAL * BigInt(PER_USER) + DAILY * BigInt(PER_USER);
  const [coins] = await db.query<{ n: number; exact: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE available_minor = $1 AND frozen_minor = 0)::int AS exact
     FROM ledger_accounts WHERE user_id IS NOT NULL AND kind = 'coin' AND asset = 'USDT'`,
    [expectedCoin.toString()],
  );
  if (coins!.n !== USERS || coins!.exact !== USERS) problems.push(`${coins!.n - coins!.exact} of ${coins!.n} coin accounts not at ${formatUsdt(expectedCoin)} USDT`);
  const check = await checkLedger(db);
  problems.push(...check.problems);
  return { ok: problems.length === 0, paidSubscriptions: subs!.exact, interestPaidMinor: subs!.interest, problems: problems.slice(0, 20) };
}

/** Digests of what both sides must have written alike (entry ids aside: the peer commits out of order). */
async function digest(db: Db) {
  const [row] = await db.query<{ subscriptions: string; payouts: string; entries: string; accounts: string }>(
    `SELECT
       (SELECT md5(string_agg(concat_ws('|', id, status, paid_days, interest_paid_minor, next_payout_at_ms), ',' ORDER BY id)) FROM earn_subscriptions) AS subscriptions,
       (SELECT md5(string_agg(concat_ws('|', subscription_id, day, due_at_ms, paid_at_ms, interest_minor), ',' ORDER BY subscription_id, day)) FROM earn_payouts) AS payouts,
       (SELECT md5(string_agg(concat_ws('|', idempotency_key, reference_type, reference_id, memo, postings_hash, created_at), ',' ORDER BY idempotency_key))
          FROM journal_entries WHERE reason = 'earn.interest') AS entries,
       (SELECT md5(string_agg(concat_ws('|', id, user_id, kind, label, asset, available_minor, frozen_minor), ',' ORDER BY id)) FROM ledger_accounts) AS accounts`,
  );
  return row!;
}

async function measureSide(kind: DbKind, side: Side, db: Db) {
  const seedCheck = await checkLedger(db);
  if (!seedCheck.ok) throw new Error(`the seed is not a valid ledger state: ${seedCheck.problems.join('; ')}`);
  const started = performance.now();
  let paid: number;
  if (side === 'keel') {
    const settled = await payDueInterest({ db, now: () => new Date(NOW_MS) });
    paid = settled.filter((each) => each.daysPaid > 0).length;
  } else {
    paid = await peerPay(db, kind === 'postgres' ? PEER_WORKERS : 1);
  }
  const seconds = (performance.now() - started) / 1000;
  const reconciled = await reconcile(db);
  console.log(
    `${kind} ${side}: paid ${paid} subscriptions in ${seconds.toFixed(2)} s; reconciled: ${reconciled.ok ? `exact (${reconciled.paidSubscriptions})` : reconciled.problems.join('; ')}`,
  );
  return { seconds, paid, reconciled, digest: await digest(db) };
}

function result(kind: DbKind, keel: Awaited<ReturnType<typeof measureSide>>, peer: Awaited<ReturnType<typeof measureSide>>, setupSeconds: number) {
  const same = (Object.keys(keel.digest) as (keyof typeof keel.digest)[]).filter((key) => keel.digest[key] !== peer.digest[key]);
  const ratio = peer.seconds / keel.seconds;
  const metSeconds = keel.seconds <= TARGET_SECONDS[kind];
  const metRatio = ratio >= TARGET_RATIO;
  const row = {
    db: kind,
    subscriptions: SUBSCRIPTIONS,
    keel_s: Number(keel.seconds.toFixed(3)),
    peer_s: Number(peer.seconds.toFixed(3)),
    ratio: Number(ratio.toFixed(1)),
    keelPaid: keel.paid,
    peerPaid: peer.paid,
    targets: { keelSeconds: TARGET_SECONDS[kind], ratio: TARGET_RATIO },
    met: metSeconds && metRatio,
    metSeconds,
    metRatio,
    reconciled: {
      ok: keel.reconciled.ok && peer.reconciled.ok && same.length === 0,
      keel: keel.reconciled,
      peer: peer.reconciled,
      sidesAlike: same.length === 0 ? true : `the sides differ in ${same.join(', ')}`,
    },
    digest: keel.digest,
    setupSeconds: Math.round(setupSeconds),
  };
  console.log(
    `${kind}: Keel paid ${keel.paid} of ${SUBSCRIPTIONS} in ${row.keel_s} s (target ≤ ${TARGET_SECONDS[kind]} s: ${metSeconds ? 'met' : 'MISSED'}); ` +
      `peer ${peer.paid} in ${row.peer_s} s; ratio ${row.ratio} (target ≥ ${TARGET_RATIO}: ${metRatio ? 'met' : 'MISSED'}); reconciled: ${row.reconciled.ok ? 'exact, both sides alike' : JSON.stringify(row.reconciled.sidesAlike)}`,
  );
  return row;
}

async function onPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-interest-'));
  try {
    const setupStarted = performance.now();
    const setup = await openPglite(join(dir, 'keel'));
    await seed(setup);
    await setup.close();
    // The peer's database: a copy of the seeded folder, byte for byte.
    cpSync(join(dir, 'keel'), join(dir, 'peer'), { recursive: true });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    console.log(`pglite: seeded ${SUBSCRIPTIONS} subscriptions (${LAYOUT}) in ${setupSeconds.toFixed(0)} s`);
    const sides = {} as Record<Side, Awaited<ReturnType<typeof measureSide>>>;
    for (const side of ['keel', 'peer'] as const) {
      const db = await openPglite(join(dir, side));
      try {
        sides[side] = await measureSide('pglite', side, db);
      } finally {
        await db.close();
      }
    }
    return result('pglite', sides.keel, sides.peer, setupSeconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const base = `keel_bench_interest_${randomBytes(4).toString('hex')}`;
  const schemas: Record<Side, string> = { keel: `${base}_keel`, peer: `${base}_peer` };
  const admin = await openPostgres(POSTGRES_URL, 1);
  try {
    const [settings] = await admin.query<{ version: string; synchronous_commit: string; fsync: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS synchronous_commit, current_setting('fsync') AS fsync`,
    );
    let setupSeconds = 0;
    for (const side of ['keel', 'peer'] as const) {
      await admin.exec(`CREATE SCHEMA ${schemas[side]}`);
      const setupStarted = performance.now();
      const setup = await openPostgres(POSTGRES_URL, POOL_SIZE, schemas[side]);
      try {
        await seed(setup);
        await setup.query('ANALYZE');
      } finally {
        await setup.close();
      }
      setupSeconds += (performance.now() - setupStarted) / 1000;
    }
    console.log(`postgres: seeded ${SUBSCRIPTIONS} subscriptions (${LAYOUT}) twice in ${setupSeconds.toFixed(0)} s`);
    const sides = {} as Record<Side, Awaited<ReturnType<typeof measureSide>>>;
    for (const side of ['keel', 'peer'] as const) {
      const db = await openPostgres(POSTGRES_URL, POOL_SIZE, schemas[side]);
      try {
        sides[side] = await measureSide('postgres', side, db);
      } finally {
        await db.close();
      }
    }
    return { ...result('postgres', sides.keel, sides.peer, setupSeconds), settings };
  } finally {
    for (const schema of Object.values(schemas)) await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
}

const startedAt = Date.now();
const loadAtStart = loadAverage();
const only = process.env.BENCH_DB as DbKind | undefined;
const pglite = only === 'postgres' ? undefined : await onPglite();
let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
let postgresSkipped: string | undefined;
if (only !== 'pglite') {
  try {
    postgres = await onPostgres();
  } catch (error) {
    postgresSkipped = `PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ':***@')} unavailable: ${String(error)}`;
    console.error(postgresSkipped);
  }
}
const cases = [...(pglite ? [pglite] : []), ...(postgres ? [postgres] : [])];
const results = {
  benchmark: 'interest',
  date: new Date().toISOString(),
  machine: machineInfo(loadAtStart, postgres?.settings ?? null),
  settings: {
    subscriptions: SUBSCRIPTIONS,
    users: USERS,
    perUser: PER_USER,
    layout: LAYOUT,
    product: `${CYCLE_DAYS} days at ${DAILY_RATE_PPM} ppm a day, paid at ${String(PAYOUT_MINUTE_UTC / 60).padStart(2, '0')}:00 UTC; ${formatUsdt(PRINCIPAL)} USDT each, ${formatUsdt(DAILY)} USDT a day`,
    clock: `subscribed ${new Date(SUBSCRIBED_AT_MS).toISOString()}, paid at ${new Date(NOW_MS).toISOString()}: day 1 due (${new Date(DAY_1_AT_MS).toISOString()})`,
    keel: `payDueInterest: ${EARN_PAYOUTS_PER_BATCH} subscriptions per transaction (claimed FOR UPDATE SKIP LOCKED), entries by one ledger_write_batch call`,
    peer: `the due subscriptions by the same index, then one transaction per subscription (lock it and the obligations row, postEntry, payout row, updates), ${PEER_WORKERS} workers on PostgreSQL, 1 on PGlite`,
    databases: 'each side on its own identically seeded database: PGlite a copy of the seeded folder (on disk), PostgreSQL a second schema seeded alike and ANALYZEd',
  },
  // The issue's shape, one row per database.
  rows: cases.map(({ db, subscriptions, keel_s, peer_s, ratio }) => ({ db, subscriptions, keel_s, peer_s, ratio })),
  cases,
  ...(postgresSkipped ? { postgresSkipped } : {}),
  elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/interest.json', import.meta.url), `${JSON.stringify(results, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
console.log(`wrote bench/results/interest.json in ${results.elapsedSeconds} s`);
const broken = cases.some((each) => !each.reconciled.ok || each.keelPaid !== SUBSCRIPTIONS || each.peerPaid !== SUBSCRIPTIONS);
process.exit(broken || postgresSkipped ? 1 : 0);
