// Ledger transfers per second (issue 3): Keel's real path — a journal entry of two postings with an
// idempotency key, posted through the group-commit batcher (locks in id order, domain rules, balance
// CHECKs, append-only journal) — against a peer: a plain PL/pgSQL function doing one transfer per
// call (lock both rows in id order, two UPDATEs, one INSERT per posting). Both are driven the same
// way, in this process: N concurrent clients, each posting its next transfer as soon as the last one
// answered, over the same pool, for the same time after the same warm-up, in interleaved slices so
// outside load falls on both alike. Cases: {PGlite on disk, PostgreSQL} × {1, 8 clients} ×
// {uniform over 10,000 accounts, 10 hot accounts}. Also reported: CPU per transfer (this process,
// and the PostgreSQL backends when the server is local), which outside load disturbs less than
// throughput. Writes bench/results/ledger.json. `npm run bench:ledger`; never part of `npm test`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transferPostings } from '@keel/domain';
import { openPglite, openPostgres, type Db } from '../apps/server/src/persistence/db.ts';
import { LedgerBatcher, ledgerBatcherFor } from '../apps/server/src/persistence/ledger-batcher.ts';
import { checkLedger } from '../apps/server/src/persistence/ledger-check.ts';
import { ensurePlatformAccount } from '../apps/server/src/persistence/ledger.store.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';
import { loadAverage, machineInfo } from './machine.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 1);
// Each side's measured time is split into this many slices, interleaved with the other side's.
const ROUNDS = 4;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ACCOUNTS = 10_000;
const HOT_ACCOUNTS = 10;
const CLIENT_COUNTS = [1, 8] as const;
const DISTRIBUTIONS = ['uniform', 'hot'] as const;
// Same pool for Keel and the peer: one connection per client at 8 clients. The batcher uses one at a time.
const POOL_SIZE = 8;
// Every account starts with 10^12 minor units; a transfer moves 1..1000, so no run drains one.
const OPENING_BALANCE_MINOR = 1_000_000_000_000n;
const MAX_TRANSFER_MINOR = 1000;

type Distribution = (typeof DISTRIBUTIONS)[number];
type DbKind = 'pglite' | 'postgres';

interface RunStats {
  tps: number;
  transfers: number;
  errors: number;
  firstError?: string;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** CPU of this process (driver and, on PGlite, the database) per transfer. */
  nodeCpuUsPerTransfer: number;
  /** CPU of the PostgreSQL backends of the pool per transfer, when the server runs on this machine. */
  serverCpuUsPerTransfer: number | null;
}

/** xorshift32: the same pseudo-random transfers on every run and for both sides. */
function rng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  return Number(sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))]!.toFixed(2));
}

/**
 * CPU of this run's PostgreSQL backends, when the server runs on this machine: their pids (found
 * by application name, since the pool opens and closes connections) and each one's CPU ticks from
 * /proc. Null when /proc does not show them (a remote server).
 */
interface ServerProbe {
  sample(): Promise<Map<number, number> | null>;
}
const MICROSECONDS_PER_TICK = 10_000; // USER_HZ is 100 on Linux

function serverProbe(admin: Db, applicationName: string): ServerProbe {
  return {
    async sample() {
      const rows = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      const ticks = new Map<number, number>();
      for (const { pid } of rows) {
        try {
          const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
          ticks.set(pid, Number(fields[11]) + Number(fields[12]));
        } catch {
          return null;
        }
      }
      return ticks;
    },
  };
}

function ticksBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let ticks = 0;
  // A backend born during the slice counts whole; one that ended during it is lost (it was idle).
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks;
}

type Transfer = (client: number, seq: number, from: number, to: number, amountMinor: bigint) => Promise<unknown>;

/**
 * One side of one case: `clients` closed loops, each posting its next transfer as soon as the last
 * answered. The random streams and sequence numbers carry over between slices, so warm-up and
 * rounds continue one run; a slice counts the transfers that completed inside it.
 */
