import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPostgres } from '../../apps/server/src/persistence/db.ts';
import { migrate } from '../../apps/server/src/persistence/migrate.ts';
import { adTerms } from '../../apps/server/test/helpers/p2p.ts';
import { fund, verifyUser } from '../../apps/server/test/helpers/wallet.ts';
import { launchBrowser, newPhoneContext, openLoggedIn } from './helpers/browser.ts';
import { ADMIN_DIST_DIR, serverProcessEnv, uniqueUsername, WEB_DIST_DIR } from './helpers/server.ts';

// Issue 6, "a two-node test": two real server processes (`node --import tsx apps/server/src/main.ts`)
// on one PostgreSQL schema (this run's own, dropped at the end) and one Redis, a browser context on
// each. The buyer writes on node B and the seller's page on node A shows it within seconds, then
// the seller answers on A and the buyer's page on B shows it. The pages' fallback poll is 30 s, so
// passing within 5 s means the event crossed the processes through Redis and the page's /ws.
// Needs TEST_DATABASE_URL (skipped without it, except in CI where it fails) and `npm run build`.

const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IN_CI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
const SKIP = !POSTGRES_URL && !IN_CI;
const ROOT = resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const DELIVERY_TIMEOUT_MS = 5_000;

interface Node {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
  baseUrl?: string;
}

