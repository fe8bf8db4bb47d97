import { createHash } from 'node:crypto';
import { type AccountBalance, applyEntry, lockOrder, type Posting } from '@keel/domain';
import type { Queryable } from './db.ts';

/** Account types a user holds (spec section 3). */
export type UserAccountKind = 'coin' | 'fiat' | 'innovation' | 'defi' | 'leveraged' | 'options';
/** Platform accounts, in the same ledger. */
export type PlatformAccountKind = 'treasury' | 'fees' | 'options_house' | 'leverage_house' | 'insurance_fund' | 'hot_wallet';

/** Money columns are numeric(78,0); both drivers hand them over as text. */
export const toMinor = (value: unknown): bigint => BigInt(String(value));

/** A key used again with other postings: refused rather than guessed at. */
export class IdempotencyConflictError extends Error {
  constructor(key: string) {
    super(`idempotency key ${key} was used with a different entry`);
    this.name = 'IdempotencyConflictError';
  }
}

export interface EntryInput {
  reason: string;
  referenceType?: string;
  referenceId?: string;
  /** A replay with the same key and postings answers the first entry; other postings are refused. */
  idempotencyKey?: string;
  memo?: string;
  postings: readonly Posting[];
  at: Date;
}

export interface PostedEntry {
  entryId: bigint;
  /** True when the key had been used: nothing was posted this time. */
  replayed: boolean;
}

/** Fingerprint of an entry's postings, independent of their order: what an idempotency key is bound to. */
export function postingsHash(postings: readonly Posting[]): string {
  const canonical = postings.map((p) => `${p.accountId}:${p.asset}:${p.bucket}:${p.amountMinor}`).sort().join('|');
  return createHash('sha256').update(canonical).digest('hex');
}

export async function ensureUserAccount(db: Queryable, userId: bigint, kind: UserAccountKind, asset: string): Promise<bigint> {
  const find = () =>
    db.query<{ id: bigint }>('SELECT id FROM ledger_accounts WHERE user_id = $1 AND kind = $2 AND asset = $3', [userId, kind, asset]);
  // Nearly every call finds the account: one read, and no write for a commit to wait on.
  const [existing] = await find();
  if (existing) return existing.id;
  await db.query('INSERT INTO ledger_accounts (user_id, kind, asset) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [userId, kind, asset]);
  const [row] = await find();
  return row!.id;
}

/**
 * The accounts of `kind` in `asset` of many users, made where missing: two statements whatever the
 * number when they all exist (a payout run over thousands of users), three when some do not.
 */
export async function ensureUserAccounts(db: Queryable, userIds: readonly bigint[], kind: UserAccountKind, asset: string): Promise<Map<bigint, bigint>> {
  const wanted = [...new Set(userIds)];
  const find = async () =>
    new Map(
      (
        await db.query<{ user_id: bigint; id: bigint }>('SELECT user_id, id FROM ledger_accounts WHERE user_id = ANY($1::bigint[]) AND kind = $2 AND asset = $3', [
          wanted.map(String),
          kind,
          asset,
        ])
      ).map((row) => [row.user_id, row.id]),
    );
  const found = await find();
  const missing = wanted.filter((userId) => !found.has(userId));
  if (missing.length === 0) return found;
  await db.query(
    'INSERT INTO ledger_accounts (user_id, kind, asset) SELECT u, $2, $3 FROM unnest($1::bigint[]) AS u ON CONFLICT DO NOTHING',
    [missing.map(String), kind, asset],
  );
  return find();
}

export async function ensurePlatformAccount(
  db: Queryable,
  kind: PlatformAccountKind,
  asset: string,
  options: { label?: string; allowNegative?: boolean } = {},
): Promise<bigint> {
  await db.query(
    'INSERT INTO ledger_accounts (kind, label, asset, allow_negative) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [kind, options.label ?? '', asset, options.allowNegative ?? false],
  );
  const [row] = await db.query<{ id: bigint }>(
    'SELECT id FROM ledger_accounts WHERE user_id IS NULL AND kind = $1 AND label = $2 AND asset = $3',
    [kind, options.label ?? '', asset],
  );
  return row!.id;
}

interface AccountRow {
  id: bigint;
  asset: string;
  available_minor: string;
  frozen_minor: string;
  allow_negative: boolean;
}

/** Locks the accounts in ascending id order: the one order every writer uses, so none deadlock. */
export async function lockAccounts(tx: Queryable, accountIds: readonly bigint[]): Promise<Map<bigint, AccountBalance>> {
  const rows = await tx.query<AccountRow>(
    'SELECT id, asset, available_minor, frozen_minor, allow_negative FROM ledger_accounts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
    [accountIds.map(String)],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        accountId: row.id,
        asset: row.asset,
        availableMinor: toMinor(row.available_minor),
        frozenMinor: toMinor(row.frozen_minor),
        allowNegative: row.allow_negative,
      },
    ]),
  );
}