function side(clients: number, distribution: Distribution, transfer: Transfer, probe: ServerProbe | null) {
  const pool = distribution === 'hot' ? HOT_ACCOUNTS : ACCOUNTS;
  const randoms = Array.from({ length: clients }, (_, client) => rng(0x9e3779b9 ^ (client * 7919 + 1)));
  const seqs = Array.from({ length: clients }, () => 0);
  const latenciesMs: number[] = [];
  const totals = { completed: 0, errors: 0, seconds: 0, nodeCpuUs: 0, serverTicks: 0 as number | null, firstError: undefined as string | undefined };

  async function slice(seconds: number, measured: boolean) {
    const started = performance.now();
    const stopAt = started + seconds * 1000;
    const cpuBefore = process.cpuUsage();
    const ticksBefore = (await probe?.sample()) ?? null;
    let completed = 0;
    await Promise.all(
      randoms.map(async (random, client) => {
        while (performance.now() < stopAt) {
          const from = Math.floor(random() * pool);
          const to = (from + 1 + Math.floor(random() * (pool - 1))) % pool;
          const amountMinor = BigInt(1 + Math.floor(random() * MAX_TRANSFER_MINOR));
          const seq = seqs[client]!;
          seqs[client] = seq + 1;
          const begun = performance.now();
          try {
            await transfer(client, seq, from, to, amountMinor);
            const ended = performance.now();
            if (measured && ended <= stopAt) {
              completed += 1;
              latenciesMs.push(ended - begun);
            }
          } catch (error) {
            if (measured) totals.errors += 1;
            totals.firstError ??= String(error);
          }
        }
      }),
    );
    if (!measured) return;
    const cpu = process.cpuUsage(cpuBefore);
    const serverTicks = ticksBetween(ticksBefore, (await probe?.sample()) ?? null);
    totals.completed += completed;
    totals.seconds += seconds;
    totals.nodeCpuUs += cpu.user + cpu.system;
    totals.serverTicks = totals.serverTicks === null || serverTicks === null ? null : totals.serverTicks + serverTicks;
  }

  function stats(): RunStats {
    latenciesMs.sort((a, b) => a - b);
    const perTransfer = (us: number) => Math.round(us / Math.max(1, totals.completed));
    return {
      tps: Math.round(totals.completed / totals.seconds),
      transfers: totals.completed,
      errors: totals.errors,
      ...(totals.firstError ? { firstError: totals.firstError } : {}),
      latencyP50Ms: percentile(latenciesMs, 50),
      latencyP99Ms: percentile(latenciesMs, 99),
      nodeCpuUsPerTransfer: perTransfer(totals.nodeCpuUs),
      serverCpuUsPerTransfer: totals.serverTicks === null || !probe ? null : perTransfer(totals.serverTicks * MICROSECONDS_PER_TICK),
    };
  }
  return { slice, stats };
}

/**
 * Keel and the peer of one case, interleaved: a warm-up of each, then ROUNDS rounds of a slice of
 * each (the order alternating), so load from outside this run falls on both sides alike.
 */
async function measurePair(keel: ReturnType<typeof side>, peer: ReturnType<typeof side>) {
  await keel.slice(WARMUP_S, false);
  await peer.slice(WARMUP_S, false);
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [keel, peer] : [peer, keel];
    for (const each of order) await each.slice(DURATION_S / ROUNDS, true);
  }
  return { keel: keel.stats(), peer: peer.stats() };
}

/**
 * Keel's side: 10,000 user accounts in USDT, each funded from the treasury by an entry of its own
 * through the batcher. A ledger with history, as a running one has; it also matters to the plans:
 * PostgreSQL plans the foreign-key checks of postings once per connection, and against a nearly
 * empty journal it would choose (and keep) a sequential scan.
 */
async function setUpKeel(db: Db) {
  await migrate(db);
  const treasury = await ensurePlatformAccount(db, 'treasury', 'USDT', { allowNegative: true });
  await db.exec(`
    INSERT INTO users (username, password_hash, invite_code)
      SELECT 'benchuser' || n, 'x', 'BENCH' || n FROM generate_series(1, ${ACCOUNTS}) AS n;
    INSERT INTO ledger_accounts (user_id, kind, asset)
      SELECT id, 'coin', 'USDT' FROM users WHERE username LIKE 'benchuser%' ORDER BY id;`);
  const accounts = await benchAccounts(db);
  const funding = new LedgerBatcher(db);
  const at = new Date();
  for (let start = 0; start < accounts.length; start += 1000) {
    await Promise.all(
      accounts
        .slice(start, start + 1000)
        .map((accountId) => funding.post({ reason: 'bench.fund', postings: transferPostings(treasury, accountId, 'USDT', OPENING_BALANCE_MINOR), at })),
    );
  }
}

