// Chat delivery latency across two nodes (issue 6): a buyer sends a P2P chat message over HTTP to
// node B; the seller's /ws client on node A hears the `p2p.chat` event. Measured from just before
// the HTTP send to the moment the seller's client receives the event with that messageId.
//
// Keel side: two real server processes (`node --import tsx apps/server/src/main.ts`, i.e. what
// `tsx apps/server/src/main.ts` runs, without the tsx wrapper process) on one PostgreSQL (a schema
// of this run's own, dropped at the end) and one Redis; sellers and buyers registered, made
// verified and funded as the integration tests' helpers do, one ad and one order per pair through
// the API; every seller connected to node A, every buyer to node B, each authenticated.
//
// Peer: the bare minimum of the same path, also two processes (this file with `--peer-node`): a
// node:http route that publishes the event to Redis (to the buyer's channel, then the seller's, as
// Keel does) and a plain `ws` server that subscribes per connected user and forwards; no database,
// no session check (the token is the user id), no contract checks.
//
// Both sides run at once with the same number of clients, driven from this process at the same
// paced rate (open loop: a send every 1/rate s whether or not earlier ones answered), in slices
// interleaved with the other side's so outside load falls on both alike. Writes
// bench/results/chat.json. `npm run bench:chat`; never part of `npm test`.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import WebSocket, { WebSocketServer } from 'ws';

const PEER_FLAG = '--peer-node';

// ---------------------------------------------------------------------------------------------
// The peer's node: node:http + ws + ioredis, nothing else.

async function peerNode() {
  const redisUrl = process.env.PEER_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = process.env.PEER_PREFIX ?? 'peer:';
  const nodeDigit = Number(process.env.PEER_NODE_DIGIT ?? 1);
  const publisher = new Redis(redisUrl, { commandTimeout: 2_000 });
  const subscriber = new Redis(redisUrl, { commandTimeout: 2_000 });
  const listeners = new Map<string, Set<WebSocket>>();
  const subscribed = new Map<string, Promise<unknown>>();
  let nextId = 0;

  subscriber.on('message', (redisChannel: string, text: string) => {
    const sockets = listeners.get(redisChannel.slice(prefix.length));
    if (!sockets) return;
    const frame = `{"type":"event","event":${text}}`;
    for (const socket of sockets) if (socket.readyState === WebSocket.OPEN) socket.send(frame);
  });

  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/chat') {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 16 * 1024) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { orderId: string; buyer: string; seller: string; text: string };
        nextId += 1;
        const messageId = String(nextId * 10 + nodeDigit);
        const event = JSON.stringify({ kind: 'p2p.chat', orderId: body.orderId, messageId });
        for (const user of [body.buyer, body.seller]) await publisher.publish(`${prefix}user:${user}`, event);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 200, msg: 'success', data: { id: messageId } }));
      } catch {
        response.writeHead(500).end();
      }
    });
  });

  const wss = new WebSocketServer({ server, path: '/ws', maxPayload: 16 * 1024 });
  wss.on('connection', (socket) => {
    let channel: string | undefined;
    socket.on('error', () => {});
    socket.on('message', async (data) => {
      let frame: { op?: unknown; token?: unknown };
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (frame.op !== 'auth' || typeof frame.token !== 'string' || channel !== undefined) return;
      channel = `user:${frame.token}`;
      let sockets = listeners.get(channel);
      if (!sockets) {
        sockets = new Set();
        listeners.set(channel, sockets);
        subscribed.set(channel, subscriber.subscribe(prefix + channel).catch(() => undefined));
      }
      sockets.add(socket);
      await subscribed.get(channel);
      socket.send(JSON.stringify({ type: 'authed', userId: frame.token }));
    });
    socket.on('close', () => {
      if (channel === undefined) return;
      const sockets = listeners.get(channel);
      sockets?.delete(socket);
      if (sockets && sockets.size === 0) {
        listeners.delete(channel);
        subscribed.delete(channel);
        subscriber.unsubscribe(prefix + channel).catch(() => {});
      }
    });
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const client of wss.clients) client.terminate();
    wss.close();
    server.close();
    await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  // Started with an IPC channel: if the driver goes away, so does this node.
  process.on('disconnect', () => void stop());
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`PEER_LISTENING ${typeof address === 'object' && address ? address.port : 0}`);
  });
}

