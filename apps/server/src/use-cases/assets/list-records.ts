import { formatAmount } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor, type UserAccountKind } from '../../persistence/ledger.store.ts';
import { assetScales, type BalanceView } from './account-balances.ts';

interface RecordRow {
  entry_id: bigint;
  reason: string;
  reference_type: string | null;
  reference_id: string | null;
  memo: string | null;
  created_at: Date;
  kind: string;
  asset: string;
  bucket: 'available' | 'frozen';
  amount_minor: string;
}

/**
 * The user's records: every journal entry with a posting on one of their accounts, newest first,
 * each with the user's own postings. Paged by entry, so an entry is never split across pages.
 */
export async function listRecords(
  db: Queryable,
  input: { userId: bigint; page: number; pageSize: number; account?: string; reason?: string },
) {
  const filter = `FROM postings p JOIN ledger_accounts a ON a.id = p.account_id JOIN journal_entries e ON e.id = p.entry_id
     WHERE a.user_id = $1 AND ($2::text IS NULL OR a.kind = $2) AND ($3::text IS NULL OR e.reason = $3)`;
  const filterParams = [input.userId, input.account ?? null, input.reason ?? null];
  const pageIds = await db.query<{ entry_id: bigint }>(
    `SELECT DISTINCT p.entry_id ${filter} ORDER BY p.entry_id DESC LIMIT $4 OFFSET $5`,
    [...filterParams, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await db.query<{ total: number }>(`SELECT count(DISTINCT p.entry_id)::int AS total ${filter}`, filterParams);
  const scales = await assetScales(db);
  const rows = pageIds.length
    ? await db.query<RecordRow>(
        `SELECT e.id AS entry_id, e.reason, e.reference_type, e.reference_id, e.memo, e.created_at, a.kind, a.asset, p.bucket, p.amount_minor
           FROM journal_entries e JOIN postings p ON p.entry_id = e.id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE e.id = ANY($1::bigint[]) AND a.user_id = $2
          ORDER BY e.id DESC, p.id`,
        [pageIds.map((row) => row.entry_id.toString()), input.userId],
      )
    : [];
  const items = new Map<bigint, ReturnType<typeof toItem>>();
  function toItem(row: RecordRow) {
    return {
      entryId: row.entry_id.toString(),
      reason: row.reason,
      referenceType: row.reference_type,
      referenceId: row.reference_id,
      memo: row.memo,
      createdAt: row.created_at.toISOString(),
      postings: [] as { account: UserAccountKind; asset: BalanceView['asset']; bucket: 'available' | 'frozen'; amount: string }[],
    };
  }
  for (const row of rows) {
    const item = items.get(row.entry_id) ?? toItem(row);
    items.set(row.entry_id, item);
    item.postings.push({
      account: row.kind as UserAccountKind,
      asset: row.asset as BalanceView['asset'],
      bucket: row.bucket,
      amount: formatAmount(toMinor(row.amount_minor), scales.get(row.asset)!),
    });
  }
  return { items: [...items.values()], total: count!.total };
}
