import { randomBytes, randomUUID } from 'node:crypto';
import type { UserEvent } from '@keel/contracts';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { type EventBus, userChannel } from '../../../src/realtime/event-bus.ts';
import { createRedisEventBus } from '../../../src/realtime/redis-event-bus.ts';
import { createStaff, registerViaApi, testConfig } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { TestWsClient } from '../../helpers/ws-client.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// This run's own channels: runs side by side have users with the same ids.
const prefix = `keel-test-${randomBytes(6).toString('hex')}:`;

interface Node {
  baseUrl: string;
  app: FastifyInstance;
  /** The node's bus; undefined when the app built its own from the configuration. */
  events: EventBus | undefined;
  close: () => Promise<void>;
}

/** A server node (no MarketService: /ws opens anyway) on `db`, listening on a free port. */
async function startNode(db: Db, events?: EventBus): Promise<Node> {
  const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent' });
  const app = await buildApp({ config, db, events });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    app,
    events,
    async close() {
      await app.close();
      await events?.close();
    },
  };
}

/** A verification submission waiting for review (placeholder photos), as the user's upload and submit would leave it. */
async function submissionInReview(db: Db, userId: string): Promise<string> {
  const [upload] = await db.query<{ id: bigint }>(
    `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
     VALUES ($1, 'verification', $2, 'png', 1, 1, 1, now()) RETURNING id`,
    [userId, `test/${randomUUID()}`],
  );
  const [submission] = await db.query<{ id: bigint }>(
    `INSERT INTO verification_submissions (user_id, level, status, fields, front_upload_id, back_upload_id, holding_upload_id, submitted_at)
     VALUES ($1, 'identity', 'in_review', '{}', $2, $2, $2, now()) RETURNING id`,
    [userId, upload!.id],
  );
  return submission!.id.toString();
}

async function approve(app: FastifyInstance, staffToken: string, submissionId: string) {
  const response = await app.inject({
    method: 'POST',
    url: `/home/admin/verifications/${submissionId}/decision`,
    headers: { authorization: staffToken },
    payload: { decision: 'approve' },
  });
  expect(response.json()).toMatchObject({ code: 200 });
}

const events = (client: TestWsClient) => client.ofType('event').map((frame) => frame.event);
const order = (orderId: string): UserEvent => ({ kind: 'p2p.order', orderId, status: 'paid' });

let t: TestDb;
const clients: TestWsClient[] = [];
async function connect(node: Node) {
  const client = await TestWsClient.connect(node.baseUrl);
  clients.push(client);
  return client;
}
async function authenticate(client: TestWsClient, token: string) {
  const before = client.ofType('authed').length;
  client.send({ op: 'auth', token });
  return (await client.until(() => client.ofType('authed').length > before && client.ofType('authed')))[before]!;
}

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  for (const client of clients) client.socket.terminate();
  await t.dispose();
});

