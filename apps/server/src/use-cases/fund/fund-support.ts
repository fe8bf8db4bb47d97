import { LOAN_ASSET } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount, toMinor } from '../../persistence/ledger.store.ts';

/** The fund escrow: investors' money between a request's fill and its tranches' release — the `treasury` account labelled 'fund', never below zero (ADR 0037). */
export const FUND_ESCROW_LABEL = 'fund';

export function fundEscrowAccount(tx: Queryable): Promise<bigint> {
  return ensurePlatformAccount(tx, 'treasury', LOAN_ASSET, { label: FUND_ESCROW_LABEL, allowNegative: false });
}

/** The escrow's ledger balance, read without creating the account. */
export async function escrowView(db: Queryable): Promise<{ accountId: bigint | null; balanceMinor: bigint }> {
  const [row] = await db.query<{ id: bigint; available_minor: string }>(
    `SELECT id, available_minor::text AS available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'treasury' AND label = $1 AND asset = $2`,
    [FUND_ESCROW_LABEL, LOAN_ASSET],
  );
  return { accountId: row?.id ?? null, balanceMinor: row ? toMinor(row.available_minor) : 0n };
}

/** The numbers a person quotes: F (request) or V (investment), the UTC day, the id. */
export function fundRequestNumber(id: bigint, atMs: number): string {
  return `F${new Date(atMs).toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
}

export function fundInvestmentNumber(id: bigint, atMs: number): string {
  return `V${new Date(atMs).toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
}