interface Session {
  token: string;
  userId: string;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const exitedAlready = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

const schema = `keel_e2e_2proc_${randomBytes(4).toString('hex')}`;
const nodes: Node[] = [];
const dataDirs: string[] = [];
const contexts: BrowserContext[] = [];
let admin: Db | undefined;
let db: Db | undefined;
let schemaCreated = false;
let browser: Browser | undefined;
let nodeA: string;
let nodeB: string;

/** Starts one server process; resolves with its base URL once it printed its port and /healthz answers 200. */
async function startNode(name: string, env: Record<string, string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), `keel-e2e-2proc-${name}-`));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const node: Node = { name, child, output, exited };
  nodes.push(node);
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const tail = () => output.join('').slice(-3000);

  const deadline = Date.now() + START_TIMEOUT_MS;
  // PORT=0: the kernel picks a free port (no race between choosing it and binding it); the server prints it.
  let port: string | undefined;
  while (!port) {
    if (exitedAlready(child)) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before listening:\n${tail()}`);
    if (Date.now() > deadline) throw new Error(`${name} did not listen within ${START_TIMEOUT_MS} ms:\n${tail()}`);
    port = /user app\s+http:\/\/[^:/]+:(\d+)\//.exec(output.join(''))?.[1];
    if (!port) await sleep(100);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status === 200)
      .catch(() => false);
    if (ok) break;
    if (exitedAlready(child) || Date.now() > deadline) throw new Error(`${name}: /healthz never answered 200:\n${tail()}`);
    await sleep(200);
  }
  node.baseUrl = baseUrl;
  return baseUrl;
}

async function stopNode(node: Node) {
  if (exitedAlready(node.child)) return;
  node.child.kill('SIGTERM');
  const stopped = await Promise.race([node.exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
  if (!stopped) {
    console.error(`[p2p two processes] ${node.name} did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM; SIGKILL`);
    node.child.kill('SIGKILL');
    await Promise.race([node.exited, sleep(5_000)]);
  }
}

/** An API call as the app makes it; throws unless the answer's code is 200. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field; their shape is the contract's.
async function api(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<any> {
  const response = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: token } : {}),
      'idempotency-key': randomUUID(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: unknown };
  if (answer.code !== 200) throw new Error(`${method} ${path} on ${base}: ${answer.code} ${answer.msg} ${JSON.stringify(answer.data)}`);
  return answer.data;
}

/** A registered, identity-verified trader with a Telegram contact, registered on `base`. */
async function trader(base: string, prefix: string): Promise<Session> {
  const username = uniqueUsername(prefix);
  const password = 'secret12';
  const session = (await api(base, 'POST', '/home/auth/register', null, { username, password, confirmPassword: password, agreement: true })) as Session;
  await verifyUser(db!, session.userId);
  await api(base, 'PUT', '/home/user/contact-methods', session.token, { methods: [{ kind: 'telegram', value: `@${username}` }] });
  return session;
}

/** The user's page on `base`, logged in through localStorage on that node's own origin, with the /ws frames it receives. */
async function pageOn(base: string, session: Session, path: string) {
  const context = await newPhoneContext(browser!, base);
  contexts.push(context);
  const received: { at: number; payload: string }[] = [];
  context.on('page', (page) =>
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => received.push({ at: Date.now(), payload: String(frame.payload) }))),
  );
  const page = await openLoggedIn(context, session, path);
  return { page, received };
}

async function send(page: Page, orderId: string, message: string): Promise<{ id: string; answeredAt: number }> {
  await page.getByTestId('chat-input').fill(message);
  const [response] = await Promise.all([
    page.waitForResponse((each) => each.request().method() === 'POST' && new URL(each.url()).pathname === `/home/p2p/orders/${orderId}/chat`),
    page.getByTestId('chat-send').click(),
  ]);
  const answeredAt = Date.now();
  const body = (await response.json()) as { code: number; data: { id: string } };
  expect(body.code).toBe(200);
  const row = page.getByTestId(`chat-message-${body.data.id}`);
  await row.waitFor();
  expect(await row.getAttribute('data-from')).toBe('me');
  return { id: body.data.id, answeredAt };
}

describe('P2P chat across two server processes on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    if (!POSTGRES_URL) return;
    // The schema, migrated here once (two nodes migrating a fresh schema at once would race).
    admin = await openPostgres(POSTGRES_URL, 1);
    await admin.exec(`CREATE SCHEMA ${schema}`);
    schemaCreated = true;
    db = await openPostgres(POSTGRES_URL, 2, schema);
    await migrate(db);

    const env = serverProcessEnv(POSTGRES_URL, schema, REDIS_URL, { AUTH_RATE_LIMIT_PER_MINUTE: '1000', WEB_DIST_DIR, ADMIN_DIST_DIR });
    [nodeA, nodeB] = await Promise.all([startNode('node-a', env), startNode('node-b', env), (async () => (browser = await launchBrowser()))()]);
  });

  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
    await browser?.close().catch(() => {});
    await Promise.allSettled(nodes.map(stopNode));
    await db?.close().catch(() => {});
    if (admin && schemaCreated) {
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch((error: unknown) => console.error(`could not drop schema ${schema}: ${String(error)}`));
    }
    await admin?.close().catch(() => {});
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(SKIP)(
    `the buyer writes on node B and the seller sees it on node A within seconds, and back${SKIP ? ' (skipped: TEST_DATABASE_URL is not set, e.g. postgres://postgres@127.0.0.1:5432/test)' : ''}`,
    async () => {
      if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test): in CI this test must run, not be skipped');

      // The seller's account (its fiat account funded: P2P's), ad and page on node A; the buyer's account, order and page on node B.
      const seller = await trader(nodeA, 'pseller');
      await fund(db!, seller.userId, 'USDT', '300', 'fiat');
      const ad = await api(nodeA, 'POST', '/home/p2p/ads', seller.token, { ...adTerms, total: '300' });
      const buyer = await trader(nodeB, 'pbuyer');
      const order = await api(nodeB, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '20' });
      const orderId = order.id as string;

      const sellerView = await pageOn(nodeA, seller, `/trade/shopping/trading/sell_detail/${orderId}`);
      const buyerView = await pageOn(nodeB, buyer, `/trade/shopping/trading/contact/${orderId}`);
      await sellerView.page.getByTestId('chat-empty').waitFor();
      await buyerView.page.getByTestId('chat-empty').waitFor();
      // Each page opens its push connection once its first screen has settled (ADR 0025): the
      // event below is asserted on a connected page, so both are connected first.
      for (const view of [sellerView, buyerView]) {
        await expect.poll(() => view.received.some((frame) => frame.payload.includes('"type":"authed"')), { timeout: 10_000 }).toBe(true);
      }

      const timings: string[] = [];
      for (const [from, to, who, message] of [
        [buyerView, sellerView, 'buyer on B → seller on A', 'Hello from process B, paying now'],
        [sellerView, buyerView, 'seller on A → buyer on B', 'Seen on process A, thanks'],
      ] as const) {
        const { id, answeredAt } = await send(from.page, orderId, message);
        const row = to.page.getByTestId(`chat-message-${id}`);
        await row.waitFor({ timeout: DELIVERY_TIMEOUT_MS });
        const shownAt = Date.now();
        expect(await row.getAttribute('data-from')).toBe('them');
        expect(await row.getByTestId('chat-text').textContent()).toBe(message);
        // Brought by the event pushed over the page's /ws (from the other process, through Redis).
        const event = to.received.find((frame) => frame.payload.includes('"p2p.chat"') && frame.payload.includes(`"${id}"`));
        expect(event, "the chat event reaches the other side's page over /ws").toBeDefined();
        timings.push(`${who}: event ${event!.at - answeredAt} ms, shown ${shownAt - answeredAt} ms after the send was answered`);
      }
      console.info(`[p2p two processes] ${nodeA} and ${nodeB}:\n  ${timings.join('\n  ')}`);
    },
  );
});
