import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { AppError, errorCatalogue } from '@keel/contracts';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import helmet from 'helmet';
import type { Config } from './config/env.ts';
import type { Deps } from './deps.ts';
import { type MarketPrices, noMarketPrices } from './market/market-prices.ts';
import { isTickStream, MarketService } from './market/market.service.ts';
import { type GatewayOptions, noTickStream, registerMarketGateway } from './ws/gateway.ts';
import { type EventBus, MARKET_TICKS_CHANNEL, SESSION_CACHE_CHANNEL } from './realtime/event-bus.ts';
import { eventBusFromConfig } from './realtime/event-bus-from-config.ts';
import { SessionCache } from './use-cases/auth/session-cache.ts';
import type { FileStorage } from './integrations/storage/file-storage.ts';
import { storageFromConfig } from './integrations/storage/storage-from-config.ts';
import type { Db } from './persistence/db.ts';
import { ledgerBatcherFor } from './persistence/ledger-batcher.ts';
import { rateLimitStoreFromConfig } from './http/rate-limit-store.ts';
import { buildOpenApiDocument, renderApiReference } from './http/openapi.ts';
import { optionsAdminRoutes, optionsRoutes } from './http/routes/options.routes.ts';
import { startOptionsSettler } from './use-cases/options/settle-option-orders.ts';
import { leverageAdminRoutes, leverageRoutes } from './http/routes/leverage.routes.ts';
import { earnAdminRoutes, earnRoutes } from './http/routes/earn.routes.ts';
import { startEarnPayouts } from './use-cases/earn/pay-interest.ts';
import { loanReviewRoutes, loanRoutes } from './http/routes/loans.routes.ts';
import { loanProductRoutes } from './http/routes/loan-products.routes.ts';
import { fundReviewRoutes, fundRoutes } from './http/routes/fund.routes.ts';
import { correctionRoutes } from './http/routes/corrections.routes.ts';
import { proofRoutes } from './http/routes/proof.routes.ts';
import { invitationRoutes } from './http/routes/invitations.routes.ts';
import { startInviteRewards } from './use-cases/invitations/invite-rewards.ts';
import { startLiabilitySnapshots } from './use-cases/proof/liability-snapshots.ts';
import { startFundSweeps } from './use-cases/fund/fund-jobs.ts';
import { startC2cSweeps } from './use-cases/c2c/c2c-matching.ts';
import { c2cAdminRoutes, c2cRoutes } from './http/routes/c2c.routes.ts';
import { contentRoutes, contentStaffRoutes } from './http/routes/content.routes.ts';
import { startLoanSweeps } from './use-cases/loans/liquidate-loans.ts';
import { startTriggerEngine } from './use-cases/leverage/trigger-engine.ts';
import { POSITION_CHARGES_INTERVAL_MS, startPositionCharges } from './use-cases/leverage/charge-positions.ts';
import { registerRoute, type RouteHandler, type RouteHooks } from './http/route.ts';
import { adminRoutes } from './http/routes/admin.routes.ts';
import { staffRoutes } from './http/routes/staff.routes.ts';
import { assetsRoutes } from './http/routes/assets.routes.ts';
import { authRoutes } from './http/routes/auth.routes.ts';
import { marketRoutes } from './http/routes/market.routes.ts';
import { swapRoutes } from './http/routes/swap.routes.ts';
import { securityRoutes } from './http/routes/security.routes.ts';
import { userRoutes } from './http/routes/user.routes.ts';
import { verificationRoutes } from './http/routes/verification.routes.ts';
import { vipRoutes } from './http/routes/vip.routes.ts';
import { walletConnectRoutes } from './http/routes/wallet-connect.routes.ts';
import { startVipLevelJob } from './use-cases/vip/vip-levels.ts';
import { walletAdminRoutes, walletRoutes } from './http/routes/wallet.routes.ts';
import { p2pAdminRoutes, p2pRoutes } from './http/routes/p2p.routes.ts';
import type { ChainGateway } from './integrations/chain/chain-gateway.ts';
import { createEthereumGateway } from './integrations/chain/ethereum-gateway.ts';
import { walletSettingsFrom } from './use-cases/wallet/wallet-settings.ts';
import { startChainDepositWatch } from './use-cases/wallet/check-chain-deposits.ts';
import type { WalletNetwork } from '@keel/domain';

