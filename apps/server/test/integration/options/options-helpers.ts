import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/persistence/db.ts';
import { toMinor } from '../../../src/persistence/ledger.store.ts';
import { call, fund, verifyUser, type WalletUser } from '../../helpers/wallet.ts';
import { registerViaApi } from '../../helpers/test-app.ts';

// Helpers for the contract tests (issue 7): a trader with USDT in the options account.

/** Credits a user's options account from the treasury (a `demo.fund` entry). */
export function fundOptions(db: Db, userId: string, amount: string) {
  return fund(db, userId, 'USDT', amount, 'options');
}

/** A verified user who accepted the disclosure, with `amount` USDT in the options account. */
export async function optionsTrader(app: FastifyInstance, db: Db, name: string, amount = '1000'): Promise<WalletUser> {
  const session = await registerViaApi(app, name);
  const user = { ...session, username: name };
  await verifyUser(db, user.userId);
  const accepted = await call(app, 'POST', '/home/options/disclosure', user.token, { version: 1 });
  if (accepted.code !== 200) throw new Error(`disclosure: ${accepted.msg}`);
  if (amount !== '0') await fundOptions(db, user.userId, amount);
  return user;
}

export async function optionsBalance(db: Db, userId: string) {
  const [row] = await db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1 AND kind = 'options' AND asset = 'USDT'`,
    [userId],
  );
  return { available: toMinor(row?.available_minor ?? 0), frozen: toMinor(row?.frozen_minor ?? 0) };
}

export async function houseBalance(db: Db) {
  const [row] = await db.query<{ available_minor: string }>(
    `SELECT available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'options_house' AND asset = 'USDT'`,
  );
  return toMinor(row?.available_minor ?? 0);
}

export const USDT = 1_000_000n;
