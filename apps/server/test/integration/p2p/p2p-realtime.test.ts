import { randomBytes } from 'node:crypto';
import type { UserEvent } from '@keel/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';
import { createRedisEventBus } from '../../../src/realtime/redis-event-bus.ts';
import { postAd, trader } from '../../helpers/p2p.ts';
import { testConfig } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { call } from '../../helpers/wallet.ts';
import { TestWsClient } from '../../helpers/ws-client.ts';

// Issue 6: realtime across nodes. Two server processes' apps on one database and one Redis: the
// seller is connected to node A, the buyer acts on node B; the order's steps and the chat messages
// reach the seller live over /ws (as nudges; the seller then reads them over HTTP on node A).

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `keel-p2p-test-${randomBytes(6).toString('hex')}:`;

interface Node {
  baseUrl: string;
  app: FastifyInstance;
  events: EventBus;
}

async function startNode(db: Db): Promise<Node> {
  const events = createRedisEventBus(redisUrl, { prefix });
  const app = await buildApp({ config: testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent' }), db, events });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { baseUrl: `http://127.0.0.1:${address.port}`, app, events };
}

let t: TestDb;
let a: Node;
let b: Node;
let client: TestWsClient;

beforeAll(async () => {
  t = await createTestDb();
  a = await startNode(t.db);
  b = await startNode(await t.openAnother());
});
afterAll(async () => {
  client?.socket.terminate();
  for (const node of [a, b]) {
    await node?.app.close();
    await node?.events.close();
  }
  await t.dispose();
});

const events = () => client.ofType('event').map((frame) => frame.event as UserEvent);

describe('P2P events across two nodes', () => {
  it('the seller on node A hears of the order, its payment and each chat message the buyer makes on node B', async () => {
    const seller = await trader(a.app, t.db, 'rtseller1', '300');
    const buyer = await trader(b.app, t.db, 'rtbuyer01');
    const ad = await postAd(a.app, seller, '300');

    client = await TestWsClient.connect(a.baseUrl);
    client.send({ op: 'auth', token: seller.token });
    await client.until(() => client.ofType('authed').length === 1);

    const placed = await call(b.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '50' });
    const orderId = placed.data.id as string;
    await client.until(() => events().some((event) => event.kind === 'p2p.order' && event.status === 'awaiting_payment'));
    await call(b.app, 'POST', `/home/p2p/orders/${orderId}/paid`, buyer.token);
    await client.until(() => events().some((event) => event.kind === 'p2p.order' && event.status === 'paid'));
    const sent = await call(b.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { text: 'sent by UPI' });
    await client.until(() => events().some((event) => event.kind === 'p2p.chat' && event.messageId === sent.data.id));

    expect(events()).toEqual([
      { kind: 'p2p.order', orderId, status: 'awaiting_payment' },
      { kind: 'message', unread: true },
      { kind: 'p2p.order', orderId, status: 'paid' },
      { kind: 'message', unread: true },
      { kind: 'p2p.chat', orderId, messageId: sent.data.id },
    ]);
    // The nudge points at state node A serves at once.
    const chat = await call(a.app, 'GET', `/home/p2p/orders/${orderId}/chat`, seller.token);
    expect(chat.data.items.map((item: { text: string }) => item.text)).toEqual(['sent by UPI']);
    // Nothing for the buyer reached the seller's connection, and nothing of others.
    expect(events().every((event) => event.kind === 'message' || ('orderId' in event && event.orderId === orderId))).toBe(true);
  });
});
