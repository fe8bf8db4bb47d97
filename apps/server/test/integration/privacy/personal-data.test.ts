import { allContracts, type StaffRole, staffRoles } from '@keel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { postAd, trader } from '../../helpers/p2p.ts';
import { recordInvitation } from '../../../src/use-cases/invitations/invite-rewards.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, call, fund, TEST_XPUB, type WalletUser } from '../../helpers/wallet.ts';

// Issue 13, defect 5 (ADR 0023): a user's e-mail address and phone number are never shown in
// full to anyone but the user and the staff roles whose work is the contact itself. The sweeps
// are generated from `allContracts`: a GET route added later is swept too, and one whose
// parameters the sweep cannot fill fails it until a value is added here.

interface Person extends WalletUser {
  email: string;
  phone: string;
}

let t: TestApp;
let clockMs = Date.now();
let seller: Person;
let buyer: Person;
let third: Person;
/** Ids the trade left behind, by the name of the path parameter that takes them. */
const ids: Record<string, string[]> = {};

/** A trader who registered by e-mail (no username) and bound a phone: with no nickname, only contacts could name them. */
async function contactOnlyTrader(name: string, email: string, phone: string, usdt = '0'): Promise<Person> {
  const user = await trader(t.app, t.db, name, usdt);
  await t.db.query('UPDATE users SET username = NULL, email = $2, phone = $3 WHERE id = $1', [user.userId, email, phone]);
  return { ...user, email, phone };
}

