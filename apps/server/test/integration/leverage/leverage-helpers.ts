import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/persistence/db.ts';
import { toMinor } from '../../../src/persistence/ledger.store.ts';
import { registerViaApi } from '../../helpers/test-app.ts';
import { call, fund, verifyUser, type WalletUser } from '../../helpers/wallet.ts';

// Helpers for the leveraged and futures tests (issue 16): a trader with USDT in the leveraged account.

/** A verified user who accepted the disclosure, with `amount` USDT in the leveraged account. */
export async function leverageTrader(app: FastifyInstance, db: Db, name: string, amount = '1000'): Promise<WalletUser> {
  const session = await registerViaApi(app, name);
  const user = { ...session, username: name };
  await verifyUser(db, user.userId);
  const accepted = await call(app, 'POST', '/home/leverage/disclosure', user.token, { version: 1 });
  if (accepted.code !== 200) throw new Error(`disclosure: ${accepted.msg}`);
  if (amount !== '0') await fund(db, user.userId, 'USDT', amount, 'leveraged');
  return user;
}

export async function leveragedBalance(db: Db, userId: string) {
  const [row] = await db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1 AND kind = 'leveraged' AND asset = 'USDT'`,
    [userId],
  );
  return { available: toMinor(row?.available_minor ?? 0), frozen: toMinor(row?.frozen_minor ?? 0) };
}

/** The balance of a USDT platform account (0 before it exists). */
export async function platformBalance(db: Db, kind: 'leverage_house' | 'insurance_fund' | 'fees', label = '') {
  const [row] = await db.query<{ available_minor: string }>(
    `SELECT available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = $1 AND label = $2 AND asset = 'USDT'`,
    [kind, label],
  );
  return toMinor(row?.available_minor ?? 0);
}

export const USDT = 1_000_000n;
