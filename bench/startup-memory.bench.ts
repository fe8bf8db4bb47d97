// Issue 15's start-up and memory targets, measured as `npm start` runs the server (after its build):
// - start-up: `apps/server/src/main.ts` started on a PGlite data folder that already exists (made
//   by a first start), timed from spawn to the first 200 from `/healthz`; three starts;
// - memory: the resident set (VmRSS) of a server process after 100 connections have read
//   `GET /home/assets/accounts` with a token for `BENCH_DURATION_S` seconds, on PGlite and on PostgreSQL.
// The peer is a bare Fastify process (plain JavaScript, no loader) answering `/healthz` and the same
// read's body, started and loaded the same way. Writes bench/results/startup-memory.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openPostgres } from '../apps/server/src/persistence/db.ts';
import { loadAverage, machineInfo } from './machine.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const STARTS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = 100;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const root = new URL('..', import.meta.url).pathname;

interface Started {
  child: ChildProcess;
  baseUrl: string;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  readyMs: number;
}

/** Spawns `args`, reads the port it prints, and waits for `/healthz` to answer 200. */
async function start(args: string[], env: Record<string, string>, portPattern: RegExp): Promise<Started> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = portPattern.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before listening:\n${output.slice(-2000)}`)));
  });
  for (;;) {
    const answer = await fetch(`${baseUrl}/healthz`).catch(() => null);
    if (answer?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { child, baseUrl, readyMs: Math.round(performance.now() - startedAt) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const keelArgs = ['--import', 'tsx', 'apps/server/src/main.ts'];
const keelListening = /user app\s+(http:\/\/[^/\s]+)\//;
function keelEnv(dataDir: string, databaseUrl = ''): Record<string, string> {
  return { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', SEED_DEMO: 'false', MARKET_FEED: 'off' };
}

// The peer: plain JavaScript, started by node itself.
const peerSource = `
const Fastify = require(${JSON.stringify(join(root, 'node_modules/fastify'))});
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
    await stop(server.child);
  }
}

async function peerMemory(body: string) {
  const peer = await start(['-e', peerSource], { PEER_BODY: body }, peerListening);
  try {
    const afterStartMb = residentMb(peer.child.pid as number);
    const run = await load(`${peer.baseUrl}/home/assets/accounts`);
    return { afterStartMb, afterLoadMb: residentMb(peer.child.pid as number), ...run };
  } finally {
    await stop(peer.child);
  }
}

const loadAtStart = loadAverage();
const dataDir = mkdtempSync(join(tmpdir(), 'keel-bench-start-'));
const schema = `keel_bench_start_${randomBytes(4).toString('hex')}`;
const admin = await openPostgres(POSTGRES_URL, 1);
try {
  // The data folder made by a first start (migrations applied, keys written), then timed starts on it.
  await stop((await start(keelArgs, keelEnv(dataDir), keelListening)).child);
  const keelStarts: number[] = [];
  const peerStarts: number[] = [];
  for (let run = 0; run < STARTS; run += 1) {
    const keel = await start(keelArgs, keelEnv(dataDir), keelListening);
    keelStarts.push(keel.readyMs);
    await stop(keel.child);
    const peer = await start(['-e', peerSource], { PEER_BODY: '{}' }, peerListening);
    peerStarts.push(peer.readyMs);
    await stop(peer.child);
    console.log(`start ${run + 1}/${STARTS}: keel ${keelStarts[run]} ms, peer ${peerStarts[run]} ms`);
  }

  const onPglite = await keelMemory(keelEnv(dataDir));
  console.log(`memory, PGlite: ${onPglite.afterStartMb} MB after start, ${onPglite.afterLoadMb} MB after the load (${onPglite.requestsPerSecond} req/s)`);
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const onPostgres = await keelMemory(keelEnv(mkdtempSync(join(tmpdir(), 'keel-bench-start-pg-')), url.toString()));
  console.log(`memory, PostgreSQL: ${onPostgres.afterStartMb} MB after start, ${onPostgres.afterLoadMb} MB after the load (${onPostgres.requestsPerSecond} req/s)`);
  const peer = await peerMemory(onPglite.body);
  console.log(`memory, peer: ${peer.afterStartMb} MB after start, ${peer.afterLoadMb} MB after the load (${peer.requestsPerSecond} req/s)`);

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  // Issue 15's targets: /healthz within 1.5 s on an existing data folder; ≤ 400 MB (PGlite) and ≤ 250 MB (PostgreSQL) after the HTTP load.
  const targets = {
    startAtMost1500Ms: median(keelStarts) <= 1_500,
    pgliteAtMost400Mb: onPglite.afterLoadMb <= 400,
    postgresAtMost250Mb: onPostgres.afterLoadMb <= 250,
  };
  const { body: _pgliteBody, ...pgliteMemory } = onPglite;
  const { body: _postgresBody, ...postgresMemory } = onPostgres;
  const results = {
    benchmark: 'startup-memory',
    when: new Date().toISOString(),
    startMs: { keel: keelStarts, peer: peerStarts, keelMedian: median(keelStarts), peerMedian: median(peerStarts) },
    memoryMb: { keelPglite: pgliteMemory, keelPostgres: postgresMemory, peer },
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
}