/**
 * Posts one journal entry inside the caller's transaction: lock the touched accounts in id order,
 * apply the domain rules (balanced, no user balance below zero), write the new balances, the
 * entry and its postings. Throws LedgerError (domain) or IdempotencyConflictError and writes nothing.
 */
export async function postEntry(tx: Queryable, input: EntryInput): Promise<PostedEntry> {
  const hash = postingsHash(input.postings);
  const balances = await lockAccounts(tx, lockOrder(input.postings));
  // The key is checked after the locks: a concurrent duplicate touches the same accounts, so it
  // waits here until the first commits, and then sees its entry.
  if (input.idempotencyKey) {
    const [existing] = await tx.query<{ id: bigint; postings_hash: string }>(
      'SELECT id, postings_hash FROM journal_entries WHERE idempotency_key = $1',
      [input.idempotencyKey],
    );
    if (existing) {
      if (existing.postings_hash !== hash) throw new IdempotencyConflictError(input.idempotencyKey);
      return { entryId: existing.id, replayed: true };
    }
  }
  const changed = applyEntry(balances, input.postings);
  for (const balance of changed.values()) {
    await tx.query('UPDATE ledger_accounts SET available_minor = $2, frozen_minor = $3 WHERE id = $1', [
      balance.accountId,
      balance.availableMinor.toString(),
      balance.frozenMinor.toString(),
    ]);
  }
  const [entry] = await tx.query<{ id: bigint }>(
    `INSERT INTO journal_entries (reason, reference_type, reference_id, idempotency_key, postings_hash, memo, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [input.reason, input.referenceType ?? null, input.referenceId ?? null, input.idempotencyKey ?? null, hash, input.memo ?? null, input.at],
  );
  // One multi-row insert for all postings of the entry.
  const values: unknown[] = [];
  const rows = input.postings.map((posting, index) => {
    values.push(entry!.id, posting.accountId, posting.asset, posting.bucket, posting.amountMinor.toString());
    const base = index * 5;
    return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5})`;
  });
  await tx.query(`INSERT INTO postings (entry_id, account_id, asset, bucket, amount_minor) VALUES ${rows.join(', ')}`, values);
  return { entryId: entry!.id, replayed: false };
}

export interface AccountView {
  id: bigint;
  userId: bigint | null;
  kind: string;
  asset: string;
  availableMinor: bigint;
  frozenMinor: bigint;
}

export async function readAccount(db: Queryable, accountId: bigint): Promise<AccountView | undefined> {
  const [row] = await db.query<{ id: bigint; user_id: bigint | null; kind: string; asset: string; available_minor: string; frozen_minor: string }>(
    'SELECT id, user_id, kind, asset, available_minor, frozen_minor FROM ledger_accounts WHERE id = $1',
    [accountId],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    asset: row.asset,
    availableMinor: toMinor(row.available_minor),
    frozenMinor: toMinor(row.frozen_minor),
  };
}
