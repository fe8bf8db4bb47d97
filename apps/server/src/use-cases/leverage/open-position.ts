import { AppError, LEVERAGE_RISK_DISCLOSURE_VERSION, type LeverageOverview, type LeveragePosition } from '@keel/contracts';
import {
  FUNDING_INTERVAL_MS,
  LedgerError,
  LEVERAGE_PRODUCTS,
  LIQUIDATION_FEE_BPS,
  type LeverageProduct,
  MARGIN_ASSET,
  MARGIN_SCALE,
  MARK_PRICE_MIN_TICKS,
  MARK_PRICE_TICKS,
  MARK_PRICE_WINDOW_MS,
  NOTIONAL_BRACKETS,
  OPEN_SPREAD_BPS,
  type OpenQuote,
  openFillPriceMinor,
  parsePriceMinor,
  PRICE_SCALE,
  type PositionSide,
  quoteOpen,
  TRADING_FEE_BPS,
  formatAmount,
  discountMemo,
  USDT_SCALE,
  triggerProblem,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { placeHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { parseUserAmount } from '../amount-input.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { vipTermsOfUser } from '../vip/vip-levels.ts';
import {
  exposureLimitMinor,
  freshTick,
  fundingRatePpm,
  leveragePlatformAccounts,
  raiseExposure,
  shareMarketCursor,
} from './leverage-support.ts';
import { findPosition, formatMarginUsdt, markPricesOf } from './position-views.ts';
import { insertOpenedPositions } from './position-writes.ts';

const percentOfBps = (bps: bigint | number) => formatAmount(BigInt(bps), 2);

async function disclosureAcceptedAt(db: Queryable, userId: bigint): Promise<Date | null> {
  const [row] = await db.query<{ accepted_at: Date }>('SELECT accepted_at FROM leverage_risk_disclosures WHERE user_id = $1 AND version = $2', [
    userId,
    LEVERAGE_RISK_DISCLOSURE_VERSION,
  ]);
  return row?.accepted_at ?? null;
}

/** The published products, brackets and rules: the numbers the order check, the engine and the settlement use. */
export function publishedLeverageTerms(deps: Pick<Deps, 'config'>): Pick<LeverageOverview, 'asset' | 'products' | 'symbols' | 'rules'> {
  const symbols = [...deps.config.MARKET_SYMBOLS];
  return {
    asset: 'USDT',
    products: LEVERAGE_PRODUCTS.map((product) => ({
      product,
      maxLeverage: NOTIONAL_BRACKETS[product][0]!.maxLeverage,
      brackets: NOTIONAL_BRACKETS[product].map((bracket) => ({
        upTo: formatMarginUsdt(bracket.upToMinor),
        maxLeverage: bracket.maxLeverage,
        maintenanceRatePercent: percentOfBps(bracket.maintenanceRateBps),
        maintenanceAmount: formatMarginUsdt(bracket.maintenanceAmountMinor),
      })),
    })),
    symbols,
    rules: {
      tradingFeePercent: percentOfBps(TRADING_FEE_BPS),
      openSpreadPercent: percentOfBps(OPEN_SPREAD_BPS),
      liquidationFeePercent: percentOfBps(LIQUIDATION_FEE_BPS),
      markPrice: { ticks: MARK_PRICE_TICKS, windowMs: MARK_PRICE_WINDOW_MS, minTicks: MARK_PRICE_MIN_TICKS },
      fundingIntervalHours: FUNDING_INTERVAL_MS / 3_600_000,
      fundingRates: symbols.map((symbol) => ({ symbol, ratePpm: fundingRatePpm(deps, symbol) })),
      interestRatePpmPerHour: deps.config.LEVERAGE_INTEREST_RATE_PPM,
      exposureLimit: formatMarginUsdt(exposureLimitMinor(deps)),
      openTickMaxAgeMs: deps.config.LEVERAGE_OPEN_TICK_MAX_AGE_MS,
    },
  };
}

/** What the trade screens need before an order: products and brackets, markets and marks, the published rules, the user's state. */
export async function leverageOverview(deps: Deps, userId: bigint): Promise<LeverageOverview> {
  const [account] = await deps.db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor::text AS available_minor, frozen_minor::text AS frozen_minor FROM ledger_accounts
     WHERE user_id = $1 AND kind = 'leveraged' AND asset = $2`,
    [userId, MARGIN_ASSET],
  );
  const acceptedAt = await disclosureAcceptedAt(deps.db, userId);
  const tier = (await verificationStatesOf(deps.db, userId)).tier;
  const terms = publishedLeverageTerms(deps);
  return {
    ...terms,
    marks: await markPricesOf(deps.db, terms.symbols),
    disclosure: { version: LEVERAGE_RISK_DISCLOSURE_VERSION, acceptedAt: acceptedAt?.toISOString() ?? null },
    identityVerified: tier > 0,
    balance: {
      available: formatMarginUsdt(account ? toMinor(account.available_minor) : 0n),
      frozen: formatMarginUsdt(account ? toMinor(account.frozen_minor) : 0n),
    },
  };
}

/** Records the acceptance of the current disclosure text; accepting again answers the first acceptance. */
export async function acceptLeverageDisclosure(deps: Deps, userId: bigint, version: number) {
  if (version !== LEVERAGE_RISK_DISCLOSURE_VERSION) throw new AppError('PARAMETER_ERROR', { field: 'version', expected: LEVERAGE_RISK_DISCLOSURE_VERSION });
  await deps.db.query('INSERT INTO leverage_risk_disclosures (user_id, version, accepted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    userId,
    version,
    deps.now(),
  ]);
  const acceptedAt = await disclosureAcceptedAt(deps.db, userId);
  return { version, acceptedAt: acceptedAt!.toISOString() };
}

/** A trigger price the user typed (8 decimals), or null. */
export function parseTriggerPrice(text: string | null, field: string): bigint | null {
  return text === null ? null : parseUserAmount(text, PRICE_SCALE, field);
}

/**
 * The checks every order makes before it looks at a price, in order: identity verification, the
 * accepted disclosure, the product and market, the margin, the trigger prices' format.
 */
export async function checkOrderTerms(deps: Deps, userId: bigint, input: OpenPositionInput) {
  if ((await verificationStatesOf(deps.db, userId)).tier === 0) throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
  if (!(await disclosureAcceptedAt(deps.db, userId))) throw new AppError('RISK_DISCLOSURE_REQUIRED', { version: LEVERAGE_RISK_DISCLOSURE_VERSION });
  if (!LEVERAGE_PRODUCTS.includes(input.product) || !deps.config.MARKET_SYMBOLS.includes(input.symbol)) throw new AppError('PRODUCT_NOT_FOUND');
  return {
    marginMinor: parseUserAmount(input.margin, MARGIN_SCALE, 'margin'),
    takeProfitPriceMinor: parseTriggerPrice(input.takeProfitPrice, 'takeProfitPrice'),
    stopLossPriceMinor: parseTriggerPrice(input.stopLossPrice, 'stopLossPrice'),
  };
}

/** The quote an order opens at, or the catalogue's refusal of it. */
export function acceptedQuote(result: ReturnType<typeof quoteOpen>): OpenQuote {
  if (result.ok) return result.quote;
  if (result.problem === 'quantity_zero') throw new AppError('AMOUNT_OUT_OF_RANGE', { field: 'margin', problem: 'below_min' });
  throw new AppError('LEVERAGE_NOT_ALLOWED', { problem: result.problem, maxLeverage: result.maxLeverage });
}

export interface OpenPositionInput {
  product: LeverageProduct;
  symbol: string;
  side: PositionSide;
  margin: string;
  leverage: number;
  takeProfitPrice: string | null;
  stopLossPrice: string | null;
}

/**
 * Opens a position with a market order. Checks, in order: identity verification, the accepted
 * disclosure, the product and market, the margin, a fresh recorded tick, the quote (leverage within
 * the product and the bracket of the notional), the take-profit and stop-loss. Then one
 * transaction: the market's cursor shared (the position is watched from the ticks after it), the
 * house's exposure raised within its limit, one journal entry freezing the margin as a hold on the
 * leveraged account and paying the fee, the position and its `open` event with the tick copied.
 * Through the API the answer commits with the position (ADR 0019).
 */
export async function openPosition(
  deps: Deps,
  userId: bigint,
  input: OpenPositionInput,
  idempotency?: IdempotentRequest<LeveragePosition>,
): Promise<LeveragePosition> {
  const { marginMinor, takeProfitPriceMinor, stopLossPriceMinor } = await checkOrderTerms(deps, userId, input);
  const now = deps.now();
  const nowMs = now.getTime();
  const tick = freshTick(deps, input.symbol, nowMs);
  const tickPriceMinor = parsePriceMinor(tick.price);
  // The fee uses the user's VIP level at the time (ADR 0046).
  const vip = await vipTermsOfUser(deps.db, deps.config.VIP_LEVELS, userId);
  const result = quoteOpen({
    product: input.product,
    side: input.side,
    marginMinor,
    leverage: input.leverage,
    fillPriceMinor: openFillPriceMinor(input.side, tickPriceMinor),
    vip,
  });
  const quote = acceptedQuote(result);
  const problem = triggerProblem(input.side, { takeProfitPriceMinor, stopLossPriceMinor }, tickPriceMinor, quote.liquidationPriceMinor);
  if (problem) throw new AppError('TRIGGER_PRICE_INVALID', { problem });

  let view: LeveragePosition;
  try {
    view = await deps.db.transaction(async (tx) => {
      const cursorTickId = await shareMarketCursor(tx, input.symbol, tick.tickId);
      await raiseExposure(tx, input.symbol, input.side, quote.notionalMinor, exposureLimitMinor(deps));
      const accountId = await ensureUserAccount(tx, userId, 'leveraged', MARGIN_ASSET);
      const { feeAccountId } = await leveragePlatformAccounts(tx);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('leverage_positions', 'id')) AS id`)) as [{ id: bigint }];
      const { holdId, placedEntryId } = await placeHold(tx, {
        accountId,
        amountMinor: marginMinor,
        reason: 'leverage.open',
        referenceType: 'leverage_position',
        referenceId: id.toString(),
        alsoPay: [{ toAccountId: feeAccountId, amountMinor: quote.feeMinor }],
        memo:
          quote.vipDiscountBps > 0
            ? discountMemo(
                {
                  feeBeforeDiscountMinor: quote.feeBeforeDiscountMinor,
                  discountBps: quote.vipDiscountBps,
                  discountMinor: quote.feeBeforeDiscountMinor - quote.feeMinor,
                  feeMinor: quote.feeMinor,
                  level: quote.vipLevel,
                },
                (minor) => `${formatAmount(minor, USDT_SCALE)} ${MARGIN_ASSET}`,
              )
            : undefined,
        at: now,
      });
      await insertOpenedPositions(tx, [
        {
          id,
          userId,
          accountId,
          product: input.product,
          symbol: input.symbol,
          side: input.side,
          leverage: input.leverage,
          entryPriceMinor: quote.fillPriceMinor,
          quantityMinor: quote.quantityMinor,
          notionalMinor: quote.notionalMinor,
          marginMinor,
          feeMinor: quote.feeMinor,
          holdId,
          liquidationPriceMinor: quote.liquidationPriceMinor,
          takeProfitPriceMinor,
          stopLossPriceMinor,
          armedAfterTickId: cursorTickId > tick.tickId ? cursorTickId : tick.tickId,
          openedAtMs: nowMs,
          tick,
          entryId: placedEntryId,
        },
      ]);
      const opened = await findPosition(tx, userId, id);
      await idempotency?.answerInTransaction(tx, opened);
      return opened;
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  await publishToUser(deps, userId, { kind: 'leverage.position', positionId: view.id, status: view.status });
  return view;
}