beforeAll(async () => {
  t = await createTestApp({ DEPOSIT_XPUB_TRON: TEST_XPUB }, { now: () => new Date(clockMs) });
  seller = await contactOnlyTrader('privseller1', 'mira.seller@example.org', '+491701234567', '1000');
  buyer = await contactOnlyTrader('privbuyer01', 'otto.buyer@example.net', '+447911123456');
  third = await contactOnlyTrader('privthird01', 'tina.third@example.com', '+14155550123');
  // The third registered with the seller's invite code (issue 20): the seller's invitation lists name them.
  await t.db.transaction(async (tx) => {
    const [row] = await tx.query<{ created_at: Date }>('UPDATE users SET invited_by = $2 WHERE id = $1 RETURNING created_at', [third.userId, seller.userId]);
    await recordInvitation(tx, t.config, BigInt(third.userId), BigInt(seller.userId), row!.created_at);
  });
  const support = await createStaff(t.app, t.db, 'appealdesk', ['support']);

  // The trade: an ad, three orders (appealed and released by support, awaiting payment,
  // cancelled), a chat both ways, each side's system messages.
  const ad = await postAd(t.app, seller, '600');
  const order = async () => {
    const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100' });
    if (placed.code !== 200) throw new Error(`place order: ${placed.msg}`);
    return placed.data.id as string;
  };
  const appealed = await order();
  const fromBuyer = await call(t.app, 'POST', `/home/p2p/orders/${appealed}/chat`, buyer.token, { text: 'Paid by IMPS' });
  const fromSeller = await call(t.app, 'POST', `/home/p2p/orders/${appealed}/chat`, seller.token, { text: 'Not received yet' });
  await call(t.app, 'POST', `/home/p2p/orders/${appealed}/paid`, buyer.token);
  clockMs += 16 * 60_000;
  const appeal = await call(t.app, 'POST', `/home/p2p/orders/${appealed}/appeal`, buyer.token, { reason: 'The seller does not release' });
  if (appeal.code !== 200) throw new Error(`appeal: ${appeal.msg}`);
  await call(t.app, 'POST', `/home/admin/p2p/appeals/${appealed}/resolve`, support, { outcome: 'release', note: 'Payment seen' });
  const waiting = await order();
  const cancelled = await order();
  await call(t.app, 'POST', `/home/p2p/orders/${cancelled}/cancel`, buyer.token);
  await postAd(t.app, seller, '50', { min: '1', max: '50' });

  // For the staff views: a deposit report and a withdrawal of the seller's (from the coin account;
  // trader() funded the fiat account, P2P's).
  await fund(t.db, seller.userId, 'USDT', '100');
  const deposit = await call(t.app, 'POST', '/home/wallet/deposits', seller.token, { channel: 'USDT-TRC20', amount: '10', txHash: '7'.repeat(64) });
  const addressId = await bindAddress(t.app, t.db, seller, 'tron', { usableNow: true });
  const withdrawal = await call(t.app, 'POST', '/home/wallet/withdrawals', seller.token, { channel: 'USDT-TRC20', addressId, amount: '20', paymentPassword: '135790' });
  if (deposit.code !== 200 || withdrawal.code !== 200) throw new Error(`deposit ${deposit.msg}, withdrawal ${withdrawal.msg}`);

  // A VIP application of the seller's in the compliance queue (issue 20): the queue names them by public name.
  await t.db.query(`INSERT INTO vip_applications (user_id, level, status, submitted_at) VALUES ($1, 3, 'in_review', $2)`, [seller.userId, new Date(clockMs)]);

  Object.assign(ids, {
    orderId: [appealed, waiting, cancelled],
    adId: [ad.id],
    messageId: [fromBuyer.data.id, fromSeller.data.id],
    depositId: [deposit.data.id],
    withdrawalId: [withdrawal.data.id],
    addressId: [addressId],
    // Routes that answer a file's bytes: no name can be in them, any id will do.
    uploadId: ['1'],
    // A submission is read by the roles that read contacts in full (admin, compliance) only.
    submissionId: ['1'],
    sessionId: ['1'],
    userId: [seller.userId],
    cardId: ['1'],
    // Positions and earn subscriptions hold no contact; staff views of positions name owners by public name.
    positionId: ['1'],
    subscriptionId: ['1'],
    // Loans hold no contact; the staff views name borrowers by public name.
    loanId: ['1'],
    // Funding requests name their borrower by public name; investments hold no contact.
    requestId: ['1'],
    investmentId: ['1'],
    // Proof-of-liabilities snapshots hold user ids (a proof is the caller's own), never a contact.
    snapshotId: ['1'],
    // Content (issue 20) is written by staff for everyone; it names no user. Images are bytes.
    itemId: ['1'],
    imageId: ['1'],
  });
  // Who a transfer would reach (issue 19): each of the three, by user number.
  requiredQueries['/home/assets/transfer-recipient'] = [seller, buyer, third].map((person) => `to=${person.userId}`);
});
afterAll(() => t?.close());

type AnyContract = (typeof allContracts)[number];

/** The values of a query field that is an enum (a scope, a status, `mine`), so every variant of a list is swept. */
function enumValues(field: z.ZodType): string[] {
  // biome-ignore lint/suspicious/noExplicitAny: zod's definitions are walked by their runtime shape.
  let schema: any = field;
  while (schema?.def?.innerType) schema = schema.def.innerType;
  return schema?.def?.type === 'enum' ? (schema.options as string[]) : [];
}

/** Queries a route needs to say anything (its defaults parse from nothing otherwise). */
const requiredQueries: Record<string, string | string[]> = {
  '/home/market/candles': 'symbol=BTC/USDT&interval=1m',
  '/home/loans/agreement': 'productId=1&amount=100&collateralAsset=USDT&collateralAmount=200',
  // A user's own bank details for C2C withdrawals (issue 19), by country.
  '/home/c2c/bank-details': 'country=DE',
  // Content (issue 20): a kind to list, words to search.
  '/home/content/items': 'kind=help',
  '/home/content/help/search': 'q=fees',
};

