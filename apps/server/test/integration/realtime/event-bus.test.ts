import { randomBytes } from 'node:crypto';
import type { UserEvent } from '@keel/contracts';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../../src/deps.ts';
import { type BusEvent, type BusLogger, createLocalEventBus, type EventBus } from '../../../src/realtime/event-bus.ts';
import { eventBusFromConfig } from '../../../src/realtime/event-bus-from-config.ts';
import { publishToUser } from '../../../src/realtime/publish.ts';
import { createRedisEventBus } from '../../../src/realtime/redis-event-bus.ts';

// The bus needs a Redis; the suite's machines run one here (TEST_REDIS_URL to point elsewhere).
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A prefix of this run's own, so runs side by side (PGlite and PostgreSQL, two developers) never hear each other.
const prefix = `keel-test-${randomBytes(6).toString('hex')}:`;

const message: UserEvent = { kind: 'message', unread: true };
const order = (orderId: string): UserEvent => ({ kind: 'p2p.order', orderId, status: 'paid' });

function capturingLogger() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies BusLogger;
}

const opened: { close(): Promise<unknown> }[] = [];
function track<T extends { close(): Promise<unknown> }>(closable: T): T {
  opened.push(closable);
  return closable;
}
afterEach(async () => {
  for (const closable of opened.splice(0)) await closable.close();
});

/** A plain connection to the same Redis, for what the bus would never send and for PUBSUB checks. */
const raw = new Redis(redisUrl);
afterAll(async () => {
  await raw.quit();
});
async function redisSubscribers(channel: string): Promise<number> {
  const [, count] = (await raw.pubsub('NUMSUB', prefix + channel)) as [string, number];
  return Number(count);
}

describe('the in-process event bus', () => {
  it('delivers to the listeners of the channel only, until they unsubscribe', async () => {
    const bus = track(createLocalEventBus());
    const first: BusEvent[] = [];
    const second: BusEvent[] = [];
    const other: BusEvent[] = [];
    const stopFirst = bus.subscribe('user:1', (event) => first.push(event));
    bus.subscribe('user:1', (event) => second.push(event));
    bus.subscribe('user:2', (event) => other.push(event));
    await stopFirst.ready;

    await bus.publish('user:1', message);
    expect(first).toEqual([message]);
    expect(second).toEqual([message]);
    expect(other).toEqual([]);

    stopFirst();
    stopFirst();
    await bus.publish('user:1', order('7'));
    expect(first).toEqual([message]);
    expect(second).toEqual([message, order('7')]);
  });

  it('refuses an event the contract does not know, and keeps delivering when a listener throws', async () => {
    const logger = capturingLogger();
    const bus = track(createLocalEventBus({ logger }));
    const received: BusEvent[] = [];
    bus.subscribe('user:1', () => {
      throw new Error('a broken listener');
    });
    bus.subscribe('user:1', (event) => received.push(event));
    await expect(bus.publish('user:1', { kind: 'message', unread: false } as unknown as UserEvent)).rejects.toThrow();
    await bus.publish('user:1', message);
    expect(received).toEqual([message]);
    expect(logger.error).toHaveBeenCalledOnce();

    await bus.close();
    await expect(bus.publish('user:1', message)).rejects.toThrow('event bus closed');
  });
});

describe('the Redis event bus: two nodes on one Redis', () => {
  const node = (logger?: BusLogger) => track(createRedisEventBus(redisUrl, { prefix, logger }));

  it('delivers an event published on one node to listeners on both', async () => {
    const [a, b] = [node(), node()];
    const onA: BusEvent[] = [];
    const onB: BusEvent[] = [];
    await a.subscribe('user:1', (event) => onA.push(event)).ready;
    await b.subscribe('user:1', (event) => onB.push(event)).ready;

    await a.publish('user:1', message);
    await b.publish('user:1', order('42'));
    await vi.waitFor(() => {
      expect(onB).toEqual([message, order('42')]);
      expect(onA).toEqual([message, order('42')]);
    });
  });

  it('subscribes on Redis for the first listener of a channel, unsubscribes after the last', async () => {
    const [a, b] = [node(), node()];
    const first: BusEvent[] = [];
    const second: BusEvent[] = [];
    const stopFirst = b.subscribe('user:5', (event) => first.push(event));
    const stopSecond = b.subscribe('user:5', (event) => second.push(event));
    await Promise.all([stopFirst.ready, stopSecond.ready]);
    expect(await redisSubscribers('user:5')).toBe(1);

    stopFirst();
    await a.publish('user:5', order('1'));
    await vi.waitFor(() => expect(second).toEqual([order('1')]));
    expect(first).toEqual([]);

    stopSecond();
    await vi.waitFor(async () => expect(await redisSubscribers('user:5')).toBe(0));
    // Still listening elsewhere on b: this one arrives after the one for user:5 would have.
    const sentinel: BusEvent[] = [];
    await b.subscribe('user:6', (event) => sentinel.push(event)).ready;
    await a.publish('user:5', order('2'));
    await a.publish('user:6', order('3'));
    await vi.waitFor(() => expect(sentinel).toEqual([order('3')]));
    expect(second).toEqual([order('1')]);
  });

  it('drops a malformed message on its channel, logs it, and goes on delivering', async () => {
    const logger = capturingLogger();
    const [a, b] = [node(), node(logger)];
    const received: BusEvent[] = [];
    await b.subscribe('user:9', (event) => received.push(event)).ready;

    await raw.publish(`${prefix}user:9`, 'not json at all');
    await raw.publish(`${prefix}user:9`, JSON.stringify({ kind: 'withdrawal', id: '1' }));
    await raw.publish(`${prefix}user:9`, JSON.stringify({ kind: 'message', unread: false }));
    await raw.publish(`${prefix}user:9`, JSON.stringify({ kind: 'p2p.chat', orderId: '1', messageId: 'x'.repeat(20_000) }));
    await a.publish('user:9', message);
    await vi.waitFor(() => expect(received).toEqual([message]));
    expect(logger.warn).toHaveBeenCalledTimes(4);
    expect(logger.warn.mock.calls.every(([, text]) => text === 'event bus: malformed message dropped')).toBe(true);
  });

  it('is what the configuration picks with REDIS_URL, and the in-process bus without it', async () => {
    const channel = `user:test-${randomBytes(6).toString('hex')}`;
    const [a, b] = [track(eventBusFromConfig({ REDIS_URL: redisUrl })), track(eventBusFromConfig({ REDIS_URL: redisUrl }))];
    const received: BusEvent[] = [];
    await b.subscribe(channel, (event) => received.push(event)).ready;
    await a.publish(channel, message);
    await vi.waitFor(() => expect(received).toEqual([message]));

    const [local, otherLocal] = [track(eventBusFromConfig({})), track(eventBusFromConfig({}))];
    const heard: BusEvent[] = [];
    otherLocal.subscribe(channel, (event) => heard.push(event));
    await local.publish(channel, message);
    expect(heard).toEqual([]);
  });

  it('with Redis unreachable: a publish fails within the command timeout, publishToUser only logs it, close returns', async () => {
    const bus: EventBus = createRedisEventBus('redis://127.0.0.1:1', { prefix, commandTimeoutMs: 300 });
    const started = Date.now();
    const ready = bus.subscribe('user:1', () => {}).ready;
    await expect(bus.publish('user:1', message)).rejects.toThrow();
    await ready;
    const warn = vi.fn();
    await publishToUser({ events: bus, logger: { warn } as unknown as Deps['logger'] }, 1n, message);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ userId: '1', kind: 'message' }), 'realtime: publishing a user event failed');
    await bus.close();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
