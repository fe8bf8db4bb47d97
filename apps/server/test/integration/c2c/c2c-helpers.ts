import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { Db } from '../../../src/persistence/db.ts';
import { createStaff } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';

/** A valid German IBAN and BIC (the published examples), for withdrawals to DE. */
export const GERMAN_BANK = {
  payeeName: 'Ana Lee',
  bankName: 'Commerzbank',
  accountNumber: 'DE89 3704 0044 0532 0130 00',
  swiftCode: 'COBADEFF',
};

export interface Merchant {
  token: string;
  id: string;
}

/** The staff id of a member, by username. */
export async function staffIdOf(db: Db, username: string): Promise<string> {
  const [row] = await db.query<{ id: bigint }>('SELECT id FROM staff WHERE username = $1', [username]);
  return row!.id.toString();
}

/**
 * A merchant: a staff member with the merchant role, their profile saved (online, terms for
 * `country`), and — when `float` is given — their float funded by a house correction that
 * `finance` (two different finance members' tokens) propose and approve.
 */
export async function makeMerchant(
  app: FastifyInstance,
  db: Db,
  username: string,
  options: { country?: string; price?: string; minUsdt?: string; maxUsdt?: string; online?: boolean; float?: string; finance?: [string, string] },
): Promise<Merchant> {
  const token = await createStaff(app, db, username, ['merchant']);
  const id = await staffIdOf(db, username);
  const saved = await call(app, 'PUT', '/home/admin/c2c/merchant', token, {
    displayName: `Shop ${username}`,
    paymentDetails: `IBAN of ${username}: DE89370400440532013000`,
    online: options.online ?? true,
    terms: [{ country: options.country ?? 'DE', price: options.price ?? '0.92', minUsdt: options.minUsdt ?? '10', maxUsdt: options.maxUsdt ?? '1000' }],
  }, null);
  if (saved.code !== 200) throw new Error(`merchant profile: ${saved.msg}`);
  if (options.float) {
    const [maker, checker] = options.finance!;
    const proposed = await call(app, 'POST', '/home/admin/corrections', maker, {
      target: 'house',
      houseAccount: 'merchant_float',
      merchantId: id,
      asset: 'USDT',
      amount: options.float,
      reason: `Float deposited by merchant ${username}`,
    }, null);
    if (proposed.code !== 200) throw new Error(`float proposal: ${proposed.msg}`);
    const approved = await call(app, 'POST', `/home/admin/corrections/${proposed.data.id}/decision`, checker, { approve: true });
    if (approved.code !== 200) throw new Error(`float approval: ${approved.msg}`);
  }
  return { token, id };
}

/** The merchant's float as their console shows it. */
export async function floatOf(app: FastifyInstance, merchant: Merchant): Promise<{ available: string; held: string }> {
  const profile = await call(app, 'GET', '/home/admin/c2c/merchant', merchant.token);
  return { available: profile.data.float.available, held: profile.data.float.held };
}

/** A transaction screenshot uploaded by the user (purpose c2c_proof). */
export async function uploadProof(app: FastifyInstance, token: string): Promise<string> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();
  const response = await app.inject({
    method: 'POST',
    url: '/home/uploads/image?purpose=c2c_proof',
    headers: { authorization: token, 'content-type': 'image/png' },
    payload: png,
  });
  return (response.json() as { data: { uploadId: string } }).data.uploadId;
}

export const deposit = (app: FastifyInstance, token: string, body: Record<string, unknown>, key: string | null = randomUUID()) =>
  call(app, 'POST', '/home/c2c/deposits', token, { country: 'DE', amountIn: 'usdt', quotedPrice: '0.92', ...body }, key);

export const withdrawal = (app: FastifyInstance, token: string, body: Record<string, unknown>, key: string | null = randomUUID()) =>
  call(app, 'POST', '/home/c2c/withdrawals', token, { country: 'DE', amountIn: 'usdt', quotedPrice: '0.92', bankDetails: GERMAN_BANK, paymentPassword: '135790', ...body }, key);

export const merchantStep = (app: FastifyInstance, merchant: Merchant, requestId: string, step: string, body?: Record<string, unknown>) =>
  call(app, 'POST', `/home/admin/c2c/merchant/requests/${requestId}/${step}`, merchant.token, body);

/** The user's USDT in an account kind, as the assets page shows it. */
export async function usdtIn(app: FastifyInstance, token: string, kind: 'coin' | 'fiat'): Promise<{ available: string; frozen: string }> {
  const { accounts } = (await call(app, 'GET', '/home/assets/accounts', token)).data;
  const account = accounts.find((each: { kind: string; asset: string }) => each.kind === kind && each.asset === 'USDT');
  return { available: account?.available ?? '0.000000', frozen: account?.frozen ?? '0.000000' };
}
