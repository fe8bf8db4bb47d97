// Issue 15's start-up and memory targets, measured as `npm start` runs the server (after its build):
// - start-up: the built server as `npm run serve` starts it (its node arguments read from
//   package.json; built here first by scripts/build-server.mjs) started on a PGlite data folder that already exists (made
//   by a first start), timed from spawn to the first 200 from `/healthz`; three starts, each beside
//   a start of the sources through the tsx loader (how `npm start` ran them before ADR 0031);
// - memory: the resident set (VmRSS) of a server process after 100 connections have read
//   `GET /home/assets/accounts` with a token for `BENCH_DURATION_S` seconds, on PGlite and on
//   PostgreSQL; three runs each (the figure moves with when the collector last ran).
// The peer is a bare Fastify process (plain JavaScript, no loader) answering `/healthz` and the same
// read's body, started and loaded the same way. Writes bench/results/startup-memory.json.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openPostgres } from '../apps/server/src/persistence/db.ts';
import { loadAverage, machineInfo } from './machine.ts';
import { buildServer, keelListening, LoggedProcesses, repositoryRoot, serveNodeArgs, stopProcess } from './server-process.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const STARTS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = 100;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The servers' output, one file per start (removed at the end). */
const processes = new LoggedProcesses('start');

interface Started {
  child: ChildProcess;
  baseUrl: string;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  readyMs: number;
}

