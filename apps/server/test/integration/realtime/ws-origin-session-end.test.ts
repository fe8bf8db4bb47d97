import { randomBytes } from 'node:crypto';
import type { UserEvent } from '@keel/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../../src/app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { createLocalEventBus, type EventBus, userChannel } from '../../../src/realtime/event-bus.ts';
import { createRedisEventBus } from '../../../src/realtime/redis-event-bus.ts';
import { hashToken } from '../../../src/security/tokens.ts';
import type { GatewayOptions } from '../../../src/ws/gateway.ts';
import { createStaff, registerViaApi, testConfig } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { TestWsClient } from '../../helpers/ws-client.ts';

// Issue 13, defect 6 (ADR 0023): /ws checks the Origin of the upgrade as CORS does, and a socket's
// user stream ends when the session it authenticated with ends — logout, a session ended from the
// sessions page, a password change or recovery, a suspension, expiry — on whichever node the
// socket is, told to the client with an `unauthed` frame.

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `keel-test-${randomBytes(6).toString('hex')}:`;

interface Node {
  baseUrl: string;
  app: FastifyInstance;
  events: EventBus;
  close: () => Promise<void>;
}

async function startNode(db: Db, options: { events?: EventBus; env?: Record<string, string>; ws?: Partial<GatewayOptions> } = {}): Promise<Node> {
  const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent', ...options.env });
  const events = options.events ?? createLocalEventBus();
  const app = await buildApp({ config, db, events, ws: options.ws });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    app,
    events,
    async close() {
      await app.close();
      await events.close();
    },
  };
}

/** The upgrade's answer: 101 when the socket opened, else the HTTP status the server refused it with. */
async function upgradeStatus(baseUrl: string, origin?: string): Promise<number> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, origin === undefined ? {} : { origin });
  try {
    return await new Promise<number>((resolve, reject) => {
      socket.once('open', () => resolve(101));
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', reject);
    });
  } finally {
    socket.terminate();
  }
}

let t: TestDb;
const clients: TestWsClient[] = [];
let counter = 0;

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  for (const client of clients) client.socket.terminate();
  await t.dispose();
});

async function connect(node: Node) {
  const client = await TestWsClient.connect(node.baseUrl);
  clients.push(client);
  return client;
}

async function authenticate(client: TestWsClient, token: string) {
  const before = client.ofType('authed').length;
  client.send({ op: 'auth', token });
  await client.until(() => client.ofType('authed').length > before);
}

const unauthedFrames = (client: TestWsClient) => client.frames.filter((frame) => (frame as { type: string }).type === 'unauthed');
const eventsOf = (client: TestWsClient) => client.ofType('event').map((frame) => frame.event);
const order = (orderId: string): UserEvent => ({ kind: 'p2p.order', orderId, status: 'paid' });

async function inject(node: Node, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, payload?: Record<string, unknown>) {
  const response = await node.app.inject({ method, url, headers: token ? { authorization: token } : {}, ...(payload ? { payload } : {}) });
  return response.json() as { code: number; msg: string; data: unknown };
}

async function login(node: Node, account: string, password = 'secret12') {
  const answer = await inject(node, 'POST', '/home/auth/login', null, { account, password, agreement: true });
  if (answer.code !== 200) throw new Error(`login: ${answer.msg}`);
  return (answer.data as { token: string }).token;
}

async function newUser(node: Node) {
  counter += 1;
  const username = `wsend${counter}${randomBytes(3).toString('hex')}`;
  return { username, ...(await registerViaApi(node.app, username)) };
}

/**
 * After a session ended: an event published for the user (on `publisher`'s bus) does not reach
 * `ended`, while `control` (another user, or another live session, on the same node as `ended`)
 * gets its own event published after it — so `ended` would have had it by then. Then `ended` has
 * been told, and still answers on its public channels.
 */
async function expectStreamEnded(
  publisher: Node,
  ended: { client: TestWsClient; userId: string },
  control: { client: TestWsClient; userId: string },
  told: { code: number; msg: string } = { code: 401, msg: 'token does not exist' },
) {
  await ended.client.until(() => unauthedFrames(ended.client).length === 1, 5_000).catch(() => undefined);
  const eventsBefore = eventsOf(ended.client).length;
  const controlBefore = eventsOf(control.client).length;
  await publisher.events.publish(userChannel(ended.userId), order('901'));
  await publisher.events.publish(userChannel(control.userId), order('902'));
  await control.client.until(() => eventsOf(control.client).length > controlBefore);
  expect(eventsOf(ended.client).slice(eventsBefore), 'events after the session ended').toEqual([]);
  expect(unauthedFrames(ended.client)).toEqual([{ type: 'unauthed', ...told }]);
  ended.client.send({ op: 'ping' });
  await ended.client.until(() => ended.client.ofType('pong').length >= 1);
  expect(ended.client.closed).toBeUndefined();
}

