import { randomUUID } from 'node:crypto';
import { parseAmount, transferPostings } from '@keel/domain';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/persistence/db.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, type UserAccountKind } from '../../src/persistence/ledger.store.ts';
import { registerViaApi } from './test-app.ts';

// Helpers for the wallet's integration tests (issue 5): users at a verification tier, funded through
// the ledger, with a payment password and bound addresses, and calls as the app makes them.

/** A public extended key: BIP32 test vector 1 at m/0'. Its addresses are derived at 0/i. */
export const TEST_XPUB = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';

/** Real, valid addresses of each network (BIP173 and EIP-55 examples, the TRON USDT contract). */
export const VALID_ADDRESSES = {
  bitcoin: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  ethereum: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
} as const;

const scales: Record<string, number> = { USDT: 6, BTC: 8, ETH: 18 };

export interface WalletUser {
  token: string;
  userId: string;
  username: string;
}

export interface Call {
  code: number;
  msg: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field; their shape is the contract's.
  data: any;
}

/** Calls the API as a client does; money-moving calls get a fresh Idempotency-Key unless one is given. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string | null,
  body?: unknown,
  idempotencyKey: string | null = randomUUID(),
): Promise<Call> {
  const response = await app.inject({
    method,
    url,
    headers: { ...(token ? { authorization: token } : {}), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  return response.json() as Call;
}

/** Marks a verification level verified, as a compliance approval would (photos are placeholder upload rows). */
export async function verifyUser(db: Db, userId: string, levels: readonly ('identity' | 'advanced')[] = ['identity']) {
  for (const level of levels) {
    const [upload] = await db.query<{ id: bigint }>(
      `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
       VALUES ($1, 'verification', $2, 'png', 1, 1, 1, now()) RETURNING id`,
      [userId, `test/${randomUUID()}`],
    );
    await db.query(
      `INSERT INTO verification_submissions (user_id, level, status, fields, front_upload_id, back_upload_id, holding_upload_id, submitted_at, reviewed_at)
       VALUES ($1, $2, 'verified', '{}', $3, $3, $3, now(), now())`,
      [userId, level, upload!.id],
    );
  }
}

/** Credits a user's account (the coin account unless told) from the treasury (a `demo.fund` entry, as the demo seed does). */
export async function fund(db: Db, userId: string, asset: 'USDT' | 'BTC' | 'ETH', amount: string, kind: UserAccountKind = 'coin') {
  await db.transaction(async (tx) => {
    const treasury = await ensurePlatformAccount(tx, 'treasury', asset, { allowNegative: true });
    const coin = await ensureUserAccount(tx, BigInt(userId), kind, asset);
    await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, coin, asset, parseAmount(amount, scales[asset]!)), at: new Date() });
  });
}

export async function setPaymentPassword(app: FastifyInstance, user: WalletUser, paymentPassword = '135790') {
  const answer = await call(app, 'PUT', '/home/user/payment-password', user.token, {
    loginPassword: 'secret12',
    paymentPassword,
    confirmPaymentPassword: paymentPassword,
  });
  if (answer.code !== 200) throw new Error(`payment password: ${answer.msg}`);
}

/** A registered user; `ready` makes them identity-verified with a payment password set. */
export async function walletUser(app: FastifyInstance, db: Db, name: string, options: { ready?: boolean } = {}): Promise<WalletUser> {
  const session = await registerViaApi(app, name);
  const user = { ...session, username: name };
  if (options.ready) {
    await verifyUser(db, user.userId);
    await setPaymentPassword(app, user);
  }
  return user;
}

/** Adds an address to the user's book and, with `usableNow`, moves its creation back past the hold. */
export async function bindAddress(app: FastifyInstance, db: Db, user: WalletUser, network: keyof typeof VALID_ADDRESSES, options: { usableNow?: boolean } = {}) {
  const answer = await call(app, 'POST', '/home/wallet/addresses', user.token, { network, address: VALID_ADDRESSES[network], label: `my ${network}` });
  if (answer.code !== 200) throw new Error(`bind address: ${answer.msg}`);
  if (options.usableNow) await db.query(`UPDATE withdrawal_addresses SET created_at = now() - interval '30 days' WHERE id = $1`, [answer.data.id]);
  return answer.data.id as string;
}

export async function coinBalance(db: Db, userId: string, asset: string) {
  const [row] = await db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1 AND kind = 'coin' AND asset = $2`,
    [userId, asset],
  );
  return { availableMinor: BigInt(row?.available_minor ?? 0), frozenMinor: BigInt(row?.frozen_minor ?? 0) };
}
