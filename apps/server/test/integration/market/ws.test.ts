import { maxReplayTicks } from '@keel/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { type RecordedTick, readTicksForReplay } from '../../../src/persistence/market-ticks.store.ts';
import type { GatewayOptions } from '../../../src/ws/gateway.ts';
import { recordTicksForTest, startTestMarket, type TestMarket } from '../../helpers/market.ts';
import { testConfig } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { TestWsClient } from '../../helpers/ws-client.ts';

interface Node {
  baseUrl: string;
  app: FastifyInstance;
  market: TestMarket;
  close: () => Promise<void>;
}

/** A server node with its own MarketService (tail only) on `db`, listening on a free port. */
async function startNode(db: Db, ws: Partial<GatewayOptions> = {}): Promise<Node> {
  const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent' });
  const market = await startTestMarket(db, { symbols: config.MARKET_SYMBOLS });
  const app = await buildApp({ config, db, market: market.service, ws });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    app,
    market,
    async close() {
      await app.close();
      await market.stop();
    },
  };
}

const ids = (ticks: readonly { tickId: string | bigint }[]) => ticks.map((tick) => BigInt(tick.tickId));
const minute = (iso: string) => Date.parse(iso);

// One database for the file: migrating an embedded PGlite costs seconds.
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.dispose());