describe('/ws checks the Origin of the upgrade like CORS', () => {
  let node: Node;
  beforeAll(async () => {
    node = await startNode(t.db, { env: { CORS_ORIGINS: 'https://app.keel.example' } });
  });
  afterAll(() => node.close());

  it('opens for its own origin, a listed origin, and a client that sends none (not a browser)', async () => {
    expect(await upgradeStatus(node.baseUrl, node.baseUrl)).toBe(101);
    expect(await upgradeStatus(node.baseUrl, 'https://app.keel.example')).toBe(101);
    expect(await upgradeStatus(node.baseUrl)).toBe(101);
  });

  it('refuses any other origin at the upgrade with 403', async () => {
    const port = new URL(node.baseUrl).port;
    for (const origin of [
      'https://evil.example',
      'null',
      `http://127.0.0.1:${Number(port) + 1}`,
      `http://127.0.0.1:${port}.evil.example`,
      'https://app.keel.example.evil.example',
      'http://app.keel.example',
      'not a url',
    ]) {
      expect({ origin, status: await upgradeStatus(node.baseUrl, origin) }).toEqual({ origin, status: 403 });
    }
  });

  it('with no CORS_ORIGINS, only its own origin', async () => {
    const plain = await startNode(t.db);
    try {
      expect(await upgradeStatus(plain.baseUrl, plain.baseUrl)).toBe(101);
      expect(await upgradeStatus(plain.baseUrl, 'https://app.keel.example')).toBe(403);
    } finally {
      await plain.close();
    }
  });
});