async function benchAccounts(db: Db): Promise<bigint[]> {
  const rows = await db.query<{ id: bigint }>(
    `SELECT a.id FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE u.username LIKE 'benchuser%' ORDER BY a.id`,
  );
  return rows.map((row) => row.id);
}

/**
 * The peer: plain tables and one PL/pgSQL function per transfer, the textbook way; the same
 * opening balances, each with its opening posting.
 */
async function setUpPeer(db: Db) {
  await db.exec(`
    CREATE TABLE peer_balances (
      id             bigint PRIMARY KEY,
      balance_minor  numeric(78, 0) NOT NULL CHECK (balance_minor >= 0)
    );
    CREATE TABLE peer_postings (
      id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id     bigint NOT NULL REFERENCES peer_balances (id),
      amount_minor   numeric(78, 0) NOT NULL,
      created_at     timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX peer_postings_of_account ON peer_postings (account_id);
    INSERT INTO peer_balances (id, balance_minor) SELECT n, ${OPENING_BALANCE_MINOR} FROM generate_series(1, ${ACCOUNTS}) AS n;
    INSERT INTO peer_postings (account_id, amount_minor) SELECT id, balance_minor FROM peer_balances ORDER BY id;
    CREATE FUNCTION peer_transfer(from_id bigint, to_id bigint, amount_minor numeric) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM peer_balances WHERE id IN (from_id, to_id) ORDER BY id FOR UPDATE;
      UPDATE peer_balances SET balance_minor = balance_minor - amount_minor WHERE id = from_id;
      UPDATE peer_balances SET balance_minor = balance_minor + amount_minor WHERE id = to_id;
      INSERT INTO peer_postings (account_id, amount_minor) VALUES (from_id, -amount_minor);
      INSERT INTO peer_postings (account_id, amount_minor) VALUES (to_id, amount_minor);
    END;
    $$;`);
}

/** Both sides' data, then fresh statistics (as a running server keeps them) for the plans. */
async function setUp(db: Db) {
  await setUpKeel(db);
  await setUpPeer(db);
  await db.exec('ANALYZE');
}

/** The peer kept its books too: every balance is the sum of its postings, and money was neither made nor lost. */
async function peerIsConsistent(db: Db): Promise<boolean> {
  const [row] = await db.query<{ wrong: number; total: string }>(
    `SELECT (SELECT count(*) FROM peer_balances b
               LEFT JOIN (SELECT account_id, sum(amount_minor) AS posted FROM peer_postings GROUP BY account_id) p ON p.account_id = b.id
              WHERE b.balance_minor <> coalesce(p.posted, 0))::int AS wrong,
            (SELECT sum(balance_minor) FROM peer_balances)::text AS total`,
  );
  return row!.wrong === 0 && BigInt(row!.total) === OPENING_BALANCE_MINOR * BigInt(ACCOUNTS);
}

interface CaseResult {
  db: DbKind;
  clients: number;
  distribution: Distribution;
  keel_tps: number;
  peer_tps: number;
  ratio: number;
  keel: RunStats & { batches: number; oneStatementBatches: number; avgBatchItems: number; largestBatchItems: number };
  peer: RunStats;
}