// ---------------------------------------------------------------------------------------------
// The driver.

function positiveInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

interface Pair {
  index: number;
  sellerId: string;
  sellerToken: string;
  buyerId: string;
  buyerToken: string;
  orderId: string;
}

interface Delivery {
  start: number;
  measured: boolean;
}

/** One side (Keel or peer) of the measurement: its two nodes, its pairs, and what it saw. */
interface Side {
  name: 'keel' | 'peer';
  nodeA: string;
  nodeB: string;
  pairs: Pair[];
  send: (pair: Pair, text: string) => Promise<string>;
  clients: WebSocket[];
  pending: Map<string, Delivery>;
  early: Map<string, number>;
  latenciesMs: number[];
  /** Measured messages over the target (or never delivered): when each was sent (ms since the run began) and its latency. */
  slow: { at: number; ms: number }[];
  sendMs: number[];
  failures: number;
  lost: number;
  deliveredBeforeAnswer: number;
  buyerEvents: number;
  sent: number;
  firstError?: string;
  cpu: { serverA: number; serverB: number; driver: number; postgres: number | null; redis: number | null; messages: number };
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

const MICROSECONDS_PER_TICK = 10_000; // USER_HZ is 100 on Linux

function processCpuUs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MICROSECONDS_PER_TICK;
  } catch {
    return 0;
  }
}

function percentile(sortedMs: readonly number[], p: number): number | null {
  if (sortedMs.length === 0) return null;
  const value = sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)]!;
  return Number.isFinite(value) ? Number(value.toFixed(2)) : null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