describe('user events on /ws across two nodes (Redis)', () => {
  let a: Node;
  let b: Node;
  let alice: { token: string; userId: string };
  let bob: { token: string; userId: string };
  const raw = new Redis(redisUrl);

  beforeAll(async () => {
    // Two nodes on one database (PGlite: the same instance; PostgreSQL: another pool), one Redis.
    a = await startNode(t.db, createRedisEventBus(redisUrl, { prefix }));
    b = await startNode(await t.openAnother(), createRedisEventBus(redisUrl, { prefix }));
    [alice, bob] = await Promise.all([registerViaApi(a.app, 'alice01'), registerViaApi(b.app, 'bobby01')]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await raw.quit();
  });

  it('authenticates with the session token and pushes what node B publishes for the user to node A', async () => {
    const client = await connect(a);
    expect(await authenticate(client, alice.token)).toEqual({ type: 'authed', userId: alice.userId });
    await b.events!.publish(userChannel(alice.userId), order('12'));
    await client.until(() => events(client).length === 1);
    expect(client.ofType('event')).toEqual([{ type: 'event', event: order('12') }]);
  });

  it('pushes the real thing: staff decide a verification on node B, the user on node A hears of the new message', async () => {
    const client = await connect(a);
    await authenticate(client, alice.token);
    const staffToken = await createStaff(b.app, t.db, 'reviewer1', ['compliance']);
    await approve(b.app, staffToken, await submissionInReview(t.db, alice.userId));
    await client.until(() => events(client).length === 1);
    expect(events(client)).toEqual([{ kind: 'message', unread: true }]);
    // The event is a nudge; the state it points to is already there on either node.
    const unread = await a.app.inject({ method: 'GET', url: '/home/user/unread', headers: { authorization: alice.token } });
    expect(unread.json()).toMatchObject({ code: 200, data: true });
  });

  it('answers a wrong token with 401 and keeps the connection for public channels', async () => {
    const client = await connect(a);
    client.send({ op: 'auth', token: 'no-such-token' });
    client.send({ op: 'auth', token: '' });
    await client.until(() => client.ofType('error').length === 2);
    expect(client.ofType('error')).toEqual([
      { type: 'error', code: 401, msg: 'token does not exist' },
      { type: 'error', code: 401, msg: 'token empty' },
    ]);
    client.send({ op: 'ping' });
    client.send({ op: 'subscribe', channels: ['ticks'] });
    await client.until(() => client.ofType('pong').length === 1 && client.ofType('subscribed').length === 1);
    expect(client.closed).toBeUndefined();
    // Nothing for a user reaches a connection that is not theirs.
    await b.events!.publish(userChannel(alice.userId), order('13'));
    // Then it can still authenticate.
    await authenticate(client, bob.token);
    expect(events(client)).toEqual([]);
  });

  it("never delivers another user's events; one user per connection", async () => {
    const aliceClient = await connect(a);
    const bobClient = await connect(a);
    await authenticate(aliceClient, alice.token);
    await authenticate(bobClient, bob.token);

    // A second auth: the same user is answered again, another user is refused and changes nothing.
    await authenticate(bobClient, bob.token);
    bobClient.send({ op: 'auth', token: alice.token });
    await bobClient.until(() => bobClient.ofType('error').length === 1);
    expect(bobClient.ofType('error')).toEqual([{ type: 'error', code: 400, msg: 'parameter error' }]);
    expect(bobClient.ofType('authed')).toEqual([
      { type: 'authed', userId: bob.userId },
      { type: 'authed', userId: bob.userId },
    ]);

    // Both go through node A's one Redis subscriber in publish order: when Bob's own event
    // arrives, Alice's (published before it) would have too if it were going to.
    await b.events!.publish(userChannel(alice.userId), order('21'));
    await b.events!.publish(userChannel(bob.userId), order('22'));
    await bobClient.until(() => events(bobClient).length === 1);
    await aliceClient.until(() => events(aliceClient).length === 1);
    expect(events(bobClient)).toEqual([order('22')]);
    expect(events(aliceClient)).toEqual([order('21')]);
  });

  it("stops listening on Redis for a user when the user's last connection closes", async () => {
    const carol = await registerViaApi(a.app, 'carol01');
    const subscribers = async () => Number(((await raw.pubsub('NUMSUB', prefix + userChannel(carol.userId))) as [string, number])[1]);
    const first = await connect(a);
    const second = await connect(a);
    await authenticate(first, carol.token);
    await authenticate(second, carol.token);
    expect(await subscribers()).toBe(1);
    first.close();
    await first.closeCode();
    await b.events!.publish(userChannel(carol.userId), order('31'));
    await second.until(() => events(second).length === 1);
    second.close();
    await second.closeCode();
    await expect.poll(subscribers).toBe(0);
  });
});

describe('user events on /ws without REDIS_URL', () => {
  it('an in-process bus still delivers within one node', async () => {
    const node = await startNode(t.db);
    try {
      const dave = await registerViaApi(node.app, 'dave001');
      const client = await connect(node);
      await authenticate(client, dave.token);
      const staffToken = await createStaff(node.app, t.db, 'reviewer2', ['compliance']);
      await approve(node.app, staffToken, await submissionInReview(t.db, dave.userId));
      await client.until(() => events(client).length === 1);
      expect(events(client)).toEqual([{ kind: 'message', unread: true }]);
    } finally {
      await node.close();
    }
  });
});
