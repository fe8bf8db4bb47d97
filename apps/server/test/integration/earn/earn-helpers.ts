import { type EarnKind, parseAmount } from '@keel/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/persistence/db.ts';
import { toMinor } from '../../../src/persistence/ledger.store.ts';
import { type EarnProductTerms, fundEarnTreasury, insertEarnProduct } from '../../../src/use-cases/earn/earn-products.ts';
import { call, fund, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Helpers for the earn tests (issue 17): products as an approved staff proposal writes them, a funded
// earn treasury, and users with USDT in the coin account, a payment password and the terms acknowledged.

export const usdt = (text: string) => parseAmount(text, 6);

/** The spec's lock-up product: 0.3 % a day for 5 days, paid at 00:00 UTC, 0.4 % penalty per remaining day. */
export function specProduct(overrides: Partial<EarnProductTerms> = {}): EarnProductTerms {
  return {
    kind: 'lockup' as EarnKind,
    name: 'Mining 5 days',
    asset: 'USDT',
    cycleDays: 5,
    dailyRatePpm: 3_000,
    penaltyRatePpm: 4_000,
    payoutMinuteUtc: 0,
    earlyRedemption: true,
    minAmountMinor: usdt('100'),
    maxAmountMinor: usdt('100000'),
    userQuotaMinor: usdt('200000'),
    totalQuotaMinor: usdt('1000000'),
    ...overrides,
  };
}

export async function addProduct(db: Db, terms: EarnProductTerms, at = new Date()): Promise<string> {
  return db.transaction(async (tx) => (await insertEarnProduct(tx, terms, at)).toString());
}

export async function fundTreasury(db: Db, amount: string, asset = 'USDT'): Promise<void> {
  await db.transaction((tx) => fundEarnTreasury(tx, asset, parseAmount(amount, 6), new Date()));
}

/** A user with `amount` USDT in the coin account, a payment password (135790) and the earn terms acknowledged. */
export async function earnUser(app: FastifyInstance, db: Db, name: string, amount = '10000'): Promise<WalletUser> {
  const user = await walletUser(app, db, name, { ready: true });
  const acknowledged = await call(app, 'POST', '/home/earn/acknowledgement', user.token, { version: 1 });
  if (acknowledged.code !== 200) throw new Error(`acknowledgement: ${acknowledged.msg}`);
  if (amount !== '0') await fund(db, user.userId, 'USDT', amount);
  return user;
}

export function subscribe(app: FastifyInstance, user: WalletUser, productId: string, amount: string, key?: string) {
  return call(app, 'POST', '/home/earn/subscriptions', user.token, { productId, amount, paymentPassword: '135790', termsVersion: 1 }, key);
}

export async function accountBalance(db: Db, userId: string, kind: 'coin' | 'defi') {
  const [row] = await db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1 AND kind = $2 AND asset = 'USDT'`,
    [userId, kind],
  );
  return { available: toMinor(row?.available_minor ?? 0), frozen: toMinor(row?.frozen_minor ?? 0) };
}

export async function earnTreasuryBalance(db: Db) {
  const [row] = await db.query<{ available_minor: string }>(
    `SELECT available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'treasury' AND label = 'earn' AND asset = 'USDT'`,
  );
  return toMinor(row?.available_minor ?? 0);
}