async function runCases(kind: DbKind, db: Db, probe: ServerProbe | null): Promise<{ cases: CaseResult[]; ledgerCheck: Awaited<ReturnType<typeof checkLedger>>; peerConsistent: boolean }> {
  const accounts = await benchAccounts(db);
  // The batcher the app itself uses for this Db (ledgerBatcherFor), with its default settings.
  const batcher = ledgerBatcherFor(db);
  const runTag = randomBytes(4).toString('hex');
  const cases: CaseResult[] = [];
  for (const distribution of DISTRIBUTIONS) {
    for (const clients of CLIENT_COUNTS) {
      const label = `${kind}/${clients}c/${distribution}`;
      const before = batcher.stats();
      const keelSide = side(
        clients,
        distribution,
        (client, seq, from, to, amountMinor) =>
          batcher.post({
            reason: 'bench.transfer',
            idempotencyKey: `bench-${runTag}-${distribution}-${clients}-${client}-${seq}`,
            postings: transferPostings(accounts[from]!, accounts[to]!, 'USDT', amountMinor),
            at: new Date(),
          }),
        probe,
      );
      const peerSide = side(
        clients,
        distribution,
        (_client, _seq, from, to, amountMinor) => db.query('SELECT peer_transfer($1, $2, $3)', [from + 1, to + 1, amountMinor.toString()]),
        probe,
      );
      const { keel, peer } = await measurePair(keelSide, peerSide);
      const after = batcher.stats();
      const batches = after.batches - before.batches;
      const result: CaseResult = {
        db: kind,
        clients,
        distribution,
        keel_tps: keel.tps,
        peer_tps: peer.tps,
        ratio: Number((keel.tps / peer.tps).toFixed(2)),
        keel: {
          ...keel,
          batches,
          // Written by one statement (ledger_post_batch, ADR 0033) rather than the careful way.
          oneStatementBatches: after.oneStatementBatches - before.oneStatementBatches,
          avgBatchItems: Number(((after.items - before.items) / Math.max(1, batches)).toFixed(2)),
          largestBatchItems: after.largestBatchItems,
        },
        peer,
      };
      const cpu = (r: RunStats) => `${r.nodeCpuUsPerTransfer}${r.serverCpuUsPerTransfer === null ? '' : `+${r.serverCpuUsPerTransfer}`} µs cpu`;
      console.log(
        `${label.padEnd(20)} keel ${String(keel.tps).padStart(6)}/s (p50 ${keel.latencyP50Ms} ms, batch ${result.keel.avgBatchItems}, ${cpu(keel)})  ` +
          `peer ${String(peer.tps).padStart(6)}/s (p50 ${peer.latencyP50Ms} ms, ${cpu(peer)})  ratio ${result.ratio}`,
      );
      if (keel.errors > 0 || peer.errors > 0) console.log(`  errors: keel ${keel.errors} ${keel.firstError ?? ''} peer ${peer.errors} ${peer.firstError ?? ''}`);
      cases.push(result);
    }
  }
  await batcher.whenIdle();
  const ledgerCheck = await checkLedger(db);
  console.log(`${kind}: ledger check ${ledgerCheck.ok ? 'passed' : `FAILED ${ledgerCheck.problems.join('; ')}`} (${ledgerCheck.counts.entries} entries)`);
  return { cases, ledgerCheck, peerConsistent: await peerIsConsistent(db) };
}

