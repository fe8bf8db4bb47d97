import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPostgres } from '../../apps/server/src/persistence/db.ts';
import { migrate } from '../../apps/server/src/persistence/migrate.ts';
import { serveNodeArgs, serverProcessEnv, uniqueUsername } from './helpers/server.ts';

// Issue 15, "Scale-out, in a test": two server processes as `npm start` runs them (the built bundle,
// `npm run serve`'s node arguments) on one PostgreSQL schema and one Redis, no browser.
// - A session ended on one node is refused by the other's reads within a second, although the
//   other had just checked it and keeps checked sessions for up to a second (ADR 0030): the bus
//   tells it at once.
// - The per-address limit of the login routes, counted on one node, holds on the other (Redis,
//   ADR 0018). The requests come from a loopback address of this run's own (127.x.y.z), so counts
//   other tests left in the same Redis are not this test's.
// Needs TEST_DATABASE_URL (fails without it in CI) and `npm run build`.

const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IN_CI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
const ROOT = resolve(import.meta.dirname, '../..');
const LOGIN_LIMIT_PER_MINUTE = 4;
const schema = `keel_e2e_scale_${randomBytes(4).toString('hex')}`;
const serveArgs = serveNodeArgs();
/** A loopback address of its own (all of 127/8 reaches this machine): the per-address limit counts it apart. */
const someLoopbackAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

interface Node {
  child: ChildProcess;
  baseUrl: string;
  logFile: string;
}

const nodes: Node[] = [];
const folders: string[] = [];
let admin: Db | undefined;

/** One built server process; resolves once it printed its address and /healthz answers 200. */
async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const folder = mkdtempSync(join(tmpdir(), `keel-e2e-scale-${name}-`));
  folders.push(folder);
  const logFile = join(folder, 'output.log');
  const logFd = openSync(logFile, 'w');
  const child = spawn(process.execPath, serveArgs, { cwd: ROOT, env: { ...env, DATA_DIR: folder }, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const output = readFileSync(logFile, 'utf8');
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}) before listening:\n${output.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${name} did not start within a minute:\n${output.slice(-3000)}`);
    const baseUrl = /user app\s+(http:\/\/[^/\s]+)\//.exec(output)?.[1];
    if (baseUrl && (await fetch(`${baseUrl}/healthz`).then((answer) => answer.status === 200, () => false))) {
      const node = { child, baseUrl, logFile };
      nodes.push(node);
      return node;
    }
    await sleep(100);
  }
}

/** A JSON call from `sourceAddress` (a loopback address), answered as the envelope. */
function call(
  node: Node,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; sourceAddress?: string } = {},
): Promise<{ code: number; msg: string; data: unknown }> {
  const url = new URL(path, node.baseUrl);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((settle, fail) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress: options.sourceAddress,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          'idempotency-key': randomBytes(12).toString('hex'),
        },
      },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        incoming.on('end', () => settle(JSON.parse(text) as { code: number; msg: string; data: unknown }));
      },
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

describe.runIf(POSTGRES_URL || IN_CI)('two server processes on one PostgreSQL and one Redis', () => {
  let nodeA: Node;
  let nodeB: Node;

  beforeAll(async () => {
    if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set: this test needs PostgreSQL');
    // The schema, migrated here once (two nodes migrating one fresh schema at once would race).
    admin = await openPostgres(POSTGRES_URL, 1);
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const db = await openPostgres(POSTGRES_URL, 1, schema);
    await migrate(db);
    await db.close();
    const env = serverProcessEnv(POSTGRES_URL, schema, REDIS_URL, {
      AUTH_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT_PER_MINUTE),
      SESSION_CACHE_TTL_MS: '1000',
    });
    [nodeA, nodeB] = await Promise.all([startNode('a', env), startNode('b', env)]);
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) {
      const exited = new Promise((done) => node.child.once('exit', done));
      node.child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (node.child.exitCode === null) node.child.kill('SIGKILL');
    }
    if (admin) {
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.close();
    }
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('a session ended on one node is refused by the other within a second', async () => {
    // Registration is a rate-limited route: from an address of its own, not the other case's.
    const username = uniqueUsername('scale');
    const registered = await call(nodeA, 'POST', '/home/auth/register', {
      body: { username, password: 'secret12', confirmPassword: 'secret12', agreement: true },
      sourceAddress: someLoopbackAddress(),
    });
    expect(registered.code, registered.msg).toBe(200);
    const { token } = registered.data as { token: string };
    // Node B checks the session and keeps it for reads for up to a second.
    expect((await call(nodeB, 'GET', '/home/assets/accounts', { token })).code).toBe(200);
    expect((await call(nodeB, 'GET', '/home/assets/accounts', { token })).code).toBe(200);

    expect((await call(nodeA, 'POST', '/home/auth/logout', { token })).code).toBe(200);
    const endedAtMs = Date.now();
    let refusedAfterMs: number | undefined;
    while (refusedAfterMs === undefined && Date.now() - endedAtMs < 3_000) {
      const read = await call(nodeB, 'GET', '/home/assets/accounts', { token });
      if (read.code === 401) refusedAfterMs = Date.now() - endedAtMs;
      else expect(read.code).toBe(200);
    }
    expect(refusedAfterMs, 'node B still served the ended session after 3 s').toBeDefined();
    expect(refusedAfterMs).toBeLessThan(1_000);
    // And from then on: node A refuses too, and a change on B checks the database anyway.
    expect((await call(nodeA, 'GET', '/home/assets/accounts', { token })).code).toBe(401);
    expect((await call(nodeB, 'PUT', '/home/user/nickname', { token, body: { nickname: 'Late' } })).code).toBe(401);
  });

  it('the per-address limit of the login routes, counted on one node, holds on the other', async () => {
    const address = someLoopbackAddress();
    // A new account name each time: the failed-login throttle per name (in the database) stays out of it.
    const login = (node: Node, sourceAddress: string) =>
      call(node, 'POST', '/home/auth/login', { body: { account: uniqueUsername('nobody'), password: 'wrong-password', agreement: true }, sourceAddress });
    // Half the minute's allowance on each node: each refusal is the catalogue's login error.
    for (const node of [nodeA, nodeA, nodeB, nodeB]) expect((await login(node, address)).code).toBe(400);
    // The allowance is spent across both: either node now refuses this address ...
    expect(await login(nodeB, address)).toMatchObject({ code: 429, msg: 'too many requests' });
    expect(await login(nodeA, address)).toMatchObject({ code: 429, msg: 'too many requests' });
    // ... and only this one.
    expect((await login(nodeA, someLoopbackAddress())).code).toBe(400);
  });
});
