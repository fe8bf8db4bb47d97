import { loanDueAtMs, transferPostings } from '@keel/domain';
import type { Db } from '../../src/persistence/db.ts';
import { ensureUserAccount, postEntry } from '../../src/persistence/ledger.store.ts';
import { changeCommitted, lendingTreasuryAccount, loanNumber, lockBorrower } from '../../src/use-cases/loans/loans-support.ts';

// Passed loans written as an application and its approval write them (the pledge entry and hold, the
// loan row, the payout entry from the lending treasury, the borrower's committed credit), for tests
// that need many loans at once (the crash test); the API path is tested in loans.test.ts.

export interface LoanSeed {
  productId: bigint;
  userIds: readonly bigint[];
  perUser: number;
  amountMinor: bigint;
  collateralAsset: 'BTC' | 'ETH' | 'USDT';
  collateralMinor: bigint;
  /** When the loans were paid out. */
  startedAtMs: number;
  cycleDays: number;
  dailyRatePpm: number;
}

export async function seedPassedLoans(db: Db, seed: LoanSeed): Promise<bigint[]> {
  const ids: bigint[] = [];
  const at = new Date(seed.startedAtMs);
  for (const userId of seed.userIds) {
    await db.transaction(async (tx) => {
      await lockBorrower(tx, userId);
      const coin = await ensureUserAccount(tx, userId, 'coin', seed.collateralAsset);
      const usdtCoin = await ensureUserAccount(tx, userId, 'coin', 'USDT');
      const lender = await lendingTreasuryAccount(tx);
      const [upload] = await tx.query<{ id: bigint }>(
        `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
         VALUES ($1, 'loan_holding', $2, 'png', 1, 1, 1, $3) RETURNING id`,
        [userId, `seed/${userId}`, at],
      );
      for (let i = 0; i < seed.perUser; i += 1) {
        const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('loans', 'id')) AS id`)) as [{ id: bigint }];
        const loanNo = loanNumber(id, seed.startedAtMs);
        const pledge = await postEntry(tx, {
          reason: 'loan.pledge',
          referenceType: 'loan',
          referenceId: id.toString(),
          idempotencyKey: `loan.apply:${userId}:seed-${id}`,
          postings: [
            { accountId: coin, asset: seed.collateralAsset, bucket: 'available', amountMinor: -seed.collateralMinor },
            { accountId: coin, asset: seed.collateralAsset, bucket: 'frozen', amountMinor: seed.collateralMinor },
          ],
          at,
        });
        const [hold] = await tx.query<{ id: bigint }>(
          `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
           VALUES ($1, $2, 'loan', $3, $4, $5) RETURNING id`,
          [coin, seed.collateralMinor.toString(), id.toString(), pledge.entryId, at],
        );
        const disburse = await postEntry(tx, {
          reason: 'loan.disburse',
          referenceType: 'loan',
          referenceId: id.toString(),
          idempotencyKey: `loan.disburse:${id}`,
          postings: transferPostings(lender, usdtCoin, 'USDT', seed.amountMinor),
          at,
        });
        await tx.query(
          `INSERT INTO loans (id, loan_no, user_id, product_id, amount_minor, terms_version, cycle_days, daily_rate_ppm, margin_call_ltv_ppm,
             liquidation_ltv_ppm, agreement_accepted_at_ms, collateral_asset, collateral_minor, collateral_ltv_ppm, collateral_account_id, hold_id,
             pledge_entry_id, holding_upload_id, applied_at_ms, approvals_required, status, decided_at_ms, disburse_entry_id, started_at_ms, due_at_ms,
             principal_outstanding_minor)
           OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, 1, $6, $7, 800000, 900000, $8, $9, $10, 650000, $11, $12, $13, $14, $8, 1, 'passed', $8, $15, $8, $16, $5)`,
          [
            id,
            loanNo,
            userId,
            seed.productId,
            seed.amountMinor.toString(),
            seed.cycleDays,
            seed.dailyRatePpm,
            seed.startedAtMs,
            seed.collateralAsset,
            seed.collateralMinor.toString(),
            coin,
            hold!.id,
            pledge.entryId,
            upload!.id,
            disburse.entryId,
            loanDueAtMs(seed.startedAtMs, seed.cycleDays),
          ],
        );
        ids.push(id);
      }
      await changeCommitted(tx, userId, seed.amountMinor * BigInt(seed.perUser));
    });
  }
  return ids;
}