export const allRoutes: readonly RouteHandler[] = [
  ...authRoutes,
  ...userRoutes,
  ...securityRoutes,
  ...verificationRoutes,
  ...vipRoutes,
  ...walletConnectRoutes,
  ...adminRoutes,
  ...staffRoutes,
  ...assetsRoutes,
  ...marketRoutes,
  ...swapRoutes,
  ...walletRoutes,
  ...walletAdminRoutes,
  ...p2pRoutes,
  ...p2pAdminRoutes,
  ...optionsRoutes,
  ...optionsAdminRoutes,
  ...leverageRoutes,
  ...leverageAdminRoutes,
  ...earnRoutes,
  ...earnAdminRoutes,
  ...loanRoutes,
  ...loanReviewRoutes,
  ...loanProductRoutes,
  ...fundRoutes,
  ...fundReviewRoutes,
  ...c2cRoutes,
  ...c2cAdminRoutes,
  ...correctionRoutes,
  ...proofRoutes,
  ...invitationRoutes,
  ...contentRoutes,
  ...contentStaffRoutes,
] as RouteHandler[];

/** A year, never revalidated: for files whose name changes whenever their content does. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True for a built file under `_app/` of one of the apps (Vite names them by content hash). */
function isHashedAppFile(filePath: string, distRoots: readonly string[]): boolean {
  return distRoots.some((root) => relative(root, filePath).startsWith(`_app${sep}`));
}

