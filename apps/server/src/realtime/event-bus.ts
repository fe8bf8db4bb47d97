import { type UserEvent, userEventSchema } from '@keel/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

/**
 * Between nodes only, never sent to a client: sessions of the user ended (logout, a session ended
 * from the sessions page, a password change or recovery) or the user may no longer use them
 * (suspended, banned). It names no session: each node's gateway checks the sessions of the user's
 * sockets against the database and ends the user stream of those that are over (ADR 0023).
 */
export const sessionsEndedEventSchema = z.object({ kind: z.literal('sessions.ended') });

/**
 * Between nodes only, on `SESSION_CACHE_CHANNEL`: drop the user's sessions from the session cache
 * (its sessions ended, or the user's row changed; issue 15).
 */
export const userChangedEventSchema = z.object({ kind: z.literal('user.changed'), userId: z.string().regex(/^[1-9][0-9]{0,18}$/) });

/** The channel every node listens on for `user.changed`. */
export const SESSION_CACHE_CHANNEL = 'session-cache';

/**
 * Between nodes only, on `MARKET_TICKS_CHANNEL`: the recording node recorded ticks; each node reads
 * them from the database at once instead of at its next timed read (issue 15). It carries no
 * price: prices reach clients only from the recorded table.
 */
export const ticksRecordedEventSchema = z.object({ kind: z.literal('ticks.recorded') });

/** The channel every node with a market listens on for `ticks.recorded`. */
export const MARKET_TICKS_CHANNEL = 'market-ticks';

/** What travels on the bus: the user's events for the client, and the nodes' own. */
export const busEventSchema = z.union([userEventSchema, sessionsEndedEventSchema, userChangedEventSchema, ticksRecordedEventSchema]);
export type BusEvent =
  | UserEvent
  | z.infer<typeof sessionsEndedEventSchema>
  | z.infer<typeof userChangedEventSchema>
  | z.infer<typeof ticksRecordedEventSchema>;

export type BusLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

const silentLogger: BusLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** What `subscribe` returns: call it to stop listening. */
export type Unsubscribe = (() => void) & {
  /**
   * Settles once events published anywhere from then on reach the listener (on Redis: the
   * SUBSCRIBE is acknowledged). Never rejects: a subscription that could not be confirmed in time
   * is logged and stays asked for (ioredis subscribes again when it reconnects).
   */
  readonly ready: Promise<void>;
};

/**
 * Realtime events between the nodes of one deployment (pub/sub, at most once, no history). The
 * database is the truth; an event only tells a connected client to refetch, so a lost event costs
 * a stale screen until the next refetch, never a wrong balance.
 */
export interface EventBus {
  /** Checks the event against the contract and sends it to every listener of `channel` on every node. */
  publish(channel: string, event: BusEvent): Promise<void>;
  /** Listens on `channel`; the listener gets events checked against the contract. */
  subscribe(channel: string, listener: (event: BusEvent) => void): Unsubscribe;
  /** Drops every listener and, for Redis, closes both connections. */
  close(): Promise<void>;
}

/** The bus channel of one user's events. */
export function userChannel(userId: bigint | string): string {
  return `user:${userId}`;
}

/**
 * Listeners by channel, shared by both buses. A listener that throws is logged; the others still
 * get the event.
 */
export class ListenerSet {
  private readonly byChannel = new Map<string, Set<(event: BusEvent) => void>>();

  constructor(private readonly logger: BusLogger) {}

  /** Adds a listener; true when it is the channel's first. */
  add(channel: string, listener: (event: BusEvent) => void): boolean {
    let listeners = this.byChannel.get(channel);
    const first = listeners === undefined;
    if (!listeners) {
      listeners = new Set();
      this.byChannel.set(channel, listeners);
    }
    listeners.add(listener);
    return first;
  }

  /** Removes a listener; true when it was the channel's last. */
  remove(channel: string, listener: (event: BusEvent) => void): boolean {
    const listeners = this.byChannel.get(channel);
    if (!listeners?.delete(listener)) return false;
    if (listeners.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.byChannel.has(channel);
  }

  deliver(channel: string, event: BusEvent): void {
    for (const listener of [...(this.byChannel.get(channel) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error, channel }, 'event bus: listener failed');
      }
    }
  }

  clear(): void {
    this.byChannel.clear();
  }
}

/** The bus of a single node: publish reaches this process's listeners, synchronously. */
export function createLocalEventBus(options: { logger?: BusLogger } = {}): EventBus {
  const listeners = new ListenerSet(options.logger ?? silentLogger);
  let closed = false;
  return {
    async publish(channel, event) {
      if (closed) throw new Error('event bus closed');
      // The same check as the Redis bus makes on receipt, so a producer's mistake shows on one node too.
      listeners.deliver(channel, busEventSchema.parse(event));
    },
    subscribe(channel, listener) {
      if (!closed) listeners.add(channel, listener);
      return Object.assign(() => void listeners.remove(channel, listener), { ready: Promise.resolve() });
    },
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}