async function onPglite() {
  // On disk, as Keel runs by default (DATA_DIR), not in memory.
  const dir = mkdtempSync(join(tmpdir(), 'keel-bench-ledger-'));
  // Set up, then open again: the measured session starts with nothing planned yet.
  const setup = await openPglite(join(dir, 'pgdata'));
  await setUp(setup);
  await setup.close();
  const db = await openPglite(join(dir, 'pgdata'));
  try {
    return await runCases('pglite', db, null);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const schema = `keel_bench_ledger_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('application_name', schema);
  const admin = await openPostgres(POSTGRES_URL, 1);
  try {
    await admin.exec(`CREATE SCHEMA ${schema}`);
    // Set up on one pool, measure on a fresh one: its connections start with nothing planned yet.
    const setup = await openPostgres(url.toString(), POOL_SIZE, schema);
    await setUp(setup);
    await setup.close();
    const db = await openPostgres(url.toString(), POOL_SIZE, schema);
    try {
      const [settings] = await db.query<{ version: string; synchronous_commit: string; fsync: string }>(
        `SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS synchronous_commit, current_setting('fsync') AS fsync`,
      );
      const probe = serverProbe(admin, schema);
      return { ...(await runCases('postgres', db, (await probe.sample()) ? probe : null)), settings };
    } finally {
      await db.close();
    }
  } finally {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
}

function find(cases: readonly CaseResult[], db: DbKind, clients: number, distribution: Distribution) {
  return cases.find((c) => c.db === db && c.clients === clients && c.distribution === distribution);
}

const startedAt = Date.now();
// The machine may be shared: the load around the run says how far to trust its numbers.
const loadAtStart = loadAverage();
const pglite = await onPglite();
let postgres: Awaited<ReturnType<typeof onPostgres>> | undefined;
let postgresSkipped: string | undefined;
try {
  postgres = await onPostgres();
} catch (error) {
  postgresSkipped = `PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ':***@')} unavailable: ${String(error)}`;
  console.error(postgresSkipped);
}
const cases = [...pglite.cases, ...(postgres?.cases ?? [])];

const checks: Record<string, { value: number | null; target: string; met: boolean | null }> = {};
const check = (name: string, value: number | undefined, target: number) => {
  const rounded = value === undefined || !Number.isFinite(value) ? null : Number(value.toFixed(2));
  checks[name] = { value: rounded, target: `>= ${target}`, met: rounded === null ? null : rounded >= target };
};
for (const distribution of DISTRIBUTIONS) {
  check(`postgres_8_clients_${distribution}_ratio`, find(cases, 'postgres', 8, distribution)?.ratio, 2.0);
  check(`pglite_8_clients_${distribution}_ratio`, find(cases, 'pglite', 8, distribution)?.ratio, 0.55);
  check(`pglite_1_client_${distribution}_ratio`, find(cases, 'pglite', 1, distribution)?.ratio, 0.55);
}
const pgHot = find(cases, 'postgres', 8, 'hot');
const pgUniform = find(cases, 'postgres', 8, 'uniform');
check('postgres_8_clients_keel_hot_vs_uniform', pgHot && pgUniform ? pgHot.keel_tps / pgUniform.keel_tps : undefined, 0.9);
const keelPgliteVsPostgres = cases
  .filter((c) => c.db === 'pglite')
  .map((c) => {
    const onPg = find(cases, 'postgres', c.clients, c.distribution);
    return { clients: c.clients, distribution: c.distribution, ratio: onPg ? Number((c.keel_tps / onPg.keel_tps).toFixed(2)) : null };
  });

const results = {
  benchmark: 'ledger',
  date: new Date().toISOString(),
  machine: machineInfo(loadAtStart, postgres?.settings ?? null),
  settings: {
    durationSeconds: DURATION_S,
    warmupSeconds: WARMUP_S,
    rounds: ROUNDS,
    method: 'per case: warm-up of each side, then the measured time in interleaved slices (Keel, peer, peer, Keel, ...); tps = transfers completed inside the slices / their total time',
    accounts: ACCOUNTS,
    hotAccounts: HOT_ACCOUNTS,
    poolSize: POOL_SIZE,
    transferMinor: `1..${MAX_TRANSFER_MINOR}`,
    pgliteStorage: 'on disk (a temporary DATA_DIR)',
    keel: 'LedgerBatcher.post: one journal entry of two postings with an idempotency key (a plain batch: one ledger_post_batch statement, ADR 0033)',
    peer: 'SELECT peer_transfer(from, to, amount): PL/pgSQL, locks both rows in id order, two UPDATEs, one INSERT per posting',
  },
  cases: cases.map(({ db, clients, distribution, keel_tps, peer_tps, ratio }) => ({ db, clients, distribution, keel_tps, peer_tps, ratio })),
  checks,
  keel_pglite_vs_postgres: keelPgliteVsPostgres,
  ledgerCheck: {
    pglite: { ok: pglite.ledgerCheck.ok, problems: pglite.ledgerCheck.problems, counts: pglite.ledgerCheck.counts },
    postgres: postgres ? { ok: postgres.ledgerCheck.ok, problems: postgres.ledgerCheck.problems, counts: postgres.ledgerCheck.counts } : null,
  },
  peerConsistent: { pglite: pglite.peerConsistent, postgres: postgres?.peerConsistent ?? null },
  details: cases,
  ...(postgresSkipped ? { postgresSkipped } : {}),
  elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/ledger.json', import.meta.url), `${JSON.stringify(results, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
console.log(`\nchecks: ${JSON.stringify(checks)}`);
console.log(`keel on PGlite vs on PostgreSQL: ${JSON.stringify(keelPgliteVsPostgres)}`);
console.log(`wrote bench/results/ledger.json in ${results.elapsedSeconds} s`);
const broken = !pglite.ledgerCheck.ok || (postgres && !postgres.ledgerCheck.ok) || !pglite.peerConsistent || (postgres && !postgres.peerConsistent);
process.exit(broken || postgresSkipped ? 1 : 0);
