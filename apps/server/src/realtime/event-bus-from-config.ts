import type { Config } from '../config/env.ts';
import { type BusLogger, createLocalEventBus, type EventBus } from './event-bus.ts';
import { createRedisEventBus } from './redis-event-bus.ts';

/** Redis when REDIS_URL is set (several nodes share events), otherwise in-process (one node). */
export function eventBusFromConfig(config: Pick<Config, 'REDIS_URL'>, logger?: BusLogger): EventBus {
  return config.REDIS_URL ? createRedisEventBus(config.REDIS_URL, { logger }) : createLocalEventBus({ logger });
}
