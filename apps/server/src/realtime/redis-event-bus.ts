import { Redis } from 'ioredis';
import { type BusEvent, type BusLogger, busEventSchema, type EventBus, ListenerSet } from './event-bus.ts';

export interface RedisEventBusOptions {
  /**
   * Put before every channel name on Redis (default `keel:`), so deployments or test runs that
   * share one Redis do not hear each other.
   */
  prefix?: string;
  logger?: BusLogger;
  /**
   * A command Redis has not answered within this long gives up: a publish fails (the caller logs
   * it) and a subscribe stops being waited for. Keeps a Redis outage from holding up requests.
   */
  commandTimeoutMs?: number;
}

/** Events are a few ids; anything this large on our channel is not ours. */
const MAX_MESSAGE_CHARS = 16 * 1024;

const silentLogger: BusLogger = { info: () => {}, warn: () => {}, error: () => {} };

function decode(text: string): BusEvent | undefined {
  if (text.length > MAX_MESSAGE_CHARS) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = busEventSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The bus across nodes, over Redis pub/sub: one connection publishes, one listens. A node
 * subscribes to a Redis channel when its first local listener of that channel arrives and
 * unsubscribes when the last one leaves, so a node hears only the users connected to it. Payloads
 * are the event as JSON, checked against the contract when sent and again when received: a
 * message that fails the check is logged and dropped. Reconnecting (and subscribing again after
 * a reconnect) is ioredis's; events published while a node was cut off from Redis are lost, which
 * the protocol allows (events are nudges, the database is the truth).
 */
export function createRedisEventBus(url: string, options: RedisEventBusOptions = {}): EventBus {
  const prefix = options.prefix ?? 'keel:';
  const logger = options.logger ?? silentLogger;
  const commandTimeout = options.commandTimeoutMs ?? 2_000;
  const publisher = new Redis(url, { commandTimeout, connectionName: 'keel-events-publish' });
  const subscriber = new Redis(url, { commandTimeout, connectionName: 'keel-events-subscribe' });
  const listeners = new ListenerSet(logger);
  /** The SUBSCRIBE of each channel this node listens on, for later listeners to wait on too. */
  const subscribed = new Map<string, Promise<void>>();
  let closed = false;

  for (const [connection, role] of [
    [publisher, 'publish'],
    [subscriber, 'subscribe'],
  ] as const) {
    // One line per outage, not one per reconnect attempt.
    let failing = false;
    connection.on('error', (error: unknown) => {
      if (failing || closed) return;
      failing = true;
      logger.warn({ err: error, role }, 'event bus: Redis connection failed; reconnecting (events meanwhile are lost)');
    });
    connection.on('ready', () => {
      if (!failing) return;
      failing = false;
      logger.info({ role }, 'event bus: Redis connection back');
    });
  }

  subscriber.on('message', (redisChannel: string, text: string) => {
    if (!redisChannel.startsWith(prefix)) return;
    const channel = redisChannel.slice(prefix.length);
    if (!listeners.has(channel)) return;
    const event = decode(text);
    if (!event) {
      logger.warn({ channel, chars: text.length }, 'event bus: malformed message dropped');
      return;
    }
    listeners.deliver(channel, event);
  });

  return {
    async publish(channel, event) {
      if (closed) throw new Error('event bus closed');
      await publisher.publish(prefix + channel, JSON.stringify(busEventSchema.parse(event)));
    },

    subscribe(channel, listener) {
      if (closed) return Object.assign(() => {}, { ready: Promise.resolve() });
      if (listeners.add(channel, listener)) {
        subscribed.set(
          channel,
          subscriber.subscribe(prefix + channel).then(
            () => undefined,
            (error: unknown) => logger.warn({ err: error, channel }, 'event bus: subscribe not confirmed; ioredis keeps it asked for'),
          ),
        );
      }
      const ready = subscribed.get(channel) ?? Promise.resolve();
      let done = false;
      const unsubscribe = () => {
        if (done) return;
        done = true;
        if (!listeners.remove(channel, listener) || closed) return;
        subscribed.delete(channel);
        // Sent on the same connection after the SUBSCRIBE, so a quick subscribe-unsubscribe-subscribe stays in order.
        subscriber.unsubscribe(prefix + channel).catch((error: unknown) => logger.warn({ err: error, channel }, 'event bus: unsubscribe failed'));
      };
      return Object.assign(unsubscribe, { ready });
    },

    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      subscribed.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      // A QUIT that could not be sent (Redis unreachable) must not leave ioredis reconnecting.
      for (const connection of [publisher, subscriber]) if (connection.status !== 'end') connection.disconnect();
    },
  };
}
