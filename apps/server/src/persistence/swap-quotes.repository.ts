import type { Queryable } from './db.ts';
import { toMinor, type UserAccountKind } from './ledger.store.ts';

/** A recorded tick as a quote keeps it: exactly what the user was shown. */
export interface QuotedTick {
  tickId: string;
  symbol: string;
  price: string;
  atMs: number;
  source: string;
}

export interface SwapQuoteRow {
  id: bigint;
  userId: bigint;
  accountKind: UserAccountKind;
  fromAsset: string;
  toAsset: string;
  amountMinor: bigint;
  midRateMinor: bigint;
  rateMinor: bigint;
  spreadBps: number;
  feeBps: number;
  grossReceiveMinor: bigint;
  feeMinor: bigint;
  /** The fee before the VIP discount (ADR 0046); the level and its discount in basis points of the fee. */
  feeBeforeDiscountMinor: bigint;
  vipLevel: number;
  vipDiscountBps: number;
  /** The swap's USDT value, what the 30-day VIP volume counts (null on quotes from before VIP). */
  usdtValueMinor: bigint | null;
  receiveMinor: bigint;
  ticks: QuotedTick[];
  createdAt: Date;
  expiresAt: Date;
  executedEntryId: bigint | null;
  executedAt: Date | null;
}

export type NewSwapQuote = Omit<SwapQuoteRow, 'id' | 'executedEntryId' | 'executedAt'>;

interface Row {
  id: bigint;
  user_id: bigint;
  account_kind: UserAccountKind;
  from_asset: string;
  to_asset: string;
  amount_minor: string;
  mid_rate_minor: string;
  rate_minor: string;
  spread_bps: number;
  fee_bps: number;
  gross_receive_minor: string;
  fee_minor: string;
  fee_before_discount_minor: string | null;
  vip_level: number;
  vip_discount_bps: number;
  usdt_value_minor: string | null;
  receive_minor: string;
  ticks: QuotedTick[] | string;
  created_at: Date;
  expires_at: Date;
  executed_entry_id: bigint | null;
  executed_at: Date | null;
}

function fromRow(row: Row): SwapQuoteRow {
  return {
    id: row.id,
    userId: row.user_id,
    accountKind: row.account_kind,
    fromAsset: row.from_asset,
    toAsset: row.to_asset,
    amountMinor: toMinor(row.amount_minor),
    midRateMinor: toMinor(row.mid_rate_minor),
    rateMinor: toMinor(row.rate_minor),
    spreadBps: row.spread_bps,
    feeBps: row.fee_bps,
    grossReceiveMinor: toMinor(row.gross_receive_minor),
    feeMinor: toMinor(row.fee_minor),
    feeBeforeDiscountMinor: row.fee_before_discount_minor === null ? toMinor(row.fee_minor) : toMinor(row.fee_before_discount_minor),
    vipLevel: row.vip_level,
    vipDiscountBps: row.vip_discount_bps,
    usdtValueMinor: row.usdt_value_minor === null ? null : toMinor(row.usdt_value_minor),
    receiveMinor: toMinor(row.receive_minor),
    ticks: typeof row.ticks === 'string' ? (JSON.parse(row.ticks) as QuotedTick[]) : row.ticks,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    executedEntryId: row.executed_entry_id,
    executedAt: row.executed_at,
  };
}

export async function insertSwapQuote(db: Queryable, quote: NewSwapQuote): Promise<SwapQuoteRow> {
  const [row] = await db.query<Row>(
    `INSERT INTO swap_quotes (user_id, account_kind, from_asset, to_asset, amount_minor, mid_rate_minor, rate_minor, spread_bps,
       fee_bps, gross_receive_minor, fee_minor, receive_minor, ticks, created_at, expires_at,
       fee_before_discount_minor, vip_level, vip_discount_bps, usdt_value_minor)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $18, $19) RETURNING *`,
    [
      quote.userId,
      quote.accountKind,
      quote.fromAsset,
      quote.toAsset,
      quote.amountMinor,
      quote.midRateMinor,
      quote.rateMinor,
      quote.spreadBps,
      quote.feeBps,
      quote.grossReceiveMinor,
      quote.feeMinor,
      quote.receiveMinor,
      JSON.stringify(quote.ticks),
      quote.createdAt,
      quote.expiresAt,
      quote.feeBeforeDiscountMinor,
      quote.vipLevel,
      quote.vipDiscountBps,
      quote.usdtValueMinor,
    ],
  );
  return fromRow(row!);
}

/** The user's own quote, locked for execution; another user's quote is not found (no existence leak). */
export async function lockSwapQuoteOfUser(tx: Queryable, quoteId: bigint, userId: bigint): Promise<SwapQuoteRow | undefined> {
  const [row] = await tx.query<Row>('SELECT * FROM swap_quotes WHERE id = $1 AND user_id = $2 FOR UPDATE', [quoteId, userId]);
  return row ? fromRow(row) : undefined;
}

export async function markSwapQuoteExecuted(tx: Queryable, quoteId: bigint, entryId: bigint, at: Date): Promise<void> {
  await tx.query('UPDATE swap_quotes SET executed_entry_id = $2, executed_at = $3 WHERE id = $1 AND executed_entry_id IS NULL', [
    quoteId,
    entryId,
    at,
  ]);
}

/** Unused quotes are worthless after they expire; the daily purge removes those older than a day. */
export async function purgeUnusedSwapQuotes(db: Queryable, olderThan: Date): Promise<void> {
  await db.query('DELETE FROM swap_quotes WHERE executed_entry_id IS NULL AND created_at < $1', [olderThan]);
}