describe('/ws push connection', () => {
  let node: Node;
  const clients: TestWsClient[] = [];
  const connect = async (baseUrl = node.baseUrl, options = {}) => {
    const client = await TestWsClient.connect(baseUrl, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    node = await startNode(t.db);
  });
  afterAll(async () => {
    for (const client of clients) client.socket.terminate();
    await node.close();
  });

  it('answers ping with pong', async () => {
    const client = await connect();
    client.send({ op: 'ping' });
    await client.until(() => client.ofType('pong').length === 1);
  });

  it('subscribes to ticks and pushes every recorded tick live, in id order', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['ticks'] });
    const [subscribed] = await client.until(() => client.ofType('subscribed').length === 1 && client.ofType('subscribed'));
    expect(subscribed).toEqual({ type: 'subscribed', channels: ['ticks'], replayedTicks: 0, replayTruncated: false });
    const recorded = await node.market.record([
      { symbol: 'BTC/USDT', price: '90000.5' },
      { symbol: 'ETH/USDT', price: '3000.25' },
    ]);
    await node.market.record([{ symbol: 'BTC/USDT', price: '90001' }]);
    const ticks = await client.until(() => client.ofType('tick').length >= 3 && client.ofType('tick').map((frame) => frame.tick));
    expect(ticks[0]).toEqual({ tickId: recorded[0]!.tickId.toString(), symbol: 'BTC/USDT', price: '90000.50000000', atMs: recorded[0]!.atMs, source: 'test' });
    expect(ticks.map((tick) => tick.price)).toEqual(['90000.50000000', '3000.25000000', '90001.00000000']);
    expect(ids(ticks)).toEqual([...ids(recorded), ids(ticks)[2]!]);
  });

  it('stops pushing a channel after unsubscribe', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['ticks'] });
    await client.until(() => client.ofType('subscribed').length === 1);
    await node.market.record([{ symbol: 'SOL/USDT', price: '140' }]);
    await client.until(() => client.ofType('tick').length === 1);
    client.send({ op: 'unsubscribe', channels: ['ticks'] });
    client.send({ op: 'ping' });
    await client.until(() => client.ofType('pong').length === 1);
    await node.market.record([{ symbol: 'SOL/USDT', price: '141' }]);
    // Another client that is subscribed sees the tick, so it was pushed by then.
    const watcher = await connect();
    watcher.send({ op: 'subscribe', channels: ['ticks'], sinceTickId: '0' });
    await watcher.until(() => watcher.ofType('tick').some((frame) => frame.tick.price === '141.00000000'));
    client.send({ op: 'ping' });
    await client.until(() => client.ofType('pong').length === 2);
    expect(client.ofType('tick')).toHaveLength(1);
  });

  it('pushes the current candle on subscribe, then the updated candle on each tick', async () => {
    await node.market.record([{ symbol: 'XRP/USDT', price: '2.1', atMs: minute('2026-11-22T10:00:05Z') }]);
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['candles:XRP/USDT:1m', 'candles:XRP/USDT:1h'] });
    const candles = (interval: string) => client.ofType('candle').filter((frame) => frame.interval === interval);
    await client.until(() => candles('1m').length === 1 && candles('1h').length === 1);
    expect(candles('1m')[0]).toEqual({
      type: 'candle',
      symbol: 'XRP/USDT',
      interval: '1m',
      candle: { openTimeMs: minute('2026-11-22T10:00:00Z'), open: '2.10000000', high: '2.10000000', low: '2.10000000', close: '2.10000000', tickCount: 1 },
    });
    await node.market.record([{ symbol: 'XRP/USDT', price: '2.2', atMs: minute('2026-11-22T10:00:20Z') }]);
    await node.market.record([
      { symbol: 'XRP/USDT', price: '2.05', atMs: minute('2026-11-22T10:00:40Z') },
      { symbol: 'ETH/USDT', price: '3001', atMs: minute('2026-11-22T10:00:41Z') },
      { symbol: 'XRP/USDT', price: '2.15', atMs: minute('2026-11-22T10:01:00Z') },
    ]);
    await client.until(() => candles('1m').length === 4 && candles('1h').length === 4);
    expect(candles('1m').map((frame) => frame.candle)).toEqual([
      expect.objectContaining({ tickCount: 1 }),
      { openTimeMs: minute('2026-11-22T10:00:00Z'), open: '2.10000000', high: '2.20000000', low: '2.10000000', close: '2.20000000', tickCount: 2 },
      { openTimeMs: minute('2026-11-22T10:00:00Z'), open: '2.10000000', high: '2.20000000', low: '2.05000000', close: '2.05000000', tickCount: 3 },
      { openTimeMs: minute('2026-11-22T10:01:00Z'), open: '2.15000000', high: '2.15000000', low: '2.15000000', close: '2.15000000', tickCount: 1 },
    ]);
    expect(candles('1h').at(-1)?.candle).toEqual({
      openTimeMs: minute('2026-11-22T10:00:00Z'),
      open: '2.10000000',
      high: '2.20000000',
      low: '2.05000000',
      close: '2.15000000',
      tickCount: 4,
    });
    // The pushed candle is the stored one.
    const stored = await node.app.inject({ method: 'GET', url: '/home/market/candles?symbol=XRP/USDT&interval=1h' });
    expect(stored.json().data.items.at(-1)).toEqual(candles('1h').at(-1)?.candle);
  });

  it('resumes after a reconnect, to the same node or another, with sinceTickId: no gap, no repeat', async () => {
    const other = await startNode(await t.openAnother());
    try {
      const first = await connect();
      first.send({ op: 'subscribe', channels: ['ticks'] });
      await first.until(() => first.ofType('subscribed').length === 1);
      const before = await node.market.record(Array.from({ length: 5 }, (_, i) => ({ symbol: 'DOGE/USDT', price: `0.15${i}` })));
      await first.until(() => first.ofType('tick').length === 5);
      const lastSeen = first.ofType('tick').at(-1)!.tick.tickId;
      first.close();
      await first.closeCode();

      // Missed while away; the other node has read them, so they come as the replay.
      const missed = await recordTicksForTest(t.db, Array.from({ length: 10 }, (_, i) => ({ symbol: 'DOGE/USDT', price: `0.16${i}` })));
      await other.market.service.syncNow();
      // Ticks keep coming while the client resubscribes: the replay and the live stream must meet exactly.
      let recording = true;
      const during: RecordedTick[] = [];
      const writer = (async () => {
        for (let i = 0; recording && i < 200; i += 1) {
          during.push(...(await recordTicksForTest(t.db, [{ symbol: 'DOGE/USDT', price: `0.17${i}` }])));
          await new Promise((resolve) => setTimeout(resolve, 3));
        }
      })();
      const second = await connect(other.baseUrl);
      second.send({ op: 'subscribe', channels: ['ticks'], sinceTickId: lastSeen });
      let subscribed: { replayedTicks: number; replayTruncated: boolean } | undefined;
      try {
        [subscribed] = await second.until(() => second.ofType('subscribed').length === 1 && second.ofType('subscribed'));
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        recording = false;
        await writer;
      }
      expect(subscribed!.replayedTicks).toBeGreaterThanOrEqual(missed.length);
      expect(subscribed!.replayTruncated).toBe(false);
      const after = await recordTicksForTest(t.db, [{ symbol: 'DOGE/USDT', price: '0.18' }]);
      await second.until(() => second.ofType('tick').some((frame) => BigInt(frame.tick.tickId) === after[0]!.tickId));

      const seen = [...ids(first.ofType('tick').map((frame) => frame.tick)), ...ids(second.ofType('tick').map((frame) => frame.tick))];
      const expected = [...ids(before), ...ids(missed), ...ids(during), ...ids(after)];
      expect(during.length).toBeGreaterThan(0);
      expect(seen).toEqual(expected);
    } finally {
      await other.close();
    }
  });

  it('replays at most maxReplayTicks, the newest, and says older ones were left out', async () => {
    const recorded = await recordTicksForTest(
      t.db,
      Array.from({ length: maxReplayTicks + 100 }, (_, i) => ({ symbol: 'ADA/USDT', price: `0.${4000 + i}` })),
    );
    await node.market.service.syncNow();
    const since = (recorded[0]!.tickId - 1n).toString();
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['ticks'], sinceTickId: since });
    const [subscribed] = await client.until(() => client.ofType('subscribed').length === 1 && client.ofType('subscribed'));
    expect(subscribed).toMatchObject({ replayedTicks: maxReplayTicks, replayTruncated: true });
    const ticks = await client.until(() => client.ofType('tick').length >= maxReplayTicks && client.ofType('tick'));
    expect(ids(ticks.slice(0, maxReplayTicks).map((frame) => frame.tick))).toEqual(ids(recorded.slice(-maxReplayTicks)));
  });

  it('answers a bad frame with parameter error and keeps the connection', async () => {
    const client = await connect();
    const badFrames: unknown[] = [
      'not json',
      '{"op":',
      { op: 'dance' },
      { op: 'subscribe', channels: [] },
      { op: 'subscribe', channels: ['trades'] },
      { op: 'subscribe', channels: ['candles:BTC-USDT:1m'] },
      { op: 'subscribe', channels: ['candles:BTC/USDT:2m'] },
      { op: 'subscribe', channels: ['ticks'], sinceTickId: '-1' },
      { op: 'subscribe', channels: ['ticks'], sinceTickId: 5 },
      { op: 'subscribe', channels: Array.from({ length: 51 }, (_, i) => `candles:C${i}/USDT:1m`) },
    ];
    for (const frame of badFrames) client.send(frame);
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    const errors = await client.until(() => client.ofType('error').length === badFrames.length + 1 && client.ofType('error'));
    for (const error of errors) expect(error).toEqual({ type: 'error', code: 400, msg: 'parameter error' });
    expect(client.ofType('subscribed')).toHaveLength(0);
    client.send({ op: 'ping' });
    await client.until(() => client.ofType('pong').length === 1);
  });

  it('limits channels per connection and refuses candles of unlisted markets', async () => {
    const client = await connect();
    const listed = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'BNB/USDT', 'XRP/USDT', 'DOGE/USDT', 'LTC/USDT', 'TRX/USDT', 'ADA/USDT'];
    const all = ['ticks', ...listed.flatMap((symbol) => ['1m', '5m', '15m', '1h', '1d'].map((interval) => `candles:${symbol}:${interval}`))];
    client.send({ op: 'subscribe', channels: ['candles:PEPE/USDT:1m'] });
    await client.until(() => client.ofType('error').length === 1);
    expect(client.ofType('error')[0]).toEqual({ type: 'error', code: 404, msg: 'record does not exist' });
    client.send({ op: 'subscribe', channels: all });
    await client.until(() => client.ofType('subscribed').length === 1);
    expect(client.ofType('subscribed')[0]!.channels).toHaveLength(46);
    // 46 + 5 would pass the limit of 50 channels per connection.
    client.send({ op: 'subscribe', channels: ['candles:AAA/USDT:1m', 'candles:BBB/USDT:1m', 'candles:CCC/USDT:1m', 'candles:DDD/USDT:1m', 'candles:EEE/USDT:1m'] });
    await client.until(() => client.ofType('error').length === 2);
    expect(client.ofType('error')[1]).toEqual({ type: 'error', code: 400, msg: 'parameter error' });
  });

  it('closes a connection that sends a frame above the size limit (1009)', async () => {
    const client = await connect();
    client.send({ op: 'ping', padding: 'x'.repeat(20 * 1024) });
    expect(await client.closeCode()).toBe(1009);
  });
});

