import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MarketService } from '../../../src/market/market.service.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { leaseHolder } from '../../../src/persistence/market-feed-lease.store.ts';
import { ManualFeed, startTestMarket, type TestMarket } from '../../helpers/market.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

async function sourcesRecorded(db: Db, leaseName: string): Promise<string[]> {
  const rows = await db.query<{ source: string }>(`SELECT DISTINCT source FROM market_ticks WHERE source LIKE $1 ORDER BY source`, [`${leaseName}:%`]);
  return rows.map((row) => row.source);
}

/** Two nodes on one database, each with its own feed, sharing one lease name. */
async function twoNodes(t: TestDb, leaseName: string, leaseTtlMs = 600) {
  const feedA = new ManualFeed(`${leaseName}:A`);
  const feedB = new ManualFeed(`${leaseName}:B`);
  const other = await t.openAnother();
  const a = await startTestMarket(t.db, { feed: feedA, leaseName, holderId: `${leaseName}-A`, leaseTtlMs, leaseRenewMs: 100 });
  const b = await startTestMarket(other, { feed: feedB, leaseName, holderId: `${leaseName}-B`, leaseTtlMs, leaseRenewMs: 100 });
  return { a, b, feedA, feedB };
}

function leaderOf(nodes: { a: TestMarket; b: TestMarket; feedA: ManualFeed; feedB: ManualFeed }) {
  const aLeads = nodes.a.service.isLeader;
  return aLeads
    ? { leader: nodes.a.service, follower: nodes.b.service, leaderFeed: nodes.feedA, followerFeed: nodes.feedB, followerMarket: nodes.b }
    : { leader: nodes.b.service, follower: nodes.a.service, leaderFeed: nodes.feedB, followerFeed: nodes.feedA, followerMarket: nodes.a };
}

async function sameLatest(x: MarketService, y: MarketService, symbol: string, price: string) {
  await waitFor(() => {
    expect(x.latest(symbol)?.price).toBe(price);
    expect(y.latest(symbol)).toEqual(x.latest(symbol));
  });
}

describe('one feed writer per database, every node serves', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.dispose());

  it('two nodes: exactly one runs its feed and records; both serve the same latest ticks', async () => {
    const nodes = await twoNodes(t, 'one-writer');
    try {
      expect(nodes.a.service.isLeader !== nodes.b.service.isLeader).toBe(true);
      const { leader, follower, leaderFeed, followerFeed } = leaderOf(nodes);
      expect(leaderFeed.running).toBe(true);
      expect(followerFeed.running).toBe(false);
      for (let i = 0; i < 20; i += 1) {
        expect(leaderFeed.emit('BTC/USDT', `${90_000 + i}.5`)).toBe(true);
        expect(followerFeed.emit('BTC/USDT', `${10 + i}`)).toBe(false);
        leaderFeed.emit('ETH/USDT', `${3_000 + i}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await sameLatest(leader, follower, 'BTC/USDT', '90019.50000000');
      await sameLatest(leader, follower, 'ETH/USDT', '3019.00000000');
      expect(await sourcesRecorded(t.db, 'one-writer')).toEqual([leaderFeed.source]);
      const [count] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_ticks WHERE source = $1`, [leaderFeed.source]);
      expect(count!.n).toBe(40);
      // Both nodes took in the same recorded ids, in the same order.
      expect(follower.lastTickId).toBe(leader.lastTickId);
    } finally {
      await nodes.a.stop();
      await nodes.b.stop();
    }
  });

  it('when the holder dies, the other node takes over after the lease expires and continues from the recorded prices', async () => {
    const nodes = await twoNodes(t, 'takeover');
    try {
      const { leader, follower, leaderFeed, followerFeed } = leaderOf(nodes);
      leaderFeed.emit('BTC/USDT', '91000');
      await sameLatest(leader, follower, 'BTC/USDT', '91000.00000000');
      // A crash: no flush, no release; the row stays until it expires.
      await leader.stop({ releaseLease: false });
      expect((await leaseHolder(t.db, 'takeover'))?.holder).toBe(leader.holderId);
      await waitFor(() => expect(follower.isLeader).toBe(true));
      expect(followerFeed.running).toBe(true);
      expect(followerFeed.startedWith?.get('BTC/USDT')).toBe('91000.00000000');
      expect((await leaseHolder(t.db, 'takeover'))?.holder).toBe(follower.holderId);
      followerFeed.emit('BTC/USDT', '91010');
      await waitFor(() => expect(follower.latest('BTC/USDT')?.price).toBe('91010.00000000'));
      expect(follower.latest('BTC/USDT')?.source).toBe(followerFeed.source);
      expect(await sourcesRecorded(t.db, 'takeover')).toEqual([leaderFeed.source, followerFeed.source].sort());
    } finally {
      await nodes.a.stop();
      await nodes.b.stop();
    }
  });

  it('a clean stop gives the lease up at once: the other node takes over without waiting for expiry', async () => {
    // A one-minute lease: only a release can hand it over within the test's time.
    const nodes = await twoNodes(t, 'handover', 60_000);
    try {
      const { leader, follower, followerFeed } = leaderOf(nodes);
      await leader.stop();
      await waitFor(() => expect(follower.isLeader).toBe(true));
      expect(followerFeed.running).toBe(true);
    } finally {
      await nodes.a.stop();
      await nodes.b.stop();
    }
  });

  it('a holder whose lease was taken records nothing more and stops its feed', async () => {
    const feed = new ManualFeed('fenced:A');
    const market = await startTestMarket(t.db, { feed, leaseName: 'fenced', holderId: 'fenced-A', leaseTtlMs: 60_000, leaseRenewMs: 10_000 });
    try {
      expect(market.service.isLeader).toBe(true);
      // Another node took the lease (say this node was paused past its expiry).
      await t.db.query(`UPDATE market_feed_lease SET holder = 'fenced-B', expires_at = now() + interval '1 hour' WHERE name = 'fenced'`);
      feed.emit('BTC/USDT', '95000');
      await market.service.flushNow();
      expect(market.service.isLeader).toBe(false);
      expect(feed.running).toBe(false);
      expect(await sourcesRecorded(t.db, 'fenced')).toEqual([]);
    } finally {
      await market.stop();
    }
  });
});
