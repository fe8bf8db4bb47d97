// Issue 15's authenticated read: `GET /home/assets/accounts` with a session token (the session
// check, the asset scales, the user's balances, the envelope) at 100 connections, against its peer:
// a bare Fastify route answering an envelope of the same size with no database and no auth. Keel
// runs with request logs at `info` written to a null stream, as in production (the lines are made,
// serialised and written; only the terminal is spared). Three runs of each side, interleaved, on
// PGlite (in memory) and on PostgreSQL (a schema of its own, dropped after). Writes
// bench/results/http-balance-read.json; exits 1 if PostgreSQL cannot be reached.
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { type Db, openPglite, openPostgres } from '../apps/server/src/persistence/db.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';
import { loadAverage, machineInfo } from './machine.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = 100;
const POOL_SIZE = 10;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PATH = '/home/assets/accounts';
/** The first error lines Keel logged during the runs (none expected). */
const errorLines: string[] = [];

interface RunStats {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<RunStats> {
  // The load generator runs on the server's own thread, as the figures were taken (the peer
  // near 30,000 req/s); BENCH_LOAD_IN_WORKER=1 moves it to a worker thread of its own, which frees
  // the server's thread and lifts the bare peer far more than Keel (bench/README.md).
  const workers = process.env.BENCH_LOAD_IN_WORKER === '1' ? { workers: 1 } : {};
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...workers });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A started side: its address, the headers of a call, and how to stop it. */
interface Side {
  url: string;
  headers: Record<string, string>;
  /** An answer as the client gets it, to check the two sides answer alike. */
  sample: string;
  close(): Promise<void>;
}

async function startKeel(db: Db): Promise<Side> {
  await migrate(db);
  const config = loadConfig({ LOG_LEVEL: 'info', SEED_DEMO: 'false', WEB_DIST_DIR: '/none', ADMIN_DIST_DIR: '/none' });
  const devNull = createWriteStream('/dev/null');
  // Every line goes to /dev/null (written, as to a terminal or a pipe); error lines are kept too,
  // so the results say if any request failed.
  const logs = new Writable({
    write(chunk, _encoding, done) {
      const text = String(chunk);
      if (text.includes('"level":50') && errorLines.length < 5) errorLines.push(text.slice(0, 2000));
      devNull.write(chunk, done);
    },
  });
  const app = await buildApp({ config, db, logger: { level: 'info', stream: logs } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const username = `bench${randomBytes(6).toString('hex')}`.slice(0, 20);
  const registered = await fetch(`${base}/home/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'benchpass1', confirmPassword: 'benchpass1', agreement: true }),
  });
  const { data } = (await registered.json()) as { data: { token: string } };
  const headers = { authorization: `Bearer ${data.token}` };
  const sample = await (await fetch(`${base}${PATH}`, { headers })).text();
  if (!sample.startsWith('{"code":200')) throw new Error(`the balance read failed: ${sample.slice(0, 200)}`);
  return {
    url: `${base}${PATH}`,
    headers,
    sample,
    // The log streams stay open: a request still answering while the server closes may log.
    close: () => app.close(),
  };
}

async function startPeer(answer: string): Promise<Side> {
  const app = Fastify({ logger: false });
  const body = JSON.parse(answer) as unknown;
  app.get(PATH, async () => body);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}${PATH}`, headers: {}, sample: answer, close: () => app.close() };
}

function summary(runs: readonly RunStats[]) {
  const sorted = (pick: (run: RunStats) => number) => runs.map(pick).sort((a, b) => a - b);
  const median = (values: number[]) => values[Math.floor(values.length / 2)] as number;
  const rps = sorted((run) => run.requestsPerSecond);
  const p99 = sorted((run) => run.latencyP99Ms);
  return { requestsPerSecondMin: rps[0], requestsPerSecondMedian: median(rps), latencyP99MsMedian: median(p99), latencyP99MsMax: p99[p99.length - 1], runs };
}

/** Keel and the peer, one run after the other, `RUNS` times: both see the same machine load. */
async function compare(label: string, db: Db) {
  const keel = await startKeel(db);
  const peer = await startPeer(keel.sample);
  const keelRuns: RunStats[] = [];
  const peerRuns: RunStats[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      peerRuns.push(await measure(peer.url));
      keelRuns.push(await measure(keel.url, keel.headers));
      const last = keelRuns[keelRuns.length - 1] as RunStats;
      console.log(`${label} run ${run + 1}/${RUNS}: keel ${last.requestsPerSecond} req/s p99 ${last.latencyP99Ms} ms; peer ${peerRuns[peerRuns.length - 1]?.requestsPerSecond} req/s`);
    }
  } finally {
    await keel.close();
    await peer.close();
  }
  const keelSummary = summary(keelRuns);
  const peerSummary = summary(peerRuns);
  return { keel: keelSummary, peer: peerSummary, ratioOfMedians: Number((keelSummary.requestsPerSecondMedian / peerSummary.requestsPerSecondMedian).toFixed(3)) };
}

const loadAtStart = loadAverage();
const pglite = await openPglite('memory://');
const onPglite = await compare('pglite', pglite).finally(() => pglite.close());

const schema = `keel_bench_http_${randomBytes(4).toString('hex')}`;
const admin = await openPostgres(POSTGRES_URL, 1);
let onPostgres: Awaited<ReturnType<typeof compare>>;
let postgresVersion: string;
try {
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = await openPostgres(POSTGRES_URL, POOL_SIZE, schema);
  try {
    [{ version: postgresVersion }] = (await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`)) as [{ version: string }];
    onPostgres = await compare('postgres', db);
  } finally {
    await db.close();
  }
} finally {
  await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.close();
}

// Issue 15's targets: PostgreSQL p99 ≤ 25 ms and ≥ 0.3× the peer; PGlite ≥ 0.1× the peer.
const targets = {
  postgresP99AtMost25Ms: onPostgres.keel.latencyP99MsMedian <= 25,
  postgresAtLeast0_3xPeer: onPostgres.ratioOfMedians >= 0.3,
  pgliteAtLeast0_1xPeer: onPglite.ratioOfMedians >= 0.1,
};
const results = {
  benchmark: 'http-balance-read',
  when: new Date().toISOString(),
  path: PATH,
  durationSeconds: DURATION_S,
  connections: CONNECTIONS,
  poolSize: POOL_SIZE,
  pglite: onPglite,
  postgres: onPostgres,
  targets,
  errorLines,
  loadGenerator: process.env.BENCH_LOAD_IN_WORKER === '1' ? 'worker thread' : 'server thread',
  machine: machineInfo(loadAtStart, { version: postgresVersion }),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/http-balance-read.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\npglite:   keel ${onPglite.keel.requestsPerSecondMedian} req/s (p99 ${onPglite.keel.latencyP99MsMedian} ms), peer ${onPglite.peer.requestsPerSecondMedian} req/s, ratio ${onPglite.ratioOfMedians}`);
console.log(`postgres: keel ${onPostgres.keel.requestsPerSecondMedian} req/s (p99 ${onPostgres.keel.latencyP99MsMedian} ms), peer ${onPostgres.peer.requestsPerSecondMedian} req/s, ratio ${onPostgres.ratioOfMedians}`);
if (errorLines.length > 0) console.log(`Keel logged errors during the runs:\n${errorLines.join('\n')}`);
console.log(`targets: ${JSON.stringify(targets)}; written to bench/results/http-balance-read.json`);
