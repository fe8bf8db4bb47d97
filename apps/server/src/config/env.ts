import { type LocaleCode, localeCodes, walletChannelIds } from '@keel/contracts';
import {
  checkAddress,
  checkExtendedPublicKey,
  DEFAULT_OPTION_PRODUCTS_TEXT,
  DEFAULT_VIP_LEVELS_TEXT,
  defaultSimulatedMarkets,
  OptionProductsError,
  parseOptionProducts,
  parseVipLevels,
  simulatedMarket,
  VipLevelsError,
  type WalletNetwork,
} from '@keel/domain';
import { z } from 'zod';
import { WalletConfigError, walletSettingsFrom } from '../use-cases/wallet/wallet-settings.ts';

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A decimal amount as text (money is never a float); its scale is checked against the asset later. */
const decimalText = z.string().regex(/^\d{1,20}(\.\d{1,18})?$/, 'a decimal amount such as 1.5');

/** A BIP32 extended public key; an extended private key is refused: no private key on the server. */
const extendedPublicKey = z
  .string()
  .trim()
  .refine((text) => checkExtendedPublicKey(text), 'must be an extended PUBLIC key (xpub…); never configure a private key');

function addressList(network: WalletNetwork) {
  return z
    .string()
    .transform((text) => text.split(',').map((address) => address.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.string())
        .min(1)
        .max(100_000)
        .superRefine((addresses, context) => {
          for (const address of addresses) {
            const checked = checkAddress(network, address);
            if (!checked.ok) context.addIssue({ code: 'custom', message: `${address} is not a ${network} address (${checked.problem})` });
          }
        })
        .transform((addresses) => addresses.map((address) => (checkAddress(network, address) as { address: string }).address)),
    );
}

/**
 * A setting written as text that a domain parser reads (products, the VIP table): the parser's own
 * error becomes the start-up problem, with its reason; any other error is a bug and is thrown.
 */
