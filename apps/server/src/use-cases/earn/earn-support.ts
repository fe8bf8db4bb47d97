import type { Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount, toMinor } from '../../persistence/ledger.store.ts';

/** The platform account that pays the yield and receives penalties: the treasury's earn account, never below zero (ADR 0035). */
export const EARN_TREASURY_LABEL = 'earn';

/** The earn treasury of an asset (made on first use). */
export function earnTreasuryAccount(tx: Queryable, asset: string): Promise<bigint> {
  return ensurePlatformAccount(tx, 'treasury', asset, { label: EARN_TREASURY_LABEL, allowNegative: false });
}

/**
 * Locks the asset's obligations row (made on first use) and returns what every active subscription
 * is still owed. Lock order of every earn writer: subscription rows, product rows, this row, ledger accounts.
 */
export async function lockObligations(tx: Queryable, asset: string): Promise<bigint> {
  await tx.query('INSERT INTO earn_obligations (asset) VALUES ($1) ON CONFLICT DO NOTHING', [asset]);
  const [row] = await tx.query<{ owed_minor: string }>('SELECT owed_minor::text AS owed_minor FROM earn_obligations WHERE asset = $1 FOR UPDATE', [asset]);
  return toMinor(row!.owed_minor);
}
