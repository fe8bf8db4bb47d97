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

/** Scale of every asset the ledger knows. */
export async function assetScales(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ code: string; scale: number }>('SELECT code, scale FROM ledger_assets');
  return new Map(rows.map((row) => [row.code, row.scale]));
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