describe('/ws replay meeting the live stream', () => {
  it('live ticks that arrive while the replay is being read follow it, in order, none twice', async () => {
    let duringReplay: RecordedTick[] = [];
    let node: Node | undefined;
    node = await startNode(t.db, {
      // New ticks are recorded and taken in by the node (so pushed live) while the replay is read.
      readReplay: async (db, afterId, upToId, limit) => {
        duringReplay = await node!.market.record([
          { symbol: 'BTC/USDT', price: '90100' },
          { symbol: 'BTC/USDT', price: '90101' },
        ]);
        return readTicksForReplay(db, afterId, upToId, limit);
      },
    });
    try {
      const earlier = await node.market.record([
        { symbol: 'BTC/USDT', price: '90000' },
        { symbol: 'BTC/USDT', price: '90001' },
        { symbol: 'BTC/USDT', price: '90002' },
      ]);
      const client = await TestWsClient.connect(node.baseUrl);
      client.send({ op: 'subscribe', channels: ['ticks'], sinceTickId: earlier[0]!.tickId.toString() });
      await client.until(() => client.ofType('tick').length >= 4);
      const later = await node.market.record([{ symbol: 'BTC/USDT', price: '90200' }]);
      await client.until(() => client.ofType('tick').length >= 5);
      expect(client.ofType('subscribed')[0]).toMatchObject({ replayedTicks: 2, replayTruncated: false });
      expect(duringReplay).toHaveLength(2);
      expect(ids(client.ofType('tick').map((frame) => frame.tick))).toEqual([...ids(earlier.slice(1)), ...ids(duringReplay), ...ids(later)]);
      client.close();
    } finally {
      await node.close();
    }
  });
});