function parsedText<T>(fallback: string, parse: (text: string) => T, problem: new (message: string) => Error) {
  return z
    .string()
    .default(fallback)
    .transform((text, context) => {
      try {
        return parse(text);
      } catch (error) {
        if (!(error instanceof problem)) throw error;
        context.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    });
}

/**
 * Every setting of the server, read once from the environment at start-up. `.env.example` lists
 * them all; a bad value stops start-up with one line per problem.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  /** Folder for the embedded database (and later uploads); ignored for the database when DATABASE_URL is set. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** postgres://... to use a PostgreSQL server instead of embedded PGlite. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * The embedded database's page cache (PostgreSQL's shared_buffers) in MB. It lives in PGlite's
   * WebAssembly memory, which never shrinks; a page not in it is read from the data folder through
   * the operating system's file cache, so a small one costs a system call, not a disk read
   * (issue 15: 128 MB, PostgreSQL's default, made the process 400+ MB). Ignored with DATABASE_URL.
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(4096).default(32), // = DEFAULT_PGLITE_SHARED_BUFFERS_MB (db.ts)
  /**
   * redis:// or rediss:// URL of the Redis that carries user events (/ws) between nodes and counts
   * the per-address rate limit for all of them. Without it both stay in this process: right for one
   * node, wrong for several behind a load balancer.
   */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the floating customer-service button sends the user. */
  SERVICE_URL: z.url({ protocol: /^(https?|mailto)$/ }).default('https://support.keel.example/'),
  /**
   * The customer-service address per language (issue 20), where a team answers in that language:
   * `de=https://…,ar=mailto:…`. A language without one gets SERVICE_URL.
   */
  SERVICE_URL_BY_LANGUAGE: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const byLanguage: Partial<Record<LocaleCode, string>> = {};
      for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
        const at = pair.indexOf('=');
        const language = pair.slice(0, at) as LocaleCode;
        const url = pair.slice(at + 1);
        if (at < 1 || !(localeCodes as readonly string[]).includes(language) || !z.url({ protocol: /^(https?|mailto)$/ }).safeParse(url).success) {
          ctx.addIssue({ code: 'custom', message: `"${pair}" is not <language>=<https, http or mailto URL> with one of ${localeCodes.join(' ')}` });
          return z.NEVER;
        }
        byLanguage[language] = url;
      }
      return byLanguage;
    }),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 7),
  /**
   * How long a node reuses a user session it checked, for reads only (issue 15): at most a second,
   * so a session ended or a user suspended on any node is refused everywhere within it. 0: every
   * call checks the database (the tests' setting, whose checks change the database under the app).
   */
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  STAFF_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(72).default(8),
  /** Hours a staff one-time password (issued on creation or reset) works; published in the API docs (ADR 0020). */
  STAFF_ONE_TIME_PASSWORD_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 14).default(72),
  /** Comma-separated origins allowed to call the API and open /ws from another site; empty = same origin only. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((origin) => origin.trim()).filter(Boolean)),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(1024 * 1024),
  /** Requests per minute per client address on each login and registration route. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Operator switch: registration needs an existing user's invite code. */
  INVITE_CODE_REQUIRED: booleanText.default(false),
  /**
   * Invitation rewards (issue 20, ADR 0045), published on /trade/sgrinvite: the inviter receives
   * this share (whole percent, 0 to 50) of the trading fees each person they invited pays, for this
   * many days after that person registered. Copied onto each invitation at registration.
   */
  INVITE_REWARD_SHARE_PERCENT: z.coerce.number().int().min(0).max(50).default(20),
  INVITE_REWARD_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** How often each node looks for complete UTC days of invitation rewards to credit. */
  INVITE_REWARD_INTERVAL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /**
   * smtp:// or smtps:// URL (with user:password@) of the mail server that delivers e-mail; without
   * it, e-mail stays in the notification outbox that staff read in the back-office.
   */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  /** Sender of Keel's e-mail. */
  SMTP_FROM: z.string().min(3).default('Keel <no-reply@keel.example>'),
  /** SMS provider: an HTTPS endpoint that receives POST {to, text}; without it, SMS stay in the outbox. */
  SMS_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Folder for uploaded files (verification photos, chat images); default: <DATA_DIR>/uploads. */
  UPLOAD_DIR: z.string().min(1).optional(),
  /**
   * 32 bytes, base64: the key that encrypts uploads at rest. Without it a key is generated once in
   * <DATA_DIR>/upload-encryption.key (fine on one machine; set it explicitly for anything else).
   */
  UPLOAD_ENCRYPTION_KEY: z
    .string()
    .refine((text) => Buffer.from(text, 'base64').length === 32, 'must be 32 bytes in base64')
    .optional(),
  /**
   * Create demo users and the first staff account on an empty database. Refused in production unless
   * KEEL_DEMO is true: the first admin of a real deployment comes from `npm run staff:first`.
   */
  SEED_DEMO: booleanText.default(true),
  /**
   * This deployment is a demo (no real money): every page of both apps says so in a banner, and in
   * production it may run the simulator, seed demo data and keep its upload key in DATA_DIR
   * (ADR 0041). Public: `GET /home/index/site`.
   */
  KEEL_DEMO: booleanText.default(false),
  /** Set behind a reverse proxy so client addresses (rate limits, logs) come from X-Forwarded-For. */
  TRUST_PROXY: booleanText.default(false),
  JOB_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /**
   * Where prices come from: the embedded simulator, a real exchange through ccxt, or `off` (this
   * node records nothing and serves the ticks other nodes record). With several nodes on one
   * database only the lease holder runs the feed.
   */
  MARKET_FEED: z.enum(['simulator', 'ccxt', 'off']).default('simulator'),
  /** Comma-separated listed markets, base/quote as ccxt writes them; BTC/USDT and ETH/USDT are required. */
  MARKET_SYMBOLS: z
    .string()
    .default(defaultSimulatedMarkets.map((market) => market.symbol).join(','))
    .transform((text) => text.split(',').map((symbol) => symbol.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/, 'each symbol like BTC/USDT'))
        .max(50)
        .refine((symbols) => new Set(symbols).size === symbols.length, 'no duplicate symbols')
        .refine((symbols) => symbols.includes('BTC/USDT') && symbols.includes('ETH/USDT'), 'must include BTC/USDT and ETH/USDT'),
    ),
  /** Seed of the simulator: the same seed and start prices give the same prices. Unset: a new seed on each start. */
  MARKET_SIM_SEED: z.string().max(100).optional(),
  /** Mean time between the simulator's beats (each beat ticks some markets), jittered by ±50 %. */
  MARKET_TICK_INTERVAL_MS: z.coerce.number().int().min(20).max(60_000).default(300),
  /** The ccxt exchange id polled when MARKET_FEED=ccxt (public tickers only, no API key). */
  MARKET_CCXT_EXCHANGE: z.string().regex(/^[a-z0-9]{2,40}$/, 'a ccxt exchange id such as binance').default('binance'),
  /** Time between two ticker polls of the ccxt exchange; keep it within the exchange's rate limits. */
  MARKET_CCXT_POLL_MS: z.coerce.number().int().min(250).max(300_000).default(2000),
  /** Raw ticks older than this are deleted (candles stay); 0 keeps every tick. */
  MARKET_TICK_RETENTION_HOURS: z.coerce.number().int().min(0).max(24 * 3650).default(48),
  /** Built front ends; the defaults are where `npm run build` puts them. */
  WEB_DIST_DIR: z.string().default('apps/web/dist'),
  ADMIN_DIST_DIR: z.string().default('apps/admin/dist'),
  /** Swap spread below the mid price, in basis points (published on every quote). */
  SWAP_SPREAD_BPS: z.coerce.number().int().min(0).max(500).default(20),
  /** How long a swap quote holds its rate (decisions page: 10 s). */
  SWAP_QUOTE_TTL_MS: z.coerce.number().int().min(1_000).max(60_000).default(10_000),
  /** A tick older than this is not used to price anything; callers answer "market price unavailable". */
  MARKET_PRICE_MAX_AGE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),

  // The wallet (issue 5). Every rule below is published to users in GET /home/wallet/overview.
  /** Deposit and withdrawal channels offered, comma-separated (USDT-TRC20, USDT-ERC20, BTC, ETH). */
  WALLET_CHANNELS: z
    .string()
    .default(walletChannelIds.join(','))
    .transform((text) => text.split(',').map((channel) => channel.trim()).filter(Boolean))
    .pipe(z.array(z.enum(walletChannelIds)).min(1).refine((channels) => new Set(channels).size === channels.length, 'no duplicate channels')),
  /**
   * Deposit addresses per network: an operator's extended PUBLIC key (BIP32 xpub; addresses are
   * derived at 0/i, no private key on the server) or a comma-separated list handed out in order.
   */
  DEPOSIT_XPUB_BITCOIN: extendedPublicKey.optional(),
  DEPOSIT_XPUB_ETHEREUM: extendedPublicKey.optional(),
  DEPOSIT_XPUB_TRON: extendedPublicKey.optional(),
  DEPOSIT_ADDRESSES_BITCOIN: addressList('bitcoin').optional(),
  DEPOSIT_ADDRESSES_ETHEREUM: addressList('ethereum').optional(),
  DEPOSIT_ADDRESSES_TRON: addressList('tron').optional(),
  /** The published fixed network fee of a withdrawal, per channel, in the asset. */
  WITHDRAWAL_FEE_USDT_TRC20: decimalText.default('1'),
  WITHDRAWAL_FEE_USDT_ERC20: decimalText.default('5'),
  WITHDRAWAL_FEE_BTC: decimalText.default('0.0002'),
  WITHDRAWAL_FEE_ETH: decimalText.default('0.002'),
  /** The smallest withdrawal per asset (what arrives, before the fee). */
  WITHDRAWAL_MIN_USDT: decimalText.default('10'),
  WITHDRAWAL_MIN_BTC: decimalText.default('0.001'),
  WITHDRAWAL_MIN_ETH: decimalText.default('0.01'),
  /**
   * The largest amount one deposit report may name, per asset: a published sanity cap (issue 13), so
   * a typo or an absurd figure never reaches the finance queue. Larger transfers are reported in parts.
   */
  DEPOSIT_MAX_USDT: decimalText.default('10000000'),
  DEPOSIT_MAX_BTC: decimalText.default('1000'),
  DEPOSIT_MAX_ETH: decimalText.default('20000'),
  /** Operator switch: false closes withdrawals for everyone ("withdrawal temporarily closed"). */
  WITHDRAWALS_OPEN: booleanText.default(true),
  /** Daily window in UTC when withdrawals are accepted, "HH:MM-HH:MM"; empty = any time. */
  WITHDRAWAL_HOURS_UTC: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d-(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'like 08:00-20:00 (UTC)')
    .optional(),
  /**
   * Keel's public origin, as users' browsers see it (scheme, host and port when not the default):
   * a wallet-connect message (EIP-4361, ADR 0047) must name its host as the domain and a URI on it.
   * Unset: http://localhost:<PORT>.
   */
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/ })
    .refine((text) => new URL(text).origin === text.replace(/\/$/, '').toLowerCase(), 'an origin only: scheme, host and port, no path')
    .transform((text) => new URL(text).origin)
    .optional(),
  /** The EIP-155 chain id a wallet-connect message must name (1: Ethereum mainnet). */
  WALLET_CONNECT_CHAIN_ID: z.coerce.number().int().min(1).max(2 ** 31 - 1).default(1),
  /** Withdrawal requests per user per UTC day. */
  WITHDRAWAL_DAILY_COUNT: z.coerce.number().int().min(1).max(1_000).default(10),
  /** Hours before a newly added withdrawal address can be used. */
  WITHDRAWAL_ADDRESS_HOLD_HOURS: z.coerce.number().int().min(0).max(24 * 30).default(24),
  /** Deposits and withdrawals worth more than this many USDT need two different staff approvals. */
  WALLET_TWO_PERSON_ABOVE_USDT: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  // The cumulative two-person rule of every staff decision that moves money (ADR 0022), published
  // in the wallet overview: beyond these a second, different staff member has to agree.
  /** Loan applications of more than this many USDT need two different compliance staff to approve (issue 18, published on /person/Loan). */
  LOAN_TWO_PERSON_ABOVE_USDT: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  /**
   * Every staff correction needs a maker and a different checker; one worth more than this many
   * USDT (or of unknown worth) needs an admin as the checker (issue 22, ADR 0039; published with
   * the two-person rule).
   */
  /** When the daily proof-of-liabilities snapshot is taken, HH:MM in UTC (issue 22, ADR 0040); admins can also ask for one. */
  PROOF_SNAPSHOT_TIME_UTC: z
    .string()
    .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be HH:MM, 00:00 to 23:59')
    .default('00:00'),
  CORRECTION_ADMIN_CHECKER_ABOVE_USDT: z.coerce.number().int().min(0).max(1_000_000_000).default(1_000),
  /** P2P appeals whose escrow is worth more than this many USDT are resolved by two support members. */
  P2P_APPEAL_TWO_PERSON_ABOVE_USDT: z.coerce.number().int().min(0).max(1_000_000_000).default(1_000),
  /** What one staff member may decide alone within the window, in USDT (deposits, withdrawals, appeals together). */
  TWO_PERSON_STAFF_ALONE_USDT: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  /** What may reach or leave one user through one-person staff decisions within the window, in USDT. */
  TWO_PERSON_USER_ALONE_USDT: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  /** The window of both sums, in hours (rolling, counted back from each decision). */
  TWO_PERSON_WINDOW_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(24),
  /** An Ethereum JSON-RPC endpoint: ETH and USDT-ERC20 deposits are then checked on chain, not by staff. */
  ETHEREUM_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Confirmations an on-chain deposit waits for before it is credited. */
  ETHEREUM_CONFIRMATIONS: z.coerce.number().int().min(1).max(1_000).default(12),
  /** The USDT (ERC20) token contract and its decimals. */
  ETHEREUM_USDT_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'an Ethereum contract address')
    .default('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
  ETHEREUM_USDT_DECIMALS: z.coerce.number().int().min(0).max(30).default(6),
  /** Time between two passes of the on-chain deposit check. */
  CHAIN_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** An on-chain deposit whose transaction is still unknown, or short of confirmations, after this long is rejected with the reason. */
  CHAIN_DEPOSIT_GIVE_UP_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(24),

  // Short-cycle contracts (issue 7, ADR 0017). Every number below is published on the trade screen.
  /**
   * Products, comma-separated `cycleSeconds/yieldPercent/minStake/maxStake`, `/off` appended to
   * switch one off (its open orders still settle), e.g. `30/80/10/5000,60/82/10/10000/off`.
   */
  OPTIONS_PRODUCTS: parsedText(DEFAULT_OPTION_PRODUCTS_TEXT, parseOptionProducts, OptionProductsError),
  /** A closing tick observed later than this after expiry is no price at expiry: the order is void, the stake returned. */
  OPTIONS_CLOSE_TICK_MAX_DELAY_MS: z.coerce.number().int().min(1_000).max(300_000).default(10_000),
  /** Orders are refused while the last recorded tick of the market is older than this (no stale opening price). */
  OPTIONS_OPEN_TICK_MAX_AGE_MS: z.coerce.number().int().min(500).max(60_000).default(5_000),
  /** Time between two passes of the settler over due orders (every node runs it; SKIP LOCKED shares the work). */
  OPTIONS_SETTLE_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(250),

  // VIP levels (issue 20, ADR 0046), published at GET /home/vip/levels and on /my/vip.
  /**
   * The table, comma-separated levels `level/discountPercent/extraWithdrawals/minVolume/minBalance`
   * in whole USDT (`-`: not reached by that measure), with `/applicationVolume/applicationBalance`
   * appended where staff may grant the level on application. Level 0 is implied. An incoherent
   * table (a gap, a higher level worse or easier to reach, an unreachable level) stops start-up.
   */
  VIP_LEVELS: parsedText(DEFAULT_VIP_LEVELS_TEXT, parseVipLevels, VipLevelsError),
  /** How often each node looks for users whose level for today is not computed yet. */
  VIP_LEVEL_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),

  // Leveraged and futures positions (issue 16, ADR 0034). Every number below is published on the trade screen.
  /** The house's limit of open entry notional per market and side, whole USDT: an order beyond it is refused. */
  LEVERAGE_EXPOSURE_LIMIT_USDT: z.coerce.number().int().min(1).max(1_000_000_000_000).default(5_000_000),
  /** Futures funding every 8 hours, parts per million of the notional at the mark (positive: longs pay). */
  LEVERAGE_FUNDING_RATE_PPM: z.coerce.number().int().min(-10_000).max(10_000).default(100),
  /** Per-market funding rates, `SYMBOL:ppm` comma-separated; markets not listed take LEVERAGE_FUNDING_RATE_PPM. */
  LEVERAGE_FUNDING_RATES: z
    .string()
    .default('')
    .transform((text, context) => {
      const rates = new Map<string, number>();
      for (const part of text.split(',').map((item) => item.trim()).filter(Boolean)) {
        const match = /^([A-Z0-9]{2,10}\/[A-Z0-9]{2,10}):(-?\d{1,5})$/.exec(part);
        if (!match || Math.abs(Number(match[2])) > 10_000) {
          context.addIssue({ code: 'custom', message: `"${part}" is not SYMBOL:ppm with |ppm| ≤ 10000` });
          return z.NEVER;
        }
        rates.set(match[1]!, Number(match[2]));
      }
      return rates;
    }),
  /** Interest on the borrowed part of a leveraged position every hour, parts per million. */
  LEVERAGE_INTEREST_RATE_PPM: z.coerce.number().int().min(0).max(10_000).default(5),
  /** Orders are refused while the market's last recorded tick is older than this. */
  LEVERAGE_OPEN_TICK_MAX_AGE_MS: z.coerce.number().int().min(500).max(60_000).default(5_000),
  /** Time between two passes of the trigger engine when no recorded tick wakes it. */
  LEVERAGE_ENGINE_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** The simulator can only run markets it has a start price and volatility for. */