function sendError(reply: FastifyReply, error: AppError) {
  const retryAfterSeconds = (error.data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  if (error.status === 429 && typeof retryAfterSeconds === 'number') reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(error.status).send({ code: error.status, msg: error.message, data: error.data });
}

export interface BuildAppOptions {
  config: Config;
  db: Db;
  now?: () => Date;
  /** Where prices come from; without it the app serves no prices (PRICE_UNAVAILABLE). */
  market?: MarketPrices;
  /** Limits of /ws, for tests that need small ones. */
  ws?: Partial<GatewayOptions>;
  /**
   * The per-user event bus; without it, the one the configuration describes (Redis with
   * REDIS_URL, else in-process), which the app closes when it closes. A bus passed in is the
   * caller's to close.
   */
  events?: EventBus;
  /** Where uploads go; without it, the encrypted folder store the configuration describes. */
  storage?: FileStorage;
  /** The on-chain deposit check; without it, one over ETHEREUM_RPC_URL when that is set. */
  chain?: ChainGateway;
  /** Demo deposit keys (main.ts makes them for a demo deployment) for networks the configuration gives no source. */
  demoDepositKeys?: Partial<Record<WalletNetwork, string>>;
  /** Run the on-chain deposit check every this many ms while the app is open (needs a chain gateway). */
  chainWatchIntervalMs?: number;
  /** Run the contract settler every this many ms while the app is open (main.ts: OPTIONS_SETTLE_INTERVAL_MS; tests settle by hand). */
  optionsSettleIntervalMs?: number;
  /**
   * Run the leverage trigger engine while the app is open: a pass whenever this node takes in new
   * recorded ticks and every this many ms (main.ts: LEVERAGE_ENGINE_INTERVAL_MS; tests run passes by hand).
   */
  leverageEngineIntervalMs?: number;
  /** Run the earn payout job (daily interest and maturities) every this many ms while the app is open (main.ts: EARN_PAYOUT_INTERVAL_MS; tests pay by hand). */
  earnPayoutIntervalMs?: number;
  /** Run the loan job (due-date and ratio liquidations, margin calls) every this many ms while the app is open (main.ts: LOAN_SWEEP_INTERVAL_MS; tests sweep by hand). */
  loanSweepIntervalMs?: number;
  /** Run the fund job (refunds at a window's end, tranche releases, settlement at term) every this many ms while the app is open (main.ts: FUND_SWEEP_INTERVAL_MS; tests sweep by hand). */
  fundSweepIntervalMs?: number;
  /** Run the C2C job (offers to merchants, lapses, the match, payment and confirmation deadlines) every this many ms while the app is open (main.ts: C2C_SWEEP_INTERVAL_MS; tests sweep by hand). */
  c2cSweepIntervalMs?: number;
  /** Run the invitation reward job (each complete UTC day's fee share per invitee) every this many ms while the app is open (main.ts: INVITE_REWARD_INTERVAL_MS; tests credit by hand). */
  inviteRewardIntervalMs?: number;
  /** How often every node looks for a proof-of-liabilities snapshot to take (the daily one, or one an admin asked for). */
  proofSnapshotIntervalMs?: number;
  /** The VIP daily level job's look interval (ADR 0046); off when absent. */
  vipLevelIntervalMs?: number;
  logger?: FastifyServerOptions['logger'];
  /**
   * The Redis key prefix of the per-address HTTP limit when REDIS_URL is set (default
   * `keel:rate-limit:`); tests give their own so runs sharing a Redis do not count each other.
   */
  rateLimitRedisPrefix?: string;
  /** Test hook: extra routes (e.g. one that throws) registered like any other. */
  extraRoutes?: (app: FastifyInstance) => void;
  /**
   * Test seam (crash-idempotency test, ADR 0019): called after an idempotent request's effect
   * committed; throwing `SimulatedCrash` loses its answer as a dead process would. Never set in production.
   */
  afterHandlerCommitted?: RouteHooks['afterHandlerCommitted'];
}

/**
 * One log line per request, written when its answer has gone: what was asked, the status and how
 * long it took (under the request's id, as every line of the request). Fastify's own controller
 * writes two, "incoming request" and "request completed", the first saying nothing the second does
 * not (issue 15: 5.8 % of a read's time). A request whose answer failed to go out is still an error line.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTimeMs: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL },
    logController: new OneLinePerRequest(),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // A path the router cannot read (broken percent-encoding, a parameter longer than it takes) is
    // the client's input: "parameter error" in the envelope, not Fastify's own answer (issue 13).
    frameworkErrors: (_error, _request, reply) =>
      sendError(reply, new AppError('PARAMETER_ERROR', { fields: [{ field: 'params', message: 'unreadable path' }] })),
  });
  const storage = options.storage ?? (await storageFromConfig(config)).storage;
  const chain = options.chain ?? (config.ETHEREUM_RPC_URL ? createEthereumGateway({ rpcUrl: config.ETHEREUM_RPC_URL }) : undefined);
  const events = options.events ?? eventBusFromConfig(config, app.log);
  if (!options.events) app.addHook('onClose', () => events.close());
  // Reads reuse a session checked in the last second; every node forgets a user's sessions when
  // told over the bus (issue 15; use-cases/auth/session-cache.ts).
  const sessionCache = new SessionCache({ ttlMs: config.SESSION_CACHE_TTL_MS });
  const stopForgetting = events.subscribe(SESSION_CACHE_CHANNEL, (event) => {
    if (event.kind === 'user.changed') sessionCache.forgetUser(event.userId);
  });
  app.addHook('onClose', async () => stopForgetting());
  // A node that records ticks tells the others at once, and every node reads them when told
  // (issue 15): a tick reaches the clients of every node without waiting for a timed read.
  if (options.market instanceof MarketService) {
    const market = options.market;
    const stopAnnouncing = market.onRecorded(() => {
      events.publish(MARKET_TICKS_CHANNEL, { kind: 'ticks.recorded' }).catch((error: unknown) => {
        app.log.warn({ err: error }, 'market: telling the nodes of recorded ticks failed (they read them at their next timed read)');
      });
    });
    const stopListening = events.subscribe(MARKET_TICKS_CHANNEL, () => market.syncSoon());
    app.addHook('onClose', async () => {
      stopAnnouncing();
      stopListening();
    });
  }
  const deps: Deps = {
    db,
    sessionCache,
    config,
    now: options.now ?? (() => new Date()),
    logger: app.log,
    market: options.market ?? noMarketPrices,
    storage,
    ledger: ledgerBatcherFor(db),
    wallet: walletSettingsFrom(config, { chainGateway: chain !== undefined, demoKeys: options.demoDepositKeys }),
    chain,
    events,
  };

  app.addHook('onRequest', async (request, reply) => {
    // The id a user can quote to support; the same id is on every log line of the request.
    reply.header('x-request-id', request.id);
  });

  // helmet's security headers on every answer, its middleware built once: @fastify/helmet built it
  // again for every request (parsing the CSP each time; issue 15's profile of the balance read).
  const setSecurityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, next) => {
    setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => next(error instanceof Error ? error : undefined));
  });
  await app.register(cors, { origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false });
  // API answers (JSON, the API reference) over 1 KiB go out brotli- or gzip-compressed; the built
  // apps' files are compressed at build time instead (preCompressed below). Safe against BREACH
  // because no credential is ever ambient: the session is a Bearer token the app's own script
  // adds, so another site cannot make a browser send a request whose answer holds a secret next
  // to text it chose (ADR 0025 — a cookie session would reopen this). Request bodies are never
  // inflated: a compressed body stays refused.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
  // Counted in Redis with REDIS_URL, so several server processes share one count per address (ADR 0018).
  const rateLimitStore = rateLimitStoreFromConfig(config, app.log, options.rateLimitRedisPrefix);
  app.addHook('onClose', () => rateLimitStore.close());
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStore.options,
    errorResponseBuilder: (_request, context) =>
      new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error);
    const fastifyError = error as { code?: string; statusCode?: number };
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, new AppError('PAYLOAD_TOO_LARGE'));
    if (fastifyError.statusCode === 429) return sendError(reply, new AppError('TOO_MANY_REQUESTS'));
    if (fastifyError.statusCode === 404 || fastifyError.statusCode === 403) return sendError(reply, new AppError('NOT_FOUND'));
    if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      // Unparseable JSON, a wrong content type and the like: the client's input, not our failure.
      return sendError(reply, new AppError('PARAMETER_ERROR', { fields: [{ field: 'body', message: 'unreadable request body' }] }));
    }
    // Details (stack, SQL) go to the log under the request id, never to the client.
    request.log.error({ err: error }, 'unexpected failure');
    return sendError(reply, new AppError('SYSTEM_ERROR', { requestId: request.id }));
  });

  // File uploads arrive as raw bytes; only contracts with `binaryBody` accept them.
  app.addContentTypeParser(/^(application\/octet-stream|image\/[a-z.+-]+)$/, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  for (const route of allRoutes) registerRoute(app, deps, route, { afterHandlerCommitted: options.afterHandlerCommitted });
  if (chain && options.chainWatchIntervalMs) {
    const watch = startChainDepositWatch(deps, chain, options.chainWatchIntervalMs);
    app.addHook('onClose', () => watch.stop());
  }
  if (options.optionsSettleIntervalMs) {
    const settler = startOptionsSettler(deps, options.optionsSettleIntervalMs);
    app.addHook('onClose', () => settler.stop());
  }
  if (options.earnPayoutIntervalMs) {
    const payouts = startEarnPayouts(deps, options.earnPayoutIntervalMs);
    app.addHook('onClose', () => payouts.stop());
  }
  if (options.loanSweepIntervalMs) {
    const sweeps = startLoanSweeps(deps, options.loanSweepIntervalMs);
    app.addHook('onClose', () => sweeps.stop());
  }
  if (options.fundSweepIntervalMs) {
    const sweeps = startFundSweeps(deps, options.fundSweepIntervalMs);
    app.addHook('onClose', () => sweeps.stop());
  }
  if (options.c2cSweepIntervalMs) {
    const sweeps = startC2cSweeps(deps, options.c2cSweepIntervalMs);
    app.addHook('onClose', () => sweeps.stop());
  }
  if (options.inviteRewardIntervalMs) {
    const rewards = startInviteRewards(deps, options.inviteRewardIntervalMs);
    app.addHook('onClose', () => rewards.stop());
  }
  if (options.vipLevelIntervalMs) {
    const levels = startVipLevelJob(deps, options.vipLevelIntervalMs);
    app.addHook('onClose', () => levels.stop());
  }
  if (options.proofSnapshotIntervalMs) {
    const snapshots = startLiabilitySnapshots(deps, options.proofSnapshotIntervalMs);
    app.addHook('onClose', () => snapshots.stop());
  }
  if (options.leverageEngineIntervalMs) {
    const engine = startTriggerEngine(deps, options.leverageEngineIntervalMs);
    const stopWaking = options.market instanceof MarketService ? options.market.onTicks(() => engine.wake()) : () => {};
    // Funding and interest are hours apart; a look every half minute finds what fell due.
    const charges = startPositionCharges(deps, POSITION_CHARGES_INTERVAL_MS);
    app.addHook('onClose', async () => {
      stopWaking();
      await engine.stop();
      await charges.stop();
    });
  }
  // The push connection /ws. It opens on every app, with or without a MarketService: a user's
  // events must not depend on whether the process was built with a market (main.ts always passes
  // one; tests and tools often do not). Without one, the market channels are there but never
  // tick (the stream's last id is 0, so a resume replays nothing), which is what such a node has.
  await registerMarketGateway(app, deps, options.market && isTickStream(options.market) ? options.market : noTickStream, options.ws);
  options.extraRoutes?.(app);

  // Built on the first request for them, not at start-up (issue 15: a tenth of a second of it).
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
  let apiReference: string | undefined;
  app.get('/openapi.json', async () => {
    openApiDocument ??= buildOpenApiDocument();
    return openApiDocument;
  });
  app.get('/docs', async (_request, reply) => {
    apiReference ??= renderApiReference();
    return reply.type('text/html; charset=utf-8').send(apiReference);
  });
  app.get('/healthz', async (_request, reply) => {
    try {
      await db.query('SELECT 1');
      return reply.send({ code: 200, msg: 'success', data: { status: 'ok', database: db.kind } });
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ code: 503, msg: errorCatalogue.SYSTEM_ERROR.msg, data: { status: 'down', database: db.kind } });
    }
  });

  // The two single-page apps. Any GET that is not an API call or a file gets the app's index.html,
  // so every client route of spec section 2 is a working deep link.
  const webDist = resolve(config.WEB_DIST_DIR);
  const adminDist = resolve(config.ADMIN_DIST_DIR);
  const hasWeb = existsSync(`${webDist}/index.html`);
  const hasAdmin = existsSync(`${adminDist}/index.html`);
  // Each file goes out as its build-time `.br` or `.gz` twin when the browser accepts one (with
  // Content-Encoding and Vary: Accept-Encoding). Files under _app/ carry a content hash in their
  // name, so they never change: cached for a year. Everything else (index.html, also as the SPA
  // fallback below, which goes through the same sendFile) is revalidated on every use by its
  // ETag / Last-Modified (ADR 0025).
  const setCacheHeaders = (reply: FastifyReply, filePath: string) => {
    reply.header('cache-control', isHashedAppFile(filePath, [webDist, adminDist]) ? IMMUTABLE : 'no-cache');
  };
  // `dist/.vite/` holds the build manifest (for bench/bundle.bench.ts), nothing a browser needs.
  const staticOptions = { preCompressed: true, index: 'index.html', dotfiles: 'ignore', setHeaders: setCacheHeaders } as const;
  if (hasWeb) await app.register(fastifyStatic, { ...staticOptions, root: webDist, prefix: '/', wildcard: true });
  if (hasAdmin) {
    await app.register(fastifyStatic, { ...staticOptions, root: adminDist, prefix: '/admin/', decorateReply: !hasWeb });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/home/') && !/\.[a-z0-9]+$/i.test(path);
    if (isPage && hasAdmin && (path === '/admin' || path.startsWith('/admin/'))) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html', adminDist);
    }
    if (isPage && hasWeb && !path.startsWith('/admin')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html', webDist);
    }
    return sendError(reply, new AppError('NOT_FOUND'));
  });

  return app;
}
