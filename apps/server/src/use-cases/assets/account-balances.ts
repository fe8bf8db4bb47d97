import { formatAmount } from '@keel/domain';
import { userAccountKinds } from '@keel/contracts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';

export interface BalanceView {
  kind: (typeof userAccountKinds)[number];
  asset: 'USDT' | 'BTC' | 'ETH';
  available: string;
  frozen: string;
}

/** Each database's asset scales, read once (by the pool or transaction object it was read through). */
const scalesByDatabase = new WeakMap<Queryable, Promise<ReadonlyMap<string, number>>>();

/**
 * Scale of every asset the ledger knows. `ledger_assets` is reference data that only migrations
 * write, and they run before a process serves, so it is read once per database object and kept
 * (issue 15: one statement per read); a failed read is not kept.
 */
export function assetScales(db: Queryable): Promise<ReadonlyMap<string, number>> {
  let scales = scalesByDatabase.get(db);
  if (!scales) {
    scales = db.query<{ code: string; scale: number }>('SELECT code, scale FROM ledger_assets').then((rows) => new Map(rows.map((row) => [row.code, row.scale])));
    scalesByDatabase.set(db, scales);
    const kept = scales;
    kept.catch(() => {
      if (scalesByDatabase.get(db) === kept) scalesByDatabase.delete(db);
    });
  }
  return scales;
}

/** Every account type × asset of a user, zero where no account row exists yet. */
export async function listUserBalances(db: Queryable, userId: bigint): Promise<BalanceView[]> {
  const scales = await assetScales(db);
  const rows = await db.query<{ kind: string; asset: string; available_minor: string; frozen_minor: string }>(
    'SELECT kind, asset, available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1',
    [userId],
  );
  const byKey = new Map(rows.map((row) => [`${row.kind}/${row.asset}`, row]));
  const views: BalanceView[] = [];
  for (const kind of userAccountKinds) {
    for (const [asset, scale] of [...scales].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const row = byKey.get(`${kind}/${asset}`);
      views.push({
        kind,
        asset: asset as BalanceView['asset'],
        available: formatAmount(row ? toMinor(row.available_minor) : 0n, scale),
        frozen: formatAmount(row ? toMinor(row.frozen_minor) : 0n, scale),
      });
    }
  }
  return views;
}