describe("a socket's user stream ends with its session (one node)", () => {
  let node: Node;
  let admin: string;
  beforeAll(async () => {
    node = await startNode(t.db);
    admin = await createStaff(node.app, t.db, 'wsadmin01', ['admin']);
  });
  afterAll(() => node.close());

  /** A user with two sessions, a socket authenticated with each. */
  async function twoSessions() {
    const user = await newUser(node);
    const secondToken = await login(node, user.username);
    const first = await connect(node);
    const second = await connect(node);
    await authenticate(first, user.token);
    await authenticate(second, secondToken);
    return { user, secondToken, first: { client: first, userId: user.userId }, second: { client: second, userId: user.userId } };
  }

  it('logout: the socket of that session only', async () => {
    const { user, first, second } = await twoSessions();
    expect((await inject(node, 'POST', '/home/auth/logout', user.token)).code).toBe(200);
    await expectStreamEnded(node, first, second);
  });

  it('a session ended from the sessions page', async () => {
    const { secondToken, first, second } = await twoSessions();
    const sessions = (await inject(node, 'GET', '/home/user/sessions', secondToken)).data as { items: { id: string; current: boolean }[] };
    const other = sessions.items.find((session) => !session.current)!;
    expect((await inject(node, 'DELETE', `/home/user/sessions/${other.id}`, secondToken)).code).toBe(200);
    await expectStreamEnded(node, first, second);
  });

  it('a password change ends the other sessions, and their sockets', async () => {
    const { secondToken, first, second } = await twoSessions();
    const changed = await inject(node, 'PUT', '/home/user/password', secondToken, { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' });
    expect(changed.code).toBe(200);
    await expectStreamEnded(node, first, second);
  });

  it('password recovery ends every session, and every socket', async () => {
    const user = await newUser(node);
    const email = `${user.username}@example.com`;
    await t.db.query('UPDATE users SET email = $2 WHERE id = $1', [user.userId, email]);
    const client = await connect(node);
    await authenticate(client, user.token);
    const control = await newUser(node);
    const controlClient = await connect(node);
    await authenticate(controlClient, control.token);
    await inject(node, 'POST', '/home/auth/code', null, { channel: 'email', target: email, purpose: 'reset_password' });
    const [sent] = await t.db.query<{ body: string }>('SELECT body FROM notification_outbox WHERE target = $1 ORDER BY id DESC LIMIT 1', [email]);
    const code = /\b(\d{6})\b/.exec(sent!.body)![1];
    const reset = await inject(node, 'POST', '/home/auth/password/reset', null, { channel: 'email', target: email, code, password: 'newpass1', confirmPassword: 'newpass1' });
    expect(reset.code).toBe(200);
    await expectStreamEnded(node, { client, userId: user.userId }, { client: controlClient, userId: control.userId });
  });

  it('a user suspended by staff: every socket of the user, told "user status incorrect"', async () => {
    const { first, second } = await twoSessions();
    const control = await newUser(node);
    const controlClient = await connect(node);
    await authenticate(controlClient, control.token);
    const suspended = await inject(node, 'PUT', `/home/admin/users/${first.userId}/status`, admin, { status: 'suspended', reason: 'fraud check' });
    expect(suspended.code).toBe(200);
    const controlSide = { client: controlClient, userId: control.userId };
    const told = { code: 400, msg: 'user status incorrect' };
    await expectStreamEnded(node, first, controlSide, told);
    await expectStreamEnded(node, second, controlSide, told);
  });

  it('session expiry, with no request at all', async () => {
    const { user, second } = await twoSessions();
    // The first session expires in a second; this socket authenticates with it after that was set.
    await t.db.query(`UPDATE sessions SET expires_at = $2 WHERE token_hash = $1`, [hashToken(user.token), new Date(Date.now() + 1_000)]);
    const late = await connect(node);
    await authenticate(late, user.token);
    await late.until(() => unauthedFrames(late).length === 1, 5_000).catch(() => undefined);
    await expectStreamEnded(node, { client: late, userId: user.userId }, second);
  });

  it('a session ended where no event was published (a lost event) is found by the periodic check', async () => {
    const checking = await startNode(t.db, { ws: { sessionRecheckIntervalMs: 300 } });
    try {
      const user = await newUser(checking);
      const control = await newUser(checking);
      const client = await connect(checking);
      const controlClient = await connect(checking);
      await authenticate(client, user.token);
      await authenticate(controlClient, control.token);
      await t.db.query('UPDATE sessions SET ended_at = now() WHERE user_id = $1', [user.userId]);
      await client.until(() => unauthedFrames(client).length === 1, 5_000).catch(() => undefined);
      await expectStreamEnded(checking, { client, userId: user.userId }, { client: controlClient, userId: control.userId });
    } finally {
      await checking.close();
    }
  });

  it('an ended stream may authenticate again with a live session', async () => {
    const { user, secondToken, first } = await twoSessions();
    await inject(node, 'POST', '/home/auth/logout', user.token);
    await first.client.until(() => unauthedFrames(first.client).length === 1, 5_000);
    await authenticate(first.client, secondToken);
    await node.events.publish(userChannel(user.userId), order('903'));
    await first.client.until(() => eventsOf(first.client).length === 1);
  });
});

describe("a socket's user stream ends with its session, on every node (Redis)", () => {
  let a: Node;
  let b: Node;
  let admin: string;
  beforeAll(async () => {
    a = await startNode(t.db, { events: createRedisEventBus(redisUrl, { prefix }) });
    b = await startNode(await t.openAnother(), { events: createRedisEventBus(redisUrl, { prefix }) });
    admin = await createStaff(b.app, t.db, 'wsadmin02', ['admin']);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('logout on node B ends the stream of the socket on node A', async () => {
    const user = await newUser(a);
    const secondToken = await login(b, user.username);
    const ended = await connect(a);
    const kept = await connect(a);
    await authenticate(ended, user.token);
    await authenticate(kept, secondToken);
    expect((await inject(b, 'POST', '/home/auth/logout', user.token)).code).toBe(200);
    await expectStreamEnded(b, { client: ended, userId: user.userId }, { client: kept, userId: user.userId });
  });

  it('a suspension on node B ends the streams on both nodes', async () => {
    const user = await newUser(a);
    const control = await newUser(a);
    const onA = await connect(a);
    const onB = await connect(b);
    const controlOnA = await connect(a);
    const controlOnB = await connect(b);
    await authenticate(onA, user.token);
    await authenticate(onB, user.token);
    await authenticate(controlOnA, control.token);
    await authenticate(controlOnB, control.token);
    expect((await inject(b, 'PUT', `/home/admin/users/${user.userId}/status`, admin, { status: 'banned', reason: 'fraud proven' })).code).toBe(200);
    const told = { code: 400, msg: 'user status incorrect' };
    await expectStreamEnded(b, { client: onA, userId: user.userId }, { client: controlOnA, userId: control.userId }, told);
    await expectStreamEnded(a, { client: onB, userId: user.userId }, { client: controlOnB, userId: control.userId }, told);
  });
});
