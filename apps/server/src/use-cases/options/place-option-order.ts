import { AppError, OPTIONS_RISK_DISCLOSURE_VERSION, type OptionOrder, type OptionsOverview } from '@keel/contracts';
import {
  LedgerError,
  OPTIONS_ASSET,
  OPTIONS_SCALE,
  type OptionDirection,
  stakeProblem,
  winPayoutMinor,
} from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { placeHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { findOptionOrder, formatUsdt, yieldPercentOf } from './option-views.ts';

/** How far a price source's clock may run ahead of the server's before its ticks are not used to open. */
export const OPEN_TICK_MAX_LEAD_MS = 2_000;

async function disclosureAcceptedAt(db: Queryable, userId: bigint): Promise<Date | null> {
  const [row] = await db.query<{ accepted_at: Date }>('SELECT accepted_at FROM option_risk_disclosures WHERE user_id = $1 AND version = $2', [
    userId,
    OPTIONS_RISK_DISCLOSURE_VERSION,
  ]);
  return row?.accepted_at ?? null;
}

/** The published contract products, markets and settlement rule: what the order check and the settler use. */
export function publishedOptionsTerms(config: Deps['config']): Pick<OptionsOverview, 'asset' | 'products' | 'symbols' | 'rule'> {
  return {
    asset: 'USDT',
    products: config.OPTIONS_PRODUCTS.map((product) => ({
      cycleSeconds: product.cycleSeconds,
      yieldPercent: yieldPercentOf(product.yieldBps),
      yieldBps: product.yieldBps,
      minStake: formatUsdt(product.minStakeMinor),
      maxStake: formatUsdt(product.maxStakeMinor),
      enabled: product.enabled,
    })),
    symbols: [...config.MARKET_SYMBOLS],
    rule: { closeTickMaxDelayMs: config.OPTIONS_CLOSE_TICK_MAX_DELAY_MS, openTickMaxAgeMs: config.OPTIONS_OPEN_TICK_MAX_AGE_MS },
  };
}

/** What the trade screen needs before an order: products, markets, the rule's numbers, the user's state. */
export async function optionsOverview(deps: Deps, userId: bigint): Promise<OptionsOverview> {
  const [account] = await deps.db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor::text AS available_minor, frozen_minor::text AS frozen_minor FROM ledger_accounts
     WHERE user_id = $1 AND kind = 'options' AND asset = $2`,
    [userId, OPTIONS_ASSET],
  );
  const acceptedAt = await disclosureAcceptedAt(deps.db, userId);
  const tier = (await verificationStatesOf(deps.db, userId)).tier;
  return {
    ...publishedOptionsTerms(deps.config),
    disclosure: { version: OPTIONS_RISK_DISCLOSURE_VERSION, acceptedAt: acceptedAt?.toISOString() ?? null },
    identityVerified: tier > 0,
    balance: {
      available: formatUsdt(account ? toMinor(account.available_minor) : 0n),
      frozen: formatUsdt(account ? toMinor(account.frozen_minor) : 0n),
    },
  };
}

/** Records the acceptance of the current disclosure text; accepting again answers the first acceptance. */
export async function acceptOptionsDisclosure(deps: Deps, userId: bigint, version: number) {
  // Accepting a text the user was not shown (an old or a future version) means nothing.
  if (version !== OPTIONS_RISK_DISCLOSURE_VERSION) throw new AppError('PARAMETER_ERROR', { field: 'version', expected: OPTIONS_RISK_DISCLOSURE_VERSION });
  await deps.db.query(
    'INSERT INTO option_risk_disclosures (user_id, version, accepted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [userId, version, deps.now()],
  );
  const acceptedAt = await disclosureAcceptedAt(deps.db, userId);
  return { version, acceptedAt: acceptedAt!.toISOString() };
}

/**
 * Opens a contract. Checks, in order: identity verification, the accepted disclosure, the product
 * (a configured cycle that is switched on) and the market, the stake (format, then the product's
 * range), a fresh recorded tick. Then one transaction: the stake frozen as a ledger hold on the
 * options account (the account row lock serialises a user's concurrent orders, so they can never
 * together freeze more than the balance), and the order row with the opening tick copied into it.
 * Settlement is the settler's (settle-option-orders.ts); nothing else ever changes the order.
 * Through the API, the answer commits with the order (`idempotency`, ADR 0019): a retry after a
 * crash replays it instead of freezing a second stake.
 */
export async function placeOptionOrder(
  deps: Deps,
  userId: bigint,
  input: { symbol: string; direction: OptionDirection; cycleSeconds: number; amount: string },
  idempotency?: IdempotentRequest<OptionOrder>,
): Promise<OptionOrder> {
  if ((await verificationStatesOf(deps.db, userId)).tier === 0) throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
  if (!(await disclosureAcceptedAt(deps.db, userId))) throw new AppError('RISK_DISCLOSURE_REQUIRED', { version: OPTIONS_RISK_DISCLOSURE_VERSION });
  const product = deps.config.OPTIONS_PRODUCTS.find((candidate) => candidate.cycleSeconds === input.cycleSeconds);
  if (!product || !deps.config.MARKET_SYMBOLS.includes(input.symbol)) throw new AppError('PRODUCT_NOT_FOUND');
  if (!product.enabled) throw new AppError('PRODUCT_CLOSED', { cycleSeconds: product.cycleSeconds });
  const stakeMinor = parseUserAmount(input.amount, OPTIONS_SCALE);
  const problem = stakeProblem(product, stakeMinor);
  if (problem) throw new AppError('AMOUNT_OUT_OF_RANGE', { problem, min: formatUsdt(product.minStakeMinor), max: formatUsdt(product.maxStakeMinor) });

  const now = deps.now();
  const placedAtMs = now.getTime();
  const openTick = deps.market.latest(input.symbol);
  // A tick observed "in the future" (a source whose clock runs ahead of ours) would let the closing
  // tick be observed "at expiry" before expiry has come: refused like a stale one.
  if (!openTick || placedAtMs - openTick.atMs > deps.config.OPTIONS_OPEN_TICK_MAX_AGE_MS || openTick.atMs - placedAtMs > OPEN_TICK_MAX_LEAD_MS) {
    throw new AppError('PRICE_UNAVAILABLE', { symbol: input.symbol });
  }
  const expiresAtMs = placedAtMs + product.cycleSeconds * 1000;
  let view: OptionOrder;
  try {
    view = await deps.db.transaction(async (tx) => {
      const accountId = await ensureUserAccount(tx, userId, 'options', OPTIONS_ASSET);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('option_orders', 'id')) AS id`)) as [{ id: bigint }];
      const { holdId, placedEntryId } = await placeHold(tx, {
        accountId,
        amountMinor: stakeMinor,
        referenceType: 'option_order',
        referenceId: id.toString(),
        at: now,
      });
      // The number a person quotes: C, the UTC day, the id.
      const orderNo = `C${now.toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
      await tx.query(
        `INSERT INTO option_orders (id, order_no, user_id, account_id, symbol, direction, cycle_seconds, yield_bps, stake_minor,
           expected_profit_minor, hold_id, place_entry_id, placed_at_ms, expires_at_ms, open_tick_id, open_price, open_tick_at_ms, open_tick_source)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
        [
          id,
          orderNo,
          userId,
          accountId,
          input.symbol,
          input.direction,
          product.cycleSeconds,
          product.yieldBps,
          stakeMinor.toString(),
          winPayoutMinor(stakeMinor, product.yieldBps).toString(),
          holdId,
          placedEntryId,
          placedAtMs,
          expiresAtMs,
          openTick.tickId,
          openTick.price,
          openTick.atMs,
          openTick.source,
        ],
      );
      const placed = await findOptionOrder(tx, userId, id);
      await idempotency?.answerInTransaction(tx, placed);
      return placed;
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  await publishToUser(deps, userId, { kind: 'options.order', orderId: view.id, status: view.status });
  return view;
}
