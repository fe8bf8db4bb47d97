import type { Queryable } from '../../persistence/db.ts';
import { ensurePlatformAccount } from '../../persistence/ledger.store.ts';

/** C2C trades USDT only (issue 19). */
export const C2C_ASSET = 'USDT';
export const C2C_SCALE = 6;

/** A merchant's float's label: the `treasury` account 'merchant:<staff id>', never below zero (ADR 0043). */
export const merchantFloatLabel = (merchantId: bigint) => `merchant:${merchantId}`;

/** A merchant's USDT float: funded and drawn down only by house corrections (maker and checker). */
export function merchantFloatAccount(tx: Queryable, merchantId: bigint): Promise<bigint> {
  return ensurePlatformAccount(tx, 'treasury', C2C_ASSET, { label: merchantFloatLabel(merchantId), allowNegative: false });
}