/** Every URL to sweep for a GET contract: each value of each path parameter, each enum value of the query. */
function urlsOf(contract: AnyContract): string[] {
  let paths = [contract.path];
  for (const [, name] of contract.path.matchAll(/:([A-Za-z]+)/g)) {
    const values = ids[name!];
    if (!values) throw new Error(`the sweep has no value for :${name} of ${contract.path}: add one to \`ids\``);
    paths = paths.flatMap((path) => values.map((value) => path.replace(`:${name}`, value)));
  }
  const required = requiredQueries[contract.path];
  const queries = Array.isArray(required) ? [...required] : [required ?? ''];
  const query = contract.query as z.ZodObject | undefined;
  if (query) {
    if (!requiredQueries[contract.path] && !query.safeParse({}).success) throw new Error(`add the query ${contract.path} needs to \`requiredQueries\``);
    for (const [key, field] of Object.entries(query.shape)) for (const value of enumValues(field as z.ZodType)) queries.push(`${key}=${value}`);
  }
  return paths.flatMap((path) => queries.map((text) => (text ? `${path}?${text}` : path)));
}

/** The contacts of `people` found in an answer, in full (the e-mail in any case, the phone with or without its +). */
function leaked(body: string, people: readonly Person[]): string[] {
  const text = body.toLowerCase();
  return people.flatMap((person) => [
    ...(text.includes(person.email) ? [person.email] : []),
    ...(text.includes(person.phone.slice(1)) ? [person.phone] : []),
  ]);
}

async function sweep(token: string, routes: readonly AnyContract[], others: readonly Person[]) {
  const found: string[] = [];
  let swept = 0;
  for (const contract of routes) {
    for (const url of urlsOf(contract)) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: token } });
      swept += 1;
      for (const contact of leaked(response.body, others)) found.push(`${url} shows ${contact}`);
    }
  }
  return { found, swept };
}

const userRoutes = allContracts.filter((contract) => contract.method === 'GET' && contract.caller !== 'staff');

describe('what users see of each other', () => {
  it('neither side of a trade, nor a third user, reads the other side\'s full e-mail or phone on any GET route', async () => {
    for (const [viewer, others] of [
      [seller, [buyer, third]],
      [buyer, [seller, third]],
      [third, [seller, buyer]],
    ] as const) {
      const { found, swept } = await sweep(viewer.token, userRoutes, others);
      expect(found, `as ${viewer.email}`).toEqual([]);
      expect(swept).toBeGreaterThan(userRoutes.length);
    }
  });

  it('names the counterparty with a masked contact, in the order, in the public ad list and in the appeal', async () => {
    const order = await call(t.app, 'GET', `/home/p2p/orders/${ids.orderId![0]}`, buyer.token);
    expect(order.data).toMatchObject({ sellerName: 'm***r@e***.org', buyerName: 'o***r@e***.net' });
    const ads = await call(t.app, 'GET', '/home/p2p/ads', third.token);
    expect(ads.data.items.map((ad: { ownerName: string }) => ad.ownerName)).toEqual(['m***r@e***.org', 'm***r@e***.org']);
    // The confirmation of a transfer to another user names them the same way.
    const recipient = await call(t.app, 'GET', `/home/assets/transfer-recipient?to=${seller.userId}`, third.token);
    expect(recipient.data).toEqual({ uid: seller.userId, name: 'm***r@e***.org' });
    // The people a user invited, masked (issue 20).
    const invitees = await call(t.app, 'GET', '/home/invitations/invitees', seller.token);
    expect(invitees.data.items.map((invitee: { name: string }) => invitee.name)).toEqual(['t***d@e***.com']);
  });

  it('still shows users their own contacts', async () => {
    const me = await call(t.app, 'GET', '/home/user/me', seller.token);
    expect(me.data).toMatchObject({ email: seller.email, phone: seller.phone });
  });
});

/** Who may list users, and whether they read contacts in full or masked (ADR 0023). */
const usersListAccess: Record<StaffRole, 'full' | 'masked' | 'refused'> = {
  admin: 'full',
  compliance: 'full',
  support: 'masked',
  finance: 'masked',
  content: 'refused',
  merchant: 'refused',
};

