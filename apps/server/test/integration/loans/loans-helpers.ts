import { randomUUID } from 'node:crypto';
import { type LoanTerms, parseAmount } from '@keel/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/persistence/db.ts';
import { toMinor } from '../../../src/persistence/ledger.store.ts';
import { insertLoanProduct } from '../../../src/use-cases/loans/loan-products.ts';
import { fundLendingTreasury } from '../../../src/use-cases/loans/loans-support.ts';
import { call, fund, verifyUser, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Helpers for the loan tests (issue 18): a product as an approved proposal writes it, a funded lending
// treasury, verified borrowers with collateral and a payment password, and their holding-ID photo.

export const usdt = (text: string) => parseAmount(text, 6);
export const btc = (text: string) => parseAmount(text, 8);

/** 30 days at 0.1 % a day; BTC at 65 %, ETH at 60 %, USDT at 75 %; margin call at 80 %, liquidation at 90 %. */
export function loanTerms(overrides: Partial<LoanTerms & { name: string }> = {}): LoanTerms & { name: string } {
  return {
    name: 'Loan 30 days',
    cycleDays: 30,
    dailyRatePpm: 1_000,
    minAmountMinor: usdt('100'),
    maxAmountMinor: usdt('50000'),
    collateral: [
      { asset: 'BTC', ltvPpm: 650_000 },
      { asset: 'ETH', ltvPpm: 600_000 },
      { asset: 'USDT', ltvPpm: 750_000 },
    ],
    marginCallLtvPpm: 800_000,
    liquidationLtvPpm: 900_000,
    ...overrides,
  };
}

export async function addLoanProduct(db: Db, terms = loanTerms()): Promise<string> {
  return db.transaction(async (tx) => (await insertLoanProduct(tx, terms, new Date())).toString());
}

export async function fundLender(db: Db, amount: string): Promise<void> {
  await db.transaction((tx) => fundLendingTreasury(tx, usdt(amount), new Date()));
}

/** A holding-ID photo row of the user's (the upload pipeline itself is tested through the API elsewhere). */
export async function holdingPhoto(db: Db, userId: string): Promise<string> {
  const [row] = await db.query<{ id: bigint }>(
    `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
     VALUES ($1, 'loan_holding', $2, 'png', 1, 1, 1, now()) RETURNING id`,
    [userId, `test/${randomUUID()}`],
  );
  return row!.id.toString();
}

export interface Borrower extends WalletUser {
  photo: string;
}

/** An identity-verified user (advanced too with `advanced`) with a payment password, collateral in the coin account and a holding photo. */
export async function borrower(
  app: FastifyInstance,
  db: Db,
  name: string,
  holdings: { BTC?: string; ETH?: string; USDT?: string } = { BTC: '1' },
  options: { advanced?: boolean; verified?: boolean } = {},
): Promise<Borrower> {
  const user = await walletUser(app, db, name, { ready: options.verified !== false });
  if (options.verified === false) {
    const answer = await call(app, 'PUT', '/home/user/payment-password', user.token, { loginPassword: 'secret12', paymentPassword: '135790', confirmPaymentPassword: '135790' });
    if (answer.code !== 200) throw new Error(`payment password: ${answer.msg}`);
  }
  if (options.advanced) await verifyUser(db, user.userId, ['advanced']);
  for (const [asset, amount] of Object.entries(holdings)) await fund(db, user.userId, asset as 'BTC', amount);
  return { ...user, photo: await holdingPhoto(db, user.userId) };
}

export function apply(
  app: FastifyInstance,
  user: Borrower,
  productId: string,
  input: { amount: string; collateralAsset?: string; collateralAmount?: string; agreementVersion?: number },
  key?: string,
) {
  return call(
    app,
    'POST',
    '/home/loans',
    user.token,
    {
      productId,
      amount: input.amount,
      collateralAsset: input.collateralAsset ?? 'BTC',
      collateralAmount: input.collateralAmount ?? '1',
      holdingUploadId: user.photo,
      agreementVersion: input.agreementVersion ?? 1,
      agreementAccepted: true,
      paymentPassword: '135790',
    },
    key,
  );
}

export function decide(app: FastifyInstance, staffToken: string, loanId: string, decision: 'approve' | 'reject', reason?: string) {
  return call(app, 'POST', `/home/admin/loans/${loanId}/decision`, staffToken, { decision, ...(reason ? { reason } : {}) }, null);
}

export function repay(app: FastifyInstance, user: WalletUser, loanId: string, body: { full: boolean; amount?: string }, key?: string) {
  return call(app, 'POST', `/home/loans/${loanId}/repay`, user.token, { ...body, paymentPassword: '135790' }, key);
}

export async function coin(db: Db, userId: string, asset: string) {
  const [row] = await db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1 AND kind = 'coin' AND asset = $2`,
    [userId, asset],
  );
  return { available: toMinor(row?.available_minor ?? 0), frozen: toMinor(row?.frozen_minor ?? 0) };
}

export async function lenderBalance(db: Db) {
  const [row] = await db.query<{ available_minor: string }>(
    `SELECT available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'treasury' AND label = 'lending' AND asset = 'USDT'`,
  );
  return toMinor(row?.available_minor ?? 0);
}