function marketConfigProblem(config: Config): string | undefined {
  if (config.MARKET_FEED !== 'simulator') return undefined;
  const unknown = config.MARKET_SYMBOLS.filter((symbol) => !simulatedMarket(symbol));
  if (unknown.length === 0) return undefined;
  const known = defaultSimulatedMarkets.map((market) => market.symbol).join(', ');
  return `MARKET_SYMBOLS: the simulator has no market ${unknown.join(', ')} (it has ${known})`;
}

/**
 * What production refuses (ADR 0041): settings that are right for a try-out on one machine and wrong
 * with real money — made-up prices, demo users and a first staff password in the log, the upload
 * key in the data folder beside the uploads it protects. A demo deployment says so (KEEL_DEMO=true)
 * and may keep them. One line per problem, each saying what to set.
 */
function productionProblems(config: Config): string[] {
  if (config.NODE_ENV !== 'production' || config.KEEL_DEMO) return [];
  const orDemo = 'or KEEL_DEMO=true for a demo deployment';
  const problems: string[] = [];
  if (config.MARKET_FEED === 'simulator') {
    problems.push(`MARKET_FEED: the simulator (the default) makes up prices, refused in production; set MARKET_FEED=ccxt or MARKET_FEED=off, ${orDemo}`);
  }
  if (config.SEED_DEMO) {
    problems.push(
      `SEED_DEMO: demo data (the default) would create demo users and print the first staff password to the log, refused in production; set SEED_DEMO=false and create the first admin with npm run staff:first -- <username>, ${orDemo}`,
    );
  }
  if (!config.UPLOAD_ENCRYPTION_KEY) {
    problems.push(
      `UPLOAD_ENCRYPTION_KEY: not set, so the key would be generated in DATA_DIR next to the uploads it encrypts, refused in production; set UPLOAD_ENCRYPTION_KEY to 32 random bytes in base64 (openssl rand -base64 32), ${orDemo}`,
    );
  }
  return problems;
}

/** Parses an environment; throws ConfigError whose message has one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(lines.join('\n'));
  }
  const problems = [marketConfigProblem(parsed.data), ...productionProblems(parsed.data)].filter((problem) => problem !== undefined);
  if (problems.length > 0) throw new ConfigError(problems.map((problem) => `invalid configuration: ${problem}`).join('\n'));
  try {
    // Fees and minimums are checked against their asset's decimals here, so a bad one stops start-up.
    walletSettingsFrom(parsed.data);
  } catch (error) {
    if (error instanceof WalletConfigError) throw new ConfigError(error.message);
    throw error;
  }
  return parsed.data;
}

/** The variables with their defaults, for `.env.example` checks. */
export const configVariableNames = Object.keys(envSchema.shape);
