// Throughput and latency of an authenticated API call (GET /home/user/unread: token hash lookup,
// session + user join, unread query, envelope) against its peer: a bare Fastify route answering
// the same envelope with no database and no auth. Both run in this process on loopback, one after
// the other, with the same autocannon settings. Writes bench/results/http-auth-call.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { openPglite, openPostgres, type Db } from '../apps/server/src/persistence/db.ts';
import { migrate } from '../apps/server/src/persistence/migrate.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 50;

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function keel(db: Db) {
  await migrate(db);
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST_DIR: '/none', ADMIN_DIST_DIR: '/none' });
  const app = await buildApp({ config, db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const username = `bench${Date.now().toString(36)}`.slice(0, 20);
  const registered = await fetch(`${base}/home/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'benchpass1', confirmPassword: 'benchpass1', agreement: true }),
  });
  const { data } = (await registered.json()) as { data: { token: string } };
  const stats = await measure(`${base}/home/user/unread`, { authorization: `Bearer ${data.token}` });
  await app.close();
  return stats;
}

async function peer() {
  const app = Fastify({ logger: false });
  app.get('/home/user/unread', async () => ({ code: 200, msg: 'success', data: false }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const stats = await measure(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/home/user/unread`);
  await app.close();
  return stats;
}

const results: Record<string, unknown> = {
  benchmark: 'http-auth-call',
  when: new Date().toISOString(),
  durationSeconds: DURATION_S,
  connections: CONNECTIONS,
  peerBareFastify: await peer(),
};
const pglite = await openPglite('memory://');
results.keelOnPglite = await keel(pglite);
await pglite.close();
if (process.env.BENCH_DATABASE_URL) {
  const postgres = await openPostgres(process.env.BENCH_DATABASE_URL, 10);
  results.keelOnPostgres = await keel(postgres);
  await postgres.close();
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/http-auth-call.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
