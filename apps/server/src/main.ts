import { buildApp } from './app.ts';
import { storageFromConfig } from './integrations/storage/storage-from-config.ts';
import { ConfigError, loadConfig, type Config } from './config/env.ts';
import { openConfiguredDb } from './persistence/open-db.ts';
import { migrate } from './persistence/migrate.ts';
import { seedDemoData } from './seed/demo.ts';
import { JobRunner } from './jobs/runner.ts';
import { jobHandlers, purgeJobFor } from './jobs/handlers.ts';
import { enqueueJob } from './jobs/runner.ts';
import { createConfiguredFeed } from './integrations/market-feed/create-feed.ts';
import { MarketService } from './market/market.service.ts';
import { DELIVER_NOTIFICATION_JOB, deliverNotificationHandler } from './integrations/notifier/outbox.ts';
import { deliveryProvidersFromConfig } from './integrations/notifier/providers.ts';
import { loadOrCreateDemoDepositKeys } from './integrations/chain/demo-deposit-keys.ts';
import { networksWithoutDepositSource } from './use-cases/wallet/wallet-settings.ts';
import { eventBusFromConfig } from './realtime/event-bus-from-config.ts';
import { announceExpiry } from './use-cases/p2p/order-steps.ts';
import { EARN_PAYOUT_INTERVAL_MS } from './use-cases/earn/pay-interest.ts';
import { LOAN_SWEEP_INTERVAL_MS } from './use-cases/loans/liquidate-loans.ts';
import { FUND_SWEEP_INTERVAL_MS } from './use-cases/fund/fund-jobs.ts';
import { C2C_SWEEP_INTERVAL_MS } from './use-cases/c2c/c2c-matching.ts';
import { PROOF_SNAPSHOT_INTERVAL_MS } from './use-cases/proof/liability-snapshots.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const db = await openConfiguredDb(config);
const applied = await migrate(db);
// Every node tails the recorded ticks; the one holding the feed lease also runs the feed.
const market = new MarketService({
  db,
  symbols: config.MARKET_SYMBOLS,
  feed: createConfiguredFeed(config),
  retentionHours: config.MARKET_TICK_RETENTION_HOURS,
  // Embedded PGlite belongs to this process alone: a lease row left by its previous run is ours.
  takeOverLeaseOnStart: db.kind === 'pglite',
});
const { storage, keyWasGenerated } = await storageFromConfig(config);
// A demo deployment gets deposit keys nobody holds for networks the operator configured none for
// (in production only one that declares itself a demo, KEEL_DEMO; ADR 0041).
const demoDepositKeys =
  config.SEED_DEMO && (config.NODE_ENV !== 'production' || config.KEEL_DEMO)
    ? loadOrCreateDemoDepositKeys(config.DATA_DIR, networksWithoutDepositSource(config))
    : {};
// One bus for the app and the job runner, so events of jobs (an order expiring) reach users too.
const events = eventBusFromConfig(config);
const app = await buildApp({
  config,
  db,
  market,
  storage,
  demoDepositKeys,
  events,
  chainWatchIntervalMs: config.CHAIN_CHECK_INTERVAL_MS,
  optionsSettleIntervalMs: config.OPTIONS_SETTLE_INTERVAL_MS,
  leverageEngineIntervalMs: config.LEVERAGE_ENGINE_INTERVAL_MS,
  earnPayoutIntervalMs: EARN_PAYOUT_INTERVAL_MS,
  loanSweepIntervalMs: LOAN_SWEEP_INTERVAL_MS,
  fundSweepIntervalMs: FUND_SWEEP_INTERVAL_MS,
  c2cSweepIntervalMs: C2C_SWEEP_INTERVAL_MS,
  proofSnapshotIntervalMs: PROOF_SNAPSHOT_INTERVAL_MS,
  inviteRewardIntervalMs: config.INVITE_REWARD_INTERVAL_MS,
  vipLevelIntervalMs: config.VIP_LEVEL_INTERVAL_MS,
});
if (keyWasGenerated) {
  app.log.warn(`generated an upload encryption key in ${config.DATA_DIR}; set UPLOAD_ENCRYPTION_KEY on any shared or production deployment`);
}
if (applied.length > 0) app.log.info({ applied }, 'migrations applied');

if (config.SEED_DEMO) {
  const seeded = await seedDemoData(db, new Date(), config.STAFF_ONE_TIME_PASSWORD_TTL_HOURS);
  // Printed once, on the run that created them; only their hashes are stored. The staff password
  // is a one-time password: the first login sets an own password and enrols an authenticator.
  // Production never prints a staff password to its log (ADR 0041): only a declared demo seeds
  // there (KEEL_DEMO; the configuration refuses anything else), and its operator asks for the
  // password on their own terminal.
  if (seeded.staff && config.NODE_ENV === 'production') {
    console.log(
      `\nFirst staff account created: ${seeded.staff.username}; its password is not printed in production.` +
        `\n  A one-time password on your terminal: npm run staff:reset -- ${seeded.staff.username}`,
    );
  } else if (seeded.staff) {
    console.log(
      `\nFirst staff account (shown once): ${seeded.staff.username} / ${seeded.staff.password}` +
        `\n  a one-time password, valid until ${seeded.staff.expiresAt.toISOString()}: at first login set your own password and enrol an authenticator app` +
        `\n  (a new one: npm run staff:reset -- ${seeded.staff.username})`,
    );
  }
  if (seeded.demoUser) console.log(`Demo user (shown once): ${seeded.demoUser.username} / ${seeded.demoUser.password}\n`);
}

const handlers = { ...jobHandlers, [DELIVER_NOTIFICATION_JOB]: deliverNotificationHandler(deliveryProvidersFromConfig(config)) };
const runner = new JobRunner({
  db,
  handlers,
  logger: app.log,
  pollIntervalMs: config.JOB_POLL_INTERVAL_MS,
  afterCommit: (job) => announceExpiry({ db, events, logger: app.log }, job),
});
await enqueueJob(db, purgeJobFor(new Date()));
runner.start();
await market.start(app.log);

await app.listen({ host: config.HOST, port: config.PORT });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
console.log(`Keel is running on ${db.kind === 'pglite' ? `embedded PGlite (${config.DATA_DIR})` : 'PostgreSQL'}:
  user app      http://${shown}:${port}/
  back-office   http://${shown}:${port}/admin
  API reference http://${shown}:${port}/docs  (OpenAPI: /openapi.json)
  health        http://${shown}:${port}/healthz`);
if (config.KEEL_DEMO) console.log('  a demo deployment (KEEL_DEMO=true): every page says "Demo: not real money"');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  await runner.stop();
  await app.close();
  await market.stop();
  await events.close();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
