import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config/env.ts';

/** What `@fastify/rate-limit` is given for its store, and how to let go of it. */
export interface RateLimitStore {
  options: { redis?: Redis; nameSpace?: string; skipOnError: boolean };
  close: () => Promise<void>;
}

/**
 * Where the per-address HTTP limit (contracts marked `rateLimited`) counts (ADR 0018). With
 * REDIS_URL: in Redis, so every server process counts one address together — the plugin's Redis
 * store counts with one Lua script (INCR, then PEXPIRE on the first request of a window), atomic on
 * the Redis side. Without it: in this process's memory, right for one node only.
 *
 * A Redis that does not answer within half a second lets the request through rather than failing
 * it (`skipOnError`, the outage logged once): this limit only thins out floods; the counters that
 * stop guessing are rows in the database and do not depend on Redis.
 */
export function rateLimitStoreFromConfig(config: Pick<Config, 'REDIS_URL'>, logger: FastifyBaseLogger, prefix = 'keel:rate-limit:'): RateLimitStore {
  if (!config.REDIS_URL) return { options: { skipOnError: false }, close: async () => {} };
  const redis = new Redis(config.REDIS_URL, { connectionName: 'keel-rate-limit', commandTimeout: 500, maxRetriesPerRequest: 1 });
  let failing = false;
  redis.on('error', (error: unknown) => {
    if (failing) return;
    failing = true;
    logger.warn({ err: error }, 'rate limit: Redis connection failed; requests pass unlimited by address until it is back');
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info('rate limit: Redis connection back');
  });
  return {
    options: { redis, nameSpace: prefix, skipOnError: true },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
