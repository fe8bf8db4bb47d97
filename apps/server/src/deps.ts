import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.ts';
import type { MarketPrices } from './market/market-prices.ts';
import type { FileStorage } from './integrations/storage/file-storage.ts';
import type { Db } from './persistence/db.ts';
import type { LedgerBatcher } from './persistence/ledger-batcher.ts';
import type { ChainGateway } from './integrations/chain/chain-gateway.ts';
import type { WalletSettings } from './use-cases/wallet/wallet-settings.ts';
import type { EventBus } from './realtime/event-bus.ts';
import type { SessionCache } from './use-cases/auth/session-cache.ts';

/** What use cases are given: the database, the configuration and the clock (never Date.now()). */
export interface Deps {
  db: Db;
  config: Config;
  now: () => Date;
  logger: FastifyBaseLogger;
  /** Last recorded ticks; the market module keeps them current. */
  market: MarketPrices;
  /** Uploaded files, encrypted at rest. */
  storage: FileStorage;
  /** The Db's group-commit batcher (ADR 0010): concurrent ledger entries share one transaction. */
  ledger: LedgerBatcher;
  /** Channels, deposit address sources, fees and the published withdrawal rules. */
  wallet: WalletSettings;
  /** Checks ETH and ERC20 deposits on chain when ETHEREUM_RPC_URL is set; otherwise staff review them. */
  chain: ChainGateway | undefined;
  /**
   * Per-user realtime events between nodes (in-process, or Redis with REDIS_URL); publish through
   * `publishToUser` after COMMIT. buildApp always sets it; it is optional only so that tests which
   * build Deps by hand without it (ledger-random) keep compiling; publishToUser then does nothing.
   */
  events?: EventBus;
  /**
   * The sessions this node checked in the last second, for reads (issue 15). buildApp always sets
   * it (`SESSION_CACHE_TTL_MS` 0 keeps it empty); without it every call checks the database.
   */
  sessionCache?: SessionCache;
}
