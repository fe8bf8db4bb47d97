import { AppError, type LocaleCode } from '@keel/contracts';
import { parsePriceMinor, usdtSymbolOf, usdtValueMinor } from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import { type MessageKey, translate } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import type { Db, Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount } from '../../persistence/ledger.store.ts';
import type { ChannelSetting } from './wallet-settings.ts';

/** A typed amount of a channel's asset in minor units, or the catalogue's "wrong amount". */
export function parseChannelAmount(channel: ChannelSetting, text: string): bigint {
  return parseUserAmount(text, channel.scale);
}

export interface UsdtValuation {
  usdtValueMinor: bigint;
  /** The recorded tick that priced it (null for USDT, worth exactly 1). */
  tickId: bigint | null;
}

/**
 * The USDT value of an amount from the last recorded tick. `fresh` refuses a tick older than
 * MARKET_PRICE_MAX_AGE_MS with "market price unavailable" (a withdrawal limit must not be judged on
 * a stale price); without it any recorded tick will do, and none at all gives undefined.
 */
export function valueInUsdt(deps: Deps, channel: Pick<ChannelSetting, 'asset' | 'scale'>, amountMinor: bigint, fresh: boolean): UsdtValuation | undefined {
  const symbol = usdtSymbolOf(channel.asset);
  if (symbol === undefined) return { usdtValueMinor: amountMinor, tickId: null };
  const tick = deps.market.latest(symbol);
  const stale = !tick || deps.now().getTime() - tick.atMs > deps.config.MARKET_PRICE_MAX_AGE_MS;
  if (fresh && stale) throw new AppError('PRICE_UNAVAILABLE', { symbol });
  if (!tick) return undefined;
  return { usdtValueMinor: usdtValueMinor(amountMinor, channel.scale, parsePriceMinor(tick.price)), tickId: tick.tickId };
}

/**
 * The platform's account for a channel's coins on chain. It goes negative as deposits arrive
 * (the ledger's mirror of what the hot wallet holds for users) and back as withdrawals leave.
 */
export function hotWalletAccount(tx: Queryable, channel: Pick<ChannelSetting, 'id' | 'asset'>): Promise<bigint> {
  return ensurePlatformAccount(tx, 'hot_wallet', channel.asset, { label: channel.id, allowNegative: true });
}

/** A system message to the user in their language (it lights the unread flag). */
export async function messageUser(
  tx: Queryable,
  userId: bigint,
  keys: { title: MessageKey; body: MessageKey },
  vars: Record<string, string>,
  at: Date,
): Promise<void> {
  const [user] = await tx.query<{ language: LocaleCode }>('SELECT language FROM users WHERE id = $1', [userId]);
  const language = user?.language ?? 'en';
  await tx.query('INSERT INTO messages (user_id, title, body, created_at) VALUES ($1, $2, $3, $4)', [
    userId,
    translate(language, keys.title, vars),
    translate(language, keys.body, vars),
    at,
  ]);
}

/** Unique-index violations by index name, so a race on "once only" rows gets its catalogue answer. */
export function isUniqueViolation(error: unknown, indexName: string): boolean {
  const candidate = error as { code?: string; constraint?: string; message?: string; cause?: { code?: string } };
  const code = candidate.code ?? candidate.cause?.code;
  return code === '23505' && (candidate.constraint === indexName || (candidate.message ?? '').includes(indexName));
}

/**
 * Adds a row to a list the user keeps (addresses, bank cards) within its published bound: the
 * user's row lock makes the count and the insert one step, so the bound holds under races. A row
 * that is already there answers "already added" (the list's unique index).
 */
export async function addWithinLimit<T>(
  db: Db,
  input: { userId: bigint; table: 'withdrawal_addresses' | 'bank_cards'; limit: number; uniqueIndex: string },
  insert: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [input.userId]);
      const [count] = await tx.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM ${input.table} WHERE user_id = $1 AND removed_at IS NULL`, [
        input.userId,
      ]);
      if (Number(count!.total) >= input.limit) throw new AppError('TOO_MANY_ITEMS', { limit: input.limit });
      return await insert(tx);
    });
  } catch (error) {
    if (isUniqueViolation(error, input.uniqueIndex)) throw new AppError('ALREADY_ADDED');
    throw error;
  }
}

/** Removes (softly) a row of a list the user keeps; someone else's id is "not found". */
export async function removeOwnRow(db: Queryable, input: { userId: bigint; table: 'withdrawal_addresses' | 'bank_cards'; id: bigint; at: Date }) {
  const rows = await db.query(`UPDATE ${input.table} SET removed_at = $3 WHERE id = $1 AND user_id = $2 AND removed_at IS NULL RETURNING id`, [
    input.id,
    input.userId,
    input.at,
  ]);
  if (rows.length === 0) throw new AppError('RECORD_NOT_FOUND');
  return null;
}
