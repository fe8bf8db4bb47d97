import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/persistence/db.ts';
import { call, fund, verifyUser, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Helpers for the fund tests (issue 18, ADR 0037): borrowers with advanced verification and
// collateral, investors with USDT, and the calls the pages make.

/** An advanced-verified borrower with a payment password (135790) and `holdings` in the coin account. */
export async function fundBorrower(app: FastifyInstance, db: Db, name: string, holdings: Partial<Record<'BTC' | 'ETH' | 'USDT', string>> = { BTC: '1' }) {
  const user = await walletUser(app, db, name, { ready: true });
  await verifyUser(db, user.userId, ['advanced']);
  for (const [asset, amount] of Object.entries(holdings)) await fund(db, user.userId, asset as 'BTC', amount);
  return user;
}

/** A verified investor with a payment password and `usdt` in the coin account. */
export async function investor(app: FastifyInstance, db: Db, name: string, usdt = '10000') {
  const user = await walletUser(app, db, name, { ready: true });
  if (usdt !== '0') await fund(db, user.userId, 'USDT', usdt);
  return user;
}

export const requestBody = (overrides: Record<string, unknown> = {}) => ({
  borrowerType: 'institution',
  title: 'Working capital for a bakery',
  purpose: 'Two new ovens; repaid from sales.',
  amount: '10000',
  dailyRatePercent: '0.05',
  termDays: 30,
  tranches: 2,
  releasePeriodDays: 10,
  windowHours: 72,
  collateralAsset: 'BTC',
  collateralAmount: '1',
  paymentPassword: '135790',
  ...overrides,
});

export function publish(app: FastifyInstance, user: WalletUser, overrides: Record<string, unknown> = {}, key?: string) {
  return call(app, 'POST', '/home/fund/requests', user.token, requestBody(overrides), key);
}

export function invest(app: FastifyInstance, user: WalletUser, requestId: string, amount: string, key?: string) {
  return call(app, 'POST', `/home/fund/requests/${requestId}/investments`, user.token, { amount, paymentPassword: '135790' }, key);
}

export function review(app: FastifyInstance, staffToken: string, requestId: string, decision: 'approve' | 'reject', reason?: string) {
  return call(app, 'POST', `/home/admin/fund/requests/${requestId}/decision`, staffToken, { decision, ...(reason ? { reason } : {}) }, null);
}
