import { AppError, type LoanPrice } from '@keel/contracts';
import {
  availableCreditMinor,
  type CreditHistory,
  creditCapMinor,
  creditScore,
  LOAN_ASSET,
  parsePriceMinor,
  tierOf,
  transferPostings,
  usdtSymbolOf,
  type VerificationTier,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';

/** The platform account loans are paid from and repaid to: the treasury's lending account, never below zero (ADR 0036). */
export const LENDING_TREASURY_LABEL = 'lending';

export function lendingTreasuryAccount(tx: Queryable): Promise<bigint> {
  return ensurePlatformAccount(tx, 'treasury', LOAN_ASSET, { label: LENDING_TREASURY_LABEL, allowNegative: false });
}

/** The lending treasury's ledger balance, read without creating the account. */
export async function lenderView(db: Queryable): Promise<{ accountId: bigint | null; balanceMinor: bigint }> {
  const [row] = await db.query<{ id: bigint; available_minor: string }>(
    `SELECT id, available_minor::text AS available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'treasury' AND label = $1 AND asset = $2`,
    [LENDING_TREASURY_LABEL, LOAN_ASSET],
  );
  return { accountId: row?.id ?? null, balanceMinor: row ? toMinor(row.available_minor) : 0n };
}

/**
 * The treasury account that buys collateral sold in a liquidation, at the recorded price (the same
 * account swaps trade against, which may go below zero in an asset: ADR 0011).
 */
export function conversionTreasuryAccount(tx: Queryable, asset: string): Promise<bigint> {
  return ensurePlatformAccount(tx, 'treasury', asset, { allowNegative: true });
}

export interface CollateralPrice {
  view: LoanPrice;
  /** 8 decimals; null for USDT. */
  priceMinor: bigint | null;
  tickId: bigint | null;
}

/** The latest recorded price of a collateral asset if it is fresh enough to value anything (MARKET_PRICE_MAX_AGE_MS), or undefined. */
export function latestCollateralPrice(deps: Pick<Deps, 'market' | 'config'>, asset: string, nowMs: number): CollateralPrice | undefined {
  const symbol = usdtSymbolOf(asset);
  if (symbol === undefined) return { view: { asset, symbol: null, price: '1', tickId: null, atMs: null }, priceMinor: null, tickId: null };
  const tick = deps.market.latest(symbol);
  if (!tick || nowMs - tick.atMs > deps.config.MARKET_PRICE_MAX_AGE_MS) return undefined;
  return {
    view: { asset, symbol, price: tick.price, tickId: tick.tickId.toString(), atMs: tick.atMs },
    priceMinor: parsePriceMinor(tick.price),
    tickId: tick.tickId,
  };
}

/** As latestCollateralPrice, or the catalogue's "market price unavailable". */
export function collateralPriceOrFail(deps: Pick<Deps, 'market' | 'config'>, asset: string, nowMs: number): CollateralPrice {
  const price = latestCollateralPrice(deps, asset, nowMs);
  if (!price) throw new AppError('PRICE_UNAVAILABLE', { symbol: usdtSymbolOf(asset) });
  return price;
}

/** The view of an asset with no recent price. */
export function unpricedView(asset: string): LoanPrice {
  return { asset, symbol: usdtSymbolOf(asset) ?? null, price: null, tickId: null, atMs: null };
}

/**
 * Locks the borrower's row (made on first use) and returns what they owe or have applied for.
 * Lock order of every loan writer: loan rows, this row, ledger accounts (ascending id).
 */
export async function lockBorrower(tx: Queryable, userId: bigint): Promise<bigint> {
  await tx.query('INSERT INTO loan_borrowers (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
  const [row] = await tx.query<{ committed_minor: string }>('SELECT committed_minor::text AS committed_minor FROM loan_borrowers WHERE user_id = $1 FOR UPDATE', [userId]);
  return toMinor(row!.committed_minor);
}

export async function changeCommitted(tx: Queryable, userId: bigint, deltaMinor: bigint): Promise<void> {
  if (deltaMinor === 0n) return;
  await tx.query('UPDATE loan_borrowers SET committed_minor = committed_minor + $2 WHERE user_id = $1', [userId, deltaMinor.toString()]);
}

export interface BorrowerCredit {
  tier: VerificationTier;
  history: CreditHistory;
  score: ReturnType<typeof creditScore>;
  capMinor: bigint;
  committedMinor: bigint;
  availableMinor: bigint;
}

/**
 * A borrower's credit as the published policy computes it from their verification and their loan
 * history. `committedMinor` is passed by a caller that holds the borrower's lock; otherwise read.
 */
export async function borrowerCredit(db: Queryable, userId: bigint, committedMinor?: bigint): Promise<BorrowerCredit> {
  const states = await verificationStatesOf(db, userId);
  const tier = tierOf({ identityVerified: states.identity.status === 'verified', advancedVerified: states.advanced.status === 'verified' });
  const [counts] = await db.query<{ on_time: string; at_due: string; early: string; committed: string | null }>(
    // Funding requests count as loans do (ADR 0037): repaid at term as on time, defaulted as left unpaid at the due date.
    `SELECT (count(*) FILTER (WHERE status = 'repaid' AND closed_at_ms <= due_at_ms)
              + (SELECT count(*) FROM fund_requests WHERE user_id = $1 AND status = 'repaid'))::text AS on_time,
            (count(*) FILTER (WHERE liquidation_kind = 'due')
              + (SELECT count(*) FROM fund_requests WHERE user_id = $1 AND status = 'defaulted'))::text AS at_due,
            count(*) FILTER (WHERE liquidation_kind = 'price')::text AS early,
            (SELECT committed_minor::text FROM loan_borrowers WHERE user_id = $1) AS committed
       FROM loans WHERE user_id = $1`,
    [userId],
  );
  const history: CreditHistory = { repaidOnTime: Number(counts!.on_time), liquidatedAtDue: Number(counts!.at_due), liquidatedEarly: Number(counts!.early) };
  const score = creditScore(history);
  const capMinor = creditCapMinor(tier, score);
  const committed = committedMinor ?? toMinor(counts!.committed ?? '0');
  return { tier, history, score, capMinor, committedMinor: committed, availableMinor: availableCreditMinor(capMinor, committed) };
}

/** The number a person quotes: L, the UTC day, the id. */
export function loanNumber(id: bigint, atMs: number): string {
  return `L${new Date(atMs).toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
}

/**
 * Moves platform money into the lending treasury (one `loan.fund` entry from the platform treasury).
 * Used by the demo seed and tests; a real deployment funds the lending account by a house
 * correction with maker and checker (`lending_treasury`, ADR 0039), never by a user's call.
 */
export async function fundLendingTreasury(tx: Queryable, amountMinor: bigint, at: Date, memo = 'Lending treasury funded from the platform treasury'): Promise<void> {
  const treasury = await ensurePlatformAccount(tx, 'treasury', LOAN_ASSET, { allowNegative: true });
  const lender = await lendingTreasuryAccount(tx);
  await postEntry(tx, { reason: 'loan.fund', memo, postings: transferPostings(treasury, lender, LOAN_ASSET, amountMinor), at });
}