async function main() {
  const PAIRS = positiveInt('BENCH_CHAT_PAIRS', 250);
  const MESSAGES = positiveInt('BENCH_CHAT_MESSAGES', 2000);
  const RATE = positiveInt('BENCH_CHAT_RATE', 250);
  const WARMUP = positiveInt('BENCH_CHAT_WARMUP', 200);
  const SLICES = 4;
  const DELIVERY_TIMEOUT_MS = 5_000;
  const SEND_TIMEOUT_MS = 10_000;
  const SETUP_TIMEOUT_MS = positiveInt('BENCH_CHAT_SETUP_TIMEOUT_S', 600) * 1000;
  const RUN_TIMEOUT_MS = SETUP_TIMEOUT_MS + 600_000;
  const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const TARGET_P99_MS = 200;
  // The order chat holds at most 500 messages; each order gets (warm-up + messages) / pairs.
  if (Math.ceil((WARMUP + MESSAGES) / PAIRS) >= 500) throw new Error('too many messages per order (the chat keeps 500): raise BENCH_CHAT_PAIRS');

  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg().map((value) => Number(value.toFixed(2)));
  const tag = randomBytes(4).toString('hex');
  const schema = `keel_bench_chat_${tag}`;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const self = fileURLToPath(import.meta.url);
  const dataDirs: string[] = [];
  const procs: Proc[] = [];
  const sides: Side[] = [];
  const began = performance.now();
  const log = (text: string) => console.log(`[chat ${((performance.now() - began) / 1000).toFixed(1)}s] ${text}`);

  const { openPostgres } = await import('../apps/server/src/persistence/db.ts');
  const { migrate } = await import('../apps/server/src/persistence/migrate.ts');
  const { configVariableNames } = await import('../apps/server/src/config/env.ts');
  const { verifyUser, fund } = await import('../apps/server/test/helpers/wallet.ts');
  type Db = Awaited<ReturnType<typeof openPostgres>>;

  let admin: Db | undefined;
  let db: Db | undefined;
  let schemaCreated = false;
  let redisProbe: Redis | undefined;

  let cleaned: Promise<void> | undefined;
  let interrupted = false;
  const cleanup = () =>
    (cleaned ??= (async () => {
      for (const side of sides) for (const client of side.clients) client.terminate();
      await Promise.allSettled(procs.map((proc) => stopProcess(proc)));
      await db?.close().catch(() => {});
      if (admin && schemaCreated) {
        await withTimeout('drop schema', 30_000, admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).catch((error: unknown) =>
          console.error(`could not drop schema ${schema}: ${String(error)}`),
        );
      }
      await admin?.close().catch(() => {});
      if (redisProbe) {
        await withTimeout('redis quit', 5_000, redisProbe.quit()).catch(() => redisProbe?.disconnect());
      }
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    })());

  const watchdog = setTimeout(() => {
    console.error(`chat bench: no end after ${RUN_TIMEOUT_MS / 1000} s; stopping`);
    void cleanup().finally(() => process.exit(1));
  }, RUN_TIMEOUT_MS);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      interrupted = true;
      console.error(`chat bench: ${signal}; cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  function startProcess(name: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<{ proc: Proc; port: number }> {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const output: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const proc: Proc = { name, child, output, exited };
    procs.push(proc);
    return withTimeout(
      `${name} start`,
      90_000,
      new Promise<{ proc: Proc; port: number }>((resolve, reject) => {
        const keep = (chunk: Buffer) => {
          output.push(chunk.toString());
          if (output.length > 2000) output.shift();
        };
        child.stderr!.on('data', keep);
        let listening = false;
        child.stdout!.on('data', (chunk: Buffer) => {
          keep(chunk);
          if (listening) return;
          const match = ready.exec(output.join(''));
          if (!match) return;
          listening = true;
          resolve({ proc, port: Number(match[1]) });
        });
        void exited.then((code) => reject(new Error(`${name} exited (${code}) before listening:\n${output.join('').slice(-3000)}`)));
      }),
    );
  }

  async function stopProcess(proc: Proc) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
    proc.child.kill('SIGTERM');
    const code = await Promise.race([proc.exited, sleep(15_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      console.error(`${proc.name} did not stop in 15 s; killing`);
      proc.child.kill('SIGKILL');
      await Promise.race([proc.exited, sleep(5_000)]);
    }
  }

  async function api(base: string, method: string, path: string, token: string | null, body?: unknown) {
    const response = await fetch(base + path, {
      method,
      headers: {
        ...(token ? { authorization: token } : {}),
        'idempotency-key': randomUUID(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field; their shape is the contract's.
    const answer = (await response.json()) as { code: number; msg: string; data: any };
    if (answer.code !== 200) throw new Error(`${method} ${path}: ${answer.code} ${answer.msg} ${JSON.stringify(answer.data)}`);
    return answer.data;
  }

  /** Opens one client per entry (50 at a time) and waits for its `authed`; then the sellers' clients report each `p2p.chat` with its arrival time. */
  async function connectClients(side: Side, tokens: { url: string; token: string; expectUser: string; seller: boolean }[]) {
    await inBatches(tokens, 50, async ({ url, token, expectUser, seller }) => {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
      side.clients.push(socket);
      socket.on('error', () => {});
      await withTimeout(
        `${side.name} ws auth`,
        20_000,
        new Promise<void>((resolve, reject) => {
          let authed = false;
          socket.on('message', (data) => {
            const arrived = performance.now();
            let frame: { type?: string; userId?: string; msg?: string; event?: { kind: string; messageId?: string } };
            try {
              frame = JSON.parse(data.toString());
            } catch {
              return;
            }
            if (!authed) {
              if (frame.type === 'authed' && frame.userId === expectUser) {
                authed = true;
                resolve();
              } else if (frame.type === 'error') reject(new Error(`${side.name} ws auth refused: ${frame.msg}`));
              return;
            }
            if (frame.type !== 'event' || frame.event?.kind !== 'p2p.chat' || !frame.event.messageId) return;
            if (seller) delivered(side, frame.event.messageId, arrived);
            else side.buyerEvents += 1;
          });
          socket.once('close', (code) => reject(new Error(`${side.name} ws closed (${code}) before authed`)));
          socket.once('open', () => socket.send(JSON.stringify({ op: 'auth', token })));
        }),
      );
    });
  }

  function delivered(side: Side, messageId: string, arrived: number) {
    const waiting = side.pending.get(messageId);
    if (waiting) {
      side.pending.delete(messageId);
      if (waiting.measured) record(side, waiting.start, arrived - waiting.start);
    } else {
      // The event can beat the HTTP answer: the server publishes before it answers.
      side.early.set(messageId, arrived);
    }
  }

  /** Warnings and errors the Keel nodes logged (pino JSON lines, level 40 and up), e.g. a Redis publish that timed out. */
  function serverWarnings() {
    const found: Record<string, { count: number; first: string[] }> = {};
    for (const proc of procs.filter((each) => each.name.startsWith('keel'))) {
      const lines = proc.output
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => {
          try {
            return JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
          } catch {
            return undefined;
          }
        })
        .filter((line) => line !== undefined && (line.level ?? 0) >= 40);
      found[proc.name] = { count: lines.length, first: lines.slice(0, 3).map((line) => `${line!.msg}${line!.err?.message ? `: ${line!.err.message}` : ''}`) };
    }
    return found;
  }

  function record(side: Side, start: number, ms: number) {
    side.latenciesMs.push(ms);
    if (ms > TARGET_P99_MS) side.slow.push({ at: start - began, ms });
  }

  /**
   * The slow messages grouped into episodes (sent less than a second apart): a few long stalls
   * and a steady tail read alike in percentiles, not here.
   */
  function episodes(side: Side) {
    const groups: { from_s: number; to_s: number; messages: number; worst_ms: number | null }[] = [];
    for (const { at, ms } of [...side.slow].sort((x, y) => x.at - y.at)) {
      const last = groups.at(-1);
      const worst = Number.isFinite(ms) ? Number(ms.toFixed(0)) : null;
      if (last && at / 1000 - last.to_s < 1) {
        last.to_s = Number((at / 1000).toFixed(2));
        last.messages += 1;
        if (last.worst_ms !== null) last.worst_ms = worst === null ? null : Math.max(last.worst_ms, worst);
      } else {
        groups.push({ from_s: Number((at / 1000).toFixed(2)), to_s: Number((at / 1000).toFixed(2)), messages: 1, worst_ms: worst });
      }
    }
    return groups.sort((x, y) => y.messages - x.messages).slice(0, 5);
  }

  async function sendOne(side: Side, pair: Pair, measured: boolean, text: string) {
    const start = performance.now();
    let messageId: string;
    try {
      messageId = await side.send(pair, text);
    } catch (error) {
      if (measured) {
        side.failures += 1;
        record(side, start, Number.POSITIVE_INFINITY);
        side.sendMs.push(Number.POSITIVE_INFINITY);
      }
      side.firstError ??= String(error);
      return;
    }
    const answered = performance.now();
    if (measured) side.sendMs.push(answered - start);
    const arrived = side.early.get(messageId);
    if (arrived !== undefined) {
      side.early.delete(messageId);
      if (measured) {
        record(side, start, arrived - start);
        side.deliveredBeforeAnswer += 1;
      }
    } else {
      side.pending.set(messageId, { start, measured });
    }
  }

  async function cpuSample(side: Side) {
    const nodes = procs.filter((proc) => proc.name.startsWith(side.name));
    let postgres: number | null = null;
    if (side.name === 'keel' && admin) {
      const rows = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1', [`${schema}_node%`]);
      postgres = rows.reduce((sum, row) => sum + processCpuUs(row.pid), 0);
      if (rows.length > 0 && postgres === 0) postgres = null; // not on this machine
    }
    let redis: number | null = null;
    try {
      const info = await redisProbe!.info('cpu');
      const user = /used_cpu_user:([\d.]+)/.exec(info);
      const sys = /used_cpu_sys:([\d.]+)/.exec(info);
      if (user && sys) redis = (Number(user[1]) + Number(sys[1])) * 1e6;
    } catch {}
    const driver = process.cpuUsage();
    return {
      serverA: processCpuUs(nodes[0]?.child.pid),
      serverB: processCpuUs(nodes[1]?.child.pid),
      driver: driver.user + driver.system,
      postgres,
      redis,
    };
  }

  /** `count` messages at RATE per second, open loop, then waits (bounded) for every delivery. */
  async function slice(side: Side, count: number, measured: boolean) {
    const before = measured ? await cpuSample(side) : undefined;
    const started = performance.now();
    const sends: Promise<void>[] = [];
    for (let k = 0; k < count; k++) {
      const due = started + (k * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const pair = side.pairs[side.sent % side.pairs.length]!;
      side.sent += 1;
      sends.push(sendOne(side, pair, measured, `bench message ${side.sent} of order ${pair.orderId}`));
    }
    await Promise.all(sends);
    const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
    while (side.pending.size > 0 && performance.now() < deadline) await sleep(5);
    for (const waiting of side.pending.values()) {
      if (!waiting.measured) continue;
      side.lost += 1;
      record(side, waiting.start, Number.POSITIVE_INFINITY);
    }
    side.pending.clear();
    side.early.clear();
    if (before) {
      const after = await cpuSample(side);
      side.cpu.serverA += after.serverA - before.serverA;
      side.cpu.serverB += after.serverB - before.serverB;
      side.cpu.driver += after.driver - before.driver;
      side.cpu.postgres = after.postgres === null || before.postgres === null ? null : (side.cpu.postgres ?? 0) + after.postgres - before.postgres;
      side.cpu.redis = after.redis === null || before.redis === null ? null : (side.cpu.redis ?? 0) + after.redis - before.redis;
      side.cpu.messages += count;
    }
  }

  function newSide(name: Side['name'], nodeA: string, nodeB: string, send: Side['send']): Side {
    return {
      name,
      nodeA,
      nodeB,
      pairs: [],
      send,
      clients: [],
      pending: new Map(),
      early: new Map(),
      latenciesMs: [],
      slow: [],
      sendMs: [],
      failures: 0,
      lost: 0,
      deliveredBeforeAnswer: 0,
      buyerEvents: 0,
      sent: 0,
      cpu: { serverA: 0, serverB: 0, driver: 0, postgres: 0, redis: 0, messages: 0 },
    };
  }

  const setupTimes: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    setupTimes[name] = Number(((now - mark) / 1000).toFixed(2));
    mark = now;
    log(`${name}: ${setupTimes[name]} s`);
  };

  // ------------------------------------------------------------------- setup (exit 1 on failure)
  let keel: Side | undefined;
  let peer: Side | undefined;
  try {
    await withTimeout(
      'setup',
      SETUP_TIMEOUT_MS,
      (async () => {
        redisProbe = new Redis(REDIS_URL, { commandTimeout: 2_000, maxRetriesPerRequest: 1, lazyConnect: true });
        redisProbe.on('error', () => {});
        await withTimeout('redis connect', 5_000, redisProbe.connect());
        await redisProbe.ping();

        admin = await openPostgres(POSTGRES_URL, 2);
        await withTimeout('postgres connect', 10_000, admin.query('SELECT 1'));
        await admin.exec(`CREATE SCHEMA ${schema}`);
        schemaCreated = true;
        db = await openPostgres(POSTGRES_URL, 8, schema);
        await migrate(db);
        lap('schema_and_migrations');

        // Keel's nodes: only Keel's variables this bench sets (none inherited from the shell).
        const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key, value]) => value !== undefined && !configVariableNames.includes(key))) as Record<string, string>;
        const uploadKey = randomBytes(32).toString('base64');
        const keelNode = async (letter: 'a' | 'b') => {
          const url = new URL(POSTGRES_URL);
          url.searchParams.set('options', `-c search_path=${schema}`);
          url.searchParams.set('application_name', `${schema}_node_${letter}`);
          const dataDir = mkdtempSync(join(tmpdir(), `keel-bench-chat-${letter}-`));
          dataDirs.push(dataDir);
          const { port } = await startProcess(
            `keel-${letter}`,
            [
              // BENCH_CHAT_CPU_PROF=<folder>: a V8 CPU profile of each Keel node, written when it stops.
              ...(process.env.BENCH_CHAT_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHAT_CPU_PROF}`, `--cpu-prof-name=keel-${letter}.cpuprofile`] : []),
              '--import',
              'tsx',
              'apps/server/src/main.ts',
            ],
            {
              ...baseEnv,
              NODE_ENV: 'production',
              HOST: '127.0.0.1',
              PORT: '0',
              DATABASE_URL: url.toString(),
              REDIS_URL,
              DATA_DIR: dataDir,
              UPLOAD_ENCRYPTION_KEY: uploadKey,
              MARKET_FEED: 'off',
              SEED_DEMO: 'false',
              LOG_LEVEL: 'warn',
              AUTH_RATE_LIMIT_PER_MINUTE: '100000',
              WEB_DIST_DIR: '/nonexistent',
              ADMIN_DIST_DIR: '/nonexistent',
            },
            /user app\s+http:\/\/[^:/]+:(\d+)\//,
          );
          return `http://127.0.0.1:${port}`;
        };
        const peerNodeStart = async (letter: 'a' | 'b', digit: number) => {
          const { port } = await startProcess(
            `peer-${letter}`,
            ['--import', 'tsx', self, PEER_FLAG],
            { ...baseEnv, PEER_REDIS_URL: REDIS_URL, PEER_PREFIX: `keel-bench-chat-peer-${tag}:`, PEER_NODE_DIGIT: String(digit) },
            /PEER_LISTENING (\d+)/,
          );
          return `http://127.0.0.1:${port}`;
        };
        const [keelA, keelB, peerA, peerB] = await Promise.all([keelNode('a'), keelNode('b'), peerNodeStart('a', 1), peerNodeStart('b', 2)]);
        lap('processes_started');

        keel = newSide('keel', keelA, keelB, async (pair, text) => {
          const data = await api(keelB, 'POST', `/home/p2p/orders/${pair.orderId}/chat`, pair.buyerToken, { text });
          return data.id as string;
        });
        peer = newSide('peer', peerA, peerB, async (pair, text) => {
          const response = await fetch(`${peerB}/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ orderId: pair.orderId, buyer: pair.buyerId, seller: pair.sellerId, text }),
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          });
          const answer = (await response.json()) as { code: number; data: { id: string } };
          if (answer.code !== 200) throw new Error(`peer send: ${answer.code}`);
          return answer.data.id;
        });
        sides.push(keel, peer);

        // Users: sellers registered on node A, buyers on node B (argon2 on each registration).
        const indexes = Array.from({ length: PAIRS }, (_, index) => index);
        const register = (base: string, username: string) =>
          api(base, 'POST', '/home/auth/register', null, { username, password: 'benchpass1', confirmPassword: 'benchpass1', agreement: true }) as Promise<{
            token: string;
            userId: string;
          }>;
        const registered = await Promise.all([
          inBatches(indexes, 8, (index) => register(keelA, `s${tag}x${index}`)),
          inBatches(indexes, 8, (index) => register(keelB, `b${tag}x${index}`)),
        ]);
        const [sellers, buyers] = registered;
        lap('register_users');

        // Verified (identity) and the sellers' fiat accounts (P2P's) funded, directly in the database as the tests' helpers do.
        await inBatches([...sellers, ...buyers], 8, (user) => verifyUser(db!, user.userId));
        await inBatches(sellers, 4, (seller) => fund(db!, seller.userId, 'USDT', '50', 'fiat'));
        lap('verify_and_fund');

        // A contact method, one ad per seller (node A), one order per buyer on it (node B).
        const pairs = await inBatches(indexes, 8, async (index) => {
          const seller = sellers[index]!;
          const buyer = buyers[index]!;
          await api(keelA, 'PUT', '/home/user/contact-methods', seller.token, { methods: [{ kind: 'telegram', value: `@s${tag}x${index}` }] });
          const ad = await api(keelA, 'POST', '/home/p2p/ads', seller.token, {
            fiat: 'INR',
            price: '85.50',
            min: '10',
            max: '50',
            paymentWindowMinutes: 120,
            contact: 'UPI bench@bank',
            remark: '',
            total: '50',
          });
          const order = await api(keelB, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '10' });
          return { index, sellerId: seller.userId, sellerToken: seller.token, buyerId: buyer.userId, buyerToken: buyer.token, orderId: order.id as string };
        });
        keel.pairs = pairs;
        // The peer has no users: the same ids, the user id as its "token".
        peer.pairs = pairs.map((pair) => ({ ...pair, sellerToken: pair.sellerId, buyerToken: pair.buyerId }));
        lap('contacts_ads_orders');

        for (const side of [keel, peer]) {
          await connectClients(side, [
            ...side.pairs.map((pair) => ({ url: side.nodeA, token: pair.sellerToken, expectUser: pair.sellerId, seller: true })),
            ...side.pairs.map((pair) => ({ url: side.nodeB, token: pair.buyerToken, expectUser: pair.buyerId, seller: false })),
          ]);
        }
        lap('connect_and_auth_clients');
      })(),
    );
  } catch (error) {
    if (interrupted) await new Promise(() => {}); // the signal handler cleans up and exits
    console.error(`chat bench: setup failed: ${error instanceof Error ? error.stack : String(error)}`);
    for (const proc of procs) {
      const tail = proc.output.join('').slice(-2000);
      if (tail) console.error(`--- ${proc.name} output (tail):\n${tail}`);
    }
    await cleanup();
    process.exit(1);
  }

  // ------------------------------------------------------------------- measurement
  let exitCode = 0;
  try {
    log(`warm-up: ${WARMUP} messages per side`);
    await slice(peer!, WARMUP, false);
    await slice(keel!, WARMUP, false);
    const perSlice = Math.ceil(MESSAGES / SLICES);
    for (let round = 0; round < SLICES; round++) {
      const count = Math.min(perSlice, MESSAGES - round * perSlice);
      const order = round % 2 === 0 ? [keel!, peer!] : [peer!, keel!];
      for (const side of order) {
        await slice(side, count, true);
        log(`${side.name} slice ${round + 1}/${SLICES}: ${count} messages at ${RATE}/s`);
      }
    }

    const summary = (side: Side) => {
      const latencies = [...side.latenciesMs].sort((x, y) => x - y);
      const sends = [...side.sendMs].sort((x, y) => x - y);
      const perMessageUs = (total: number | null) => (total === null || side.cpu.messages === 0 ? null : Math.round(total / side.cpu.messages));
      return {
        p50_ms: percentile(latencies, 50),
        p95_ms: percentile(latencies, 95),
        p99_ms: percentile(latencies, 99),
        max_ms: percentile(latencies, 100),
        send_p50_ms: percentile(sends, 50),
        send_p99_ms: percentile(sends, 99),
        over_target: side.slow.length,
        slow_episodes: episodes(side),
        delivered: latencies.filter(Number.isFinite).length,
        failed_sends: side.failures,
        lost: side.lost,
        first_error: side.firstError ?? null,
        delivered_before_http_answer: side.deliveredBeforeAnswer,
        buyer_side_events: side.buyerEvents,
        cpu_us_per_message: {
          server_a: perMessageUs(side.cpu.serverA),
          server_b: perMessageUs(side.cpu.serverB),
          driver: perMessageUs(side.cpu.driver),
          postgres_backends: side.name === 'keel' ? perMessageUs(side.cpu.postgres) : null,
          redis: perMessageUs(side.cpu.redis),
        },
      };
    };
    const keelSummary = summary(keel!);
    const peerSummary = summary(peer!);
    const results = {
      benchmark: 'chat',
      clients: keel!.clients.length,
      pairs: PAIRS,
      messages: MESSAGES,
      rate_per_s: RATE,
      warmup_messages: WARMUP,
      slices: SLICES,
      keel: keelSummary,
      peer: peerSummary,
      target_p99_ms: TARGET_P99_MS,
      target_met: keelSummary.p99_ms !== null && keelSummary.p99_ms <= TARGET_P99_MS,
      keel_p99_over_peer: keelSummary.p99_ms !== null && peerSummary.p99_ms ? Number((keelSummary.p99_ms / peerSummary.p99_ms).toFixed(2)) : null,
      server_warnings: serverWarnings(),
      setup_s: setupTimes,
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model ?? null,
        memory_gb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        load_average_at_start: loadAtStart,
        load_average_at_end: loadavg().map((value) => Number(value.toFixed(2))),
      },
      started_at: startedAt,
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./results/chat.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
    console.log(JSON.stringify(results, null, 2));
    // The target is reported, not enforced; a message that never arrived is a failure of the run.
    for (const [name, stats] of [
      ['keel', keelSummary],
      ['peer', peerSummary],
    ] as const) {
      if (stats.failed_sends + stats.lost > 0) {
        console.error(`chat bench: ${name}: ${stats.failed_sends} sends failed, ${stats.lost} events never arrived (first error: ${stats.first_error})`);
        exitCode = 1;
      }
    }
  } catch (error) {
    console.error(`chat bench: measurement failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitCode = 1;
  }
  if (process.env.BENCH_CHAT_DEBUG) {
    for (const proc of procs) console.error(`--- ${proc.name} output (tail):\n${proc.output.join('').slice(-4000)}`);
  }
  await cleanup();
  log('cleaned up');
  process.exit(exitCode);
}

if (process.argv.includes(PEER_FLAG)) await peerNode();
else await main();