describe('/ws limits that need small settings', () => {
  it('closes a client that does not read (1013) once its send buffer passes the bound', async () => {
    const node = await startNode(t.db, { maxBufferedBytes: 64 * 1024 });
    try {
      const slow = await TestWsClient.connect(node.baseUrl);
      slow.send({ op: 'subscribe', channels: ['ticks', 'candles:BTC/USDT:1m', 'candles:BTC/USDT:5m', 'candles:BTC/USDT:15m', 'candles:BTC/USDT:1h', 'candles:BTC/USDT:1d'] });
      await slow.until(() => slow.ofType('subscribed').length === 1);
      slow.socket.pause();
      // About 13 MB of frames: some three times what the loopback socket buffers took before the
      // server saw its own buffer grow, when measured on this machine.
      for (let round = 0; round < 30; round += 1) {
        await node.market.record(Array.from({ length: 500 }, (_, i) => ({ symbol: 'BTC/USDT', price: `${90_000 + round}.${i}` })));
      }
      slow.socket.resume();
      expect(await slow.closeCode(20_000)).toBe(1013);
      slow.socket.terminate();
    } finally {
      await node.close();
    }
  });

  it('drops a connection that stops answering pings, and keeps one that answers', async () => {
    const node = await startNode(t.db, { heartbeatIntervalMs: 250 });
    try {
      const healthy = await TestWsClient.connect(node.baseUrl);
      const silent = await TestWsClient.connect(node.baseUrl, { autoPong: false });
      expect(await silent.closeCode()).toBe(1006);
      // Several heartbeats have passed by now; the healthy client is still served.
      healthy.send({ op: 'ping' });
      await healthy.until(() => healthy.ofType('pong').length === 1);
      expect(healthy.closed).toBeUndefined();
      healthy.close();
    } finally {
      await node.close();
    }
  });

  it('closes every connection with 1001 when the server shuts down', async () => {
    const node = await startNode(t.db);
    const client = await TestWsClient.connect(node.baseUrl);
    await node.close();
    expect(await client.closeCode()).toBe(1001);
  });
});