/** Starts a process (output to a file) and waits for `/healthz` to answer 200. */
async function start(args: string[], env: Record<string, string>, portPattern: RegExp): Promise<Started> {
  const startedAt = performance.now();
  const { child, baseUrl } = await processes.start(args, env, portPattern);
  for (;;) {
    const answer = await fetch(`${baseUrl}/healthz`).catch(() => null);
    if (answer?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { child, baseUrl, readyMs: Math.round(performance.now() - startedAt) };
}


function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const keelArgs = serveNodeArgs();
const keelThroughLoaderArgs = ['--import', 'tsx', 'apps/server/src/main.ts'];
const uploadKey = randomBytes(32).toString('base64');
function keelEnv(dataDir: string, databaseUrl = ''): Record<string, string> {
  // Production's guards (ADR 0041) satisfied: no feed, no demo data, an upload key.
  return { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', SEED_DEMO: 'false', MARKET_FEED: 'off', UPLOAD_ENCRYPTION_KEY: uploadKey };
}

// The peer: plain JavaScript, started by node itself.
const peerSource = `
const Fastify = require(${JSON.stringify(join(repositoryRoot, 'node_modules/fastify'))});
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ ok: true }));
const body = JSON.parse(process.env.PEER_BODY);
app.get('/home/assets/accounts', async () => body);
app.listen({ host: '127.0.0.1', port: 0 }).then((address) => console.log('peer ' + address + '/'));
`;
const peerListening = /peer (http:\/\/[^/\s]+)\//;

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return { requestsPerSecond: Math.round(result.requests.average), non2xx: result.non2xx };
}

async function register(baseUrl: string): Promise<string> {
  const username = `bench${randomBytes(6).toString('hex')}`.slice(0, 20);
  const answer = await fetch(`${baseUrl}/home/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'benchpass1', confirmPassword: 'benchpass1', agreement: true }),
  });
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

/** Keel's resident memory after the read load, and the body it answered (for the peer). */
async function keelMemory(env: Record<string, string>) {
  const server = await start(keelArgs, env, keelListening);
  try {
    const token = await register(server.baseUrl);
    const headers = { authorization: `Bearer ${token}` };
    const body = await (await fetch(`${server.baseUrl}/home/assets/accounts`, { headers })).text();
    const afterStartMb = residentMb(server.child.pid as number);
    const run = await load(`${server.baseUrl}/home/assets/accounts`, headers);
    return { body, afterStartMb, afterLoadMb: residentMb(server.child.pid as number), ...run };
  } finally {
    await stopProcess(server.child);
  }
}

async function peerMemory(body: string) {
  const peer = await start(['-e', peerSource], { PEER_BODY: body }, peerListening);
  try {
    const afterStartMb = residentMb(peer.child.pid as number);
    const run = await load(`${peer.baseUrl}/home/assets/accounts`);
    return { afterStartMb, afterLoadMb: residentMb(peer.child.pid as number), ...run };
  } finally {
    await stopProcess(peer.child);
  }
}

buildServer();
const loadAtStart = loadAverage();
const dataDir = mkdtempSync(join(tmpdir(), 'keel-bench-start-'));
const schema = `keel_bench_start_${randomBytes(4).toString('hex')}`;
const admin = await openPostgres(POSTGRES_URL, 1);
try {
  // The data folder made by a first start (migrations applied, keys written), then timed starts on it.
  await stopProcess((await start(keelArgs, keelEnv(dataDir), keelListening)).child);
  const keelStarts: number[] = [];
  const keelThroughLoaderStarts: number[] = [];
  const peerStarts: number[] = [];
  for (let run = 0; run < STARTS; run += 1) {
    const keel = await start(keelArgs, keelEnv(dataDir), keelListening);
    keelStarts.push(keel.readyMs);
    await stopProcess(keel.child);
    const throughLoader = await start(keelThroughLoaderArgs, keelEnv(dataDir), keelListening);
    keelThroughLoaderStarts.push(throughLoader.readyMs);
    await stopProcess(throughLoader.child);
    const peer = await start(['-e', peerSource], { PEER_BODY: '{}' }, peerListening);
    peerStarts.push(peer.readyMs);
    await stopProcess(peer.child);
    console.log(`start ${run + 1}/${STARTS}: keel ${keelStarts[run]} ms (through tsx ${keelThroughLoaderStarts[run]} ms), peer ${peerStarts[run]} ms`);
  }

  await admin.exec(`CREATE SCHEMA ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const postgresDataDir = mkdtempSync(join(tmpdir(), 'keel-bench-start-pg-'));
  // Memory after a load moves with when the collector last ran: three runs of each, interleaved.
  const onPglite: Awaited<ReturnType<typeof keelMemory>>[] = [];
  const onPostgres: Awaited<ReturnType<typeof keelMemory>>[] = [];
  const peer: Awaited<ReturnType<typeof peerMemory>>[] = [];
  const said = (run: { afterStartMb: number; afterLoadMb: number; requestsPerSecond: number }) =>
    `${run.afterStartMb} MB after start, ${run.afterLoadMb} MB after the load (${run.requestsPerSecond} req/s)`;
  for (let run = 0; run < STARTS; run += 1) {
    const pgliteRun = await keelMemory(keelEnv(dataDir));
    const postgresRun = await keelMemory(keelEnv(postgresDataDir, url.toString()));
    const peerRun = await peerMemory(pgliteRun.body);
    onPglite.push(pgliteRun);
    onPostgres.push(postgresRun);
    peer.push(peerRun);
    console.log(`memory ${run + 1}/${STARTS}: PGlite ${said(pgliteRun)}; PostgreSQL ${said(postgresRun)}; peer ${said(peerRun)}`);
  }
  rmSync(postgresDataDir, { recursive: true, force: true });

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  // Issue 15's targets: /healthz within 1.5 s on an existing data folder; ≤ 400 MB (PGlite) and ≤ 250 MB (PostgreSQL) after the HTTP load.
  const afterLoad = (runs: { afterLoadMb: number }[]) => runs.map((run) => run.afterLoadMb);
  const targets = {
    startAtMost1500Ms: median(keelStarts) <= 1_500,
    pgliteAtMost400Mb: median(afterLoad(onPglite)) <= 400,
    postgresAtMost250Mb: median(afterLoad(onPostgres)) <= 250,
  };
  const withoutBody = (runs: Awaited<ReturnType<typeof keelMemory>>[]) => runs.map(({ body: _body, ...run }) => run);
  const results = {
    benchmark: 'startup-memory',
    when: new Date().toISOString(),
    startMs: {
      keel: keelStarts,
      keelThroughTsx: keelThroughLoaderStarts,
      peer: peerStarts,
      keelMedian: median(keelStarts),
      keelThroughTsxMedian: median(keelThroughLoaderStarts),
      peerMedian: median(peerStarts),
    },
    nodeArgs: keelArgs,
    memoryMb: {
      keelPglite: withoutBody(onPglite),
      keelPostgres: withoutBody(onPostgres),
      peer,
      afterLoadMedian: { keelPglite: median(afterLoad(onPglite)), keelPostgres: median(afterLoad(onPostgres)), peer: median(afterLoad(peer)) },
    },
    loadSeconds: DURATION_S,
    connections: CONNECTIONS,
    targets,
    machine: machineInfo(loadAtStart, null),
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/startup-memory.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`targets: ${JSON.stringify(targets)}; written to bench/results/startup-memory.json`);
} finally {
  await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  await admin.close();
  rmSync(dataDir, { recursive: true, force: true });
  processes.dispose();
}
