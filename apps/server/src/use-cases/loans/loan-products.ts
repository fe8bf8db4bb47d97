import type { z } from 'zod';
import type { loanProductSchema } from '@keel/contracts';
import { type CollateralTerm, formatAmount, LOAN_ASSET, LOAN_ASSET_SCALE, type LoanTerms, loanTermsProblem, ppmAsPercent } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';

// Loan products (issue 18, ADR 0036): their terms as stored, as shown, and as the domain judges
// them. Products are written only when a second admin approves a proposal (`staff-products.ts`),
// and by the demo seed and tests; never from a user's call.

export type LoanProductView = z.infer<typeof loanProductSchema>;

/** A product as staff propose it: the terms the domain judges, its name, and whether it takes applications. */
export interface LoanProductTerms extends LoanTerms {
  name: string;
  /** Open to new applications (default true). */
  open?: boolean;
}

export interface LoanProductRow {
  id: bigint;
  name: string;
  cycle_days: number;
  daily_rate_ppm: number;
  min_amount_minor: string;
  max_amount_minor: string;
  /** jsonb: [{ asset, ltvPpm }] */
  collateral: CollateralTerm[];
  margin_call_ltv_ppm: number;
  liquidation_ltv_ppm: number;
  open: boolean;
  terms_version: number;
}

/** Columns of `loan_products` as `LoanProductRow` reads them (amounts as text: numeric(78, 0)). */
export const LOAN_PRODUCT_COLUMNS = `id, name, cycle_days, daily_rate_ppm, min_amount_minor::text AS min_amount_minor,
  max_amount_minor::text AS max_amount_minor, collateral, margin_call_ltv_ppm, liquidation_ltv_ppm, open, terms_version`;

/** The stored collateral, whatever the driver hands back for jsonb (parsed or text). */
function collateralOf(value: unknown): CollateralTerm[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return (parsed as { asset: string; ltvPpm: number }[]).map((each) => ({ asset: each.asset, ltvPpm: Number(each.ltvPpm) }));
}

/** A row's terms as the domain's rules take them. */
export function loanProductTerms(row: LoanProductRow): LoanTerms {
  return {
    cycleDays: row.cycle_days,
    dailyRatePpm: row.daily_rate_ppm,
    minAmountMinor: toMinor(row.min_amount_minor),
    maxAmountMinor: toMinor(row.max_amount_minor),
    collateral: collateralOf(row.collateral),
    marginCallLtvPpm: row.margin_call_ltv_ppm,
    liquidationLtvPpm: row.liquidation_ltv_ppm,
  };
}

/** A product as every caller reads it: rates and ratios as percent strings with four decimals (and their ppm), amounts in USDT. */
export function loanProductView(row: LoanProductRow): LoanProductView {
  return {
    id: row.id.toString(),
    name: row.name,
    asset: LOAN_ASSET,
    cycleDays: row.cycle_days,
    dailyRatePercent: ppmAsPercent(row.daily_rate_ppm),
    dailyRatePpm: row.daily_rate_ppm,
    minAmount: formatAmount(toMinor(row.min_amount_minor), LOAN_ASSET_SCALE),
    maxAmount: formatAmount(toMinor(row.max_amount_minor), LOAN_ASSET_SCALE),
    collateral: collateralOf(row.collateral).map((each) => ({ asset: each.asset, ltvPercent: ppmAsPercent(each.ltvPpm), ltvPpm: each.ltvPpm })),
    marginCallLtvPercent: ppmAsPercent(row.margin_call_ltv_ppm),
    liquidationLtvPercent: ppmAsPercent(row.liquidation_ltv_ppm),
    open: row.open,
    termsVersion: row.terms_version,
  };
}

/** The collateral as stored: only the two fields, in the order given. */
export const collateralJson = (collateral: readonly CollateralTerm[]): string =>
  JSON.stringify(collateral.map((each) => ({ asset: each.asset, ltvPpm: each.ltvPpm })));

/**
 * Writes a product whose terms pass the domain's rules (terms version 1). Called when a second
 * admin approves a proposed product, and by the demo seed and tests.
 */
export async function insertLoanProduct(tx: Queryable, terms: LoanProductTerms, at: Date): Promise<bigint> {
  const problem = loanTermsProblem(terms);
  if (problem) throw new RangeError(`loan product terms refused: ${problem}`);
  const [row] = await tx.query<{ id: bigint }>(
    `INSERT INTO loan_products (name, cycle_days, daily_rate_ppm, min_amount_minor, max_amount_minor, collateral, margin_call_ltv_ppm,
       liquidation_ltv_ppm, open, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $10) RETURNING id`,
    [
      terms.name,
      terms.cycleDays,
      terms.dailyRatePpm,
      terms.minAmountMinor.toString(),
      terms.maxAmountMinor.toString(),
      collateralJson(terms.collateral),
      terms.marginCallLtvPpm,
      terms.liquidationLtvPpm,
      terms.open ?? true,
      at,
    ],
  );
  return row!.id;
}

/** Every product (or only those open to applications), in the order they were made. */
export async function readLoanProducts(db: Queryable, options: { openOnly?: boolean } = {}): Promise<LoanProductView[]> {
  const rows = await db.query<LoanProductRow>(`SELECT ${LOAN_PRODUCT_COLUMNS} FROM loan_products${options.openOnly ? ' WHERE open' : ''} ORDER BY id`);
  return rows.map(loanProductView);
}

/** One product's row (locked with `forUpdate`), or undefined. */
export async function findLoanProductRow(db: Queryable, id: bigint | string, options: { forUpdate?: boolean } = {}): Promise<LoanProductRow | undefined> {
  const [row] = await db.query<LoanProductRow>(`SELECT ${LOAN_PRODUCT_COLUMNS} FROM loan_products WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}