/**
 * Staff views whose subject is the contact itself, shown in full to every role allowed them: the
 * outbox holds messages for a person to deliver by hand, so the address is the point (ADR 0023).
 */
const contactViews = new Set(['/home/admin/notifications']);

describe('what staff see of users', () => {
  const tokens = new Map<StaffRole, string>();
  beforeAll(async () => {
    for (const role of staffRoles) tokens.set(role, await createStaff(t.app, t.db, `priv${role}`, [role]));
  });

  it('GET /home/admin/users: each staff role is refused, or reads contacts in full, or masked', async () => {
    for (const role of staffRoles) {
      const list = await call(t.app, 'GET', `/home/admin/users?q=${encodeURIComponent(seller.email)}`, tokens.get(role)!);
      const access = usersListAccess[role];
      if (access === 'refused') {
        expect({ role, code: list.code, msg: list.msg }).toEqual({ role, code: 403, msg: 'permission denied' });
        continue;
      }
      expect({ role, code: list.code }).toEqual({ role, code: 200 });
      const row = list.data.items.find((user: { id: string }) => user.id === seller.userId);
      expect(row, role).toBeDefined();
      if (access === 'full') {
        expect({ role, email: row.email, phone: row.phone }).toEqual({ role, email: seller.email, phone: seller.phone });
      } else {
        expect({ role, email: row.email, phone: row.phone }).toEqual({ role, email: 'm***r@e***.org', phone: '+49***67' });
        expect(leaked(JSON.stringify(list.data), [seller, buyer, third]), role).toEqual([]);
      }
      expect(list.data.contactsMasked, role).toBe(access === 'masked');
    }
  });

  it('a masked role finds a user by the whole contact, never by a fragment (no reading it back letter by letter)', async () => {
    const search = async (role: StaffRole, q: string) =>
      (await call(t.app, 'GET', `/home/admin/users?q=${encodeURIComponent(q)}`, tokens.get(role)!)).data.items.map((user: { id: string }) => user.id);
    for (const role of ['support', 'finance'] as const) {
      expect(await search(role, 'mira.sel'), role).toEqual([]);
      expect(await search(role, '+4917012'), role).toEqual([]);
      expect(await search(role, 'MIRA.SELLER@example.org'), role).toEqual([seller.userId]);
      expect(await search(role, '+49 170 1234567'), role).toEqual([seller.userId]);
    }
    expect(await search('admin', 'mira.sel')).toEqual([seller.userId]);
    expect(await search('compliance', '+4917012')).toEqual([seller.userId]);
  });

  it("a status change answers the user as the caller's role may see them", async () => {
    const changed = await call(t.app, 'PUT', `/home/admin/users/${third.userId}/status`, tokens.get('support')!, { status: 'active', reason: 'checked' });
    expect(changed.data).toMatchObject({ email: 't***d@e***.com', phone: '+1***23' });
    const byAdmin = await call(t.app, 'PUT', `/home/admin/users/${third.userId}/status`, tokens.get('admin')!, { status: 'active', reason: 'checked' });
    expect(byAdmin.data).toMatchObject({ email: third.email, phone: third.phone });
  });

  it('every staff view a role may open names users without their full contact, unless the role reads contacts in full', async () => {
    const staffRoutes = allContracts.filter((contract) => contract.method === 'GET' && contract.caller === 'staff');
    for (const role of staffRoles) {
      if (usersListAccess[role] === 'full') continue;
      const allowed = staffRoutes.filter(
        (contract) => !contactViews.has(contract.path) && (!contract.staffRoles?.length || contract.staffRoles.includes(role)),
      );
      const { found } = await sweep(tokens.get(role)!, allowed, [seller, buyer, third]);
      expect({ role, found }).toEqual({ role, found: [] });
    }
  });
});
