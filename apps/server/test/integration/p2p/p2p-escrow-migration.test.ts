import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { placeHold } from '../../../src/persistence/ledger-holds.store.ts';
import { ensureUserAccount } from '../../../src/persistence/ledger.store.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { escrowMismatches, fiatBalance, postBuyAd, trader } from '../../helpers/p2p.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, coinBalance, fund, type WalletUser } from '../../helpers/wallet.ts';

// P2P escrow moves from the coin account to the fiat account (decisions page, "Account types"). The
// migration 20261128001000_p2p_escrow_fiat.sql moves every open P2P hold still on a coin account:
// here the old state is built with the ledger functions as the old code wrote it — sell ads and an
// order on a buy ad held on coin accounts, one of the ads closed with an order still open, and a
// closed hold that must stay where it is — then the migration runs through `migrate` as a server
// start runs it (on PGlite or PostgreSQL, as the suite runs), and the holds, balances, entries and
// the ledger check are proved; then the migrated escrow is released, refunded and returned, each
// to and from the fiat accounts.

const USDT = 1_000_000n;
const MIGRATION = '20261128001000_p2p_escrow_fiat.sql';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const nextId = async (table: string) =>
  ((await t.db.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id`))[0]!).id;

/** A sell ad as the old code posted it: its whole quantity held on the owner's coin account. */
async function oldSellAd(owner: WalletUser, totalMinor: bigint) {
  const id = await nextId('p2p_ads');
  await t.db.transaction(async (tx) => {
    const coin = await ensureUserAccount(tx, BigInt(owner.userId), 'coin', 'USDT');
    const { holdId } = await placeHold(tx, { accountId: coin, amountMinor: totalMinor, referenceType: 'p2p_ad', referenceId: id.toString(), at: new Date() });
    await tx.query(
      `INSERT INTO p2p_ads (id, owner_id, side, asset, fiat, price_fiat_minor, min_minor, max_minor, total_minor, remaining_minor,
         payment_window_minutes, contact, remark, hold_id, created_at, updated_at)
       OVERRIDING SYSTEM VALUE VALUES ($1, $2, 'sell', 'USDT', 'INR', 8550, $3, $4, $4, $4, 15, 'UPI seller@bank', '', $5, now(), now())`,
      [id, owner.userId, (10n * USDT).toString(), totalMinor.toString(), holdId],
    );
  });
  return id.toString();
}

/** An order on a buy ad as the old code placed it: the seller's quantity held on their coin account. */
async function oldBuyAdOrder(seller: WalletUser, adId: string, quantityMinor: bigint) {
  const id = await nextId('p2p_orders');
  await t.db.transaction(async (tx) => {
    const [ad] = await tx.query<{ owner_id: bigint }>('SELECT owner_id FROM p2p_ads WHERE id = $1 FOR UPDATE', [adId]);
    const coin = await ensureUserAccount(tx, BigInt(seller.userId), 'coin', 'USDT');
    const { holdId } = await placeHold(tx, { accountId: coin, amountMinor: quantityMinor, referenceType: 'p2p_order', referenceId: id.toString(), at: new Date() });
    await tx.query(
      `INSERT INTO p2p_orders (id, order_no, ad_id, buyer_id, seller_id, asset, fiat, quantity_minor, price_fiat_minor, total_fiat_minor, remark,
         payment_deadline, created_at, ad_side, hold_id, seller_contact)
       OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, 'USDT', 'INR', $6, 8550, $7, '', now() + interval '15 minutes', now(), 'buy', $8, 'SEPA DE89')`,
      [id, `P20261128${id.toString().padStart(8, '0')}`, adId, ad!.owner_id, seller.userId, quantityMinor.toString(), ((quantityMinor * 8550n) / USDT).toString(), holdId],
    );
    await tx.query('UPDATE p2p_ads SET remaining_minor = remaining_minor - $2 WHERE id = $1', [adId, quantityMinor.toString()]);
  });
  return id.toString();
}

interface HoldRow {
  id: string;
  reference_type: string;
  reference_id: string;
  status: string;
  amount_minor: string;
  user_id: string;
  kind: string;
}
const p2pHolds = () =>
  t.db.query<HoldRow>(
    `SELECT h.id::text, h.reference_type, h.reference_id, h.status, h.amount_minor::text, a.user_id::text, a.kind
       FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
      WHERE h.reference_type IN ('p2p_ad', 'p2p_order') ORDER BY h.id`,
  );
const step = (token: string, orderId: string, what: 'paid' | 'cancel' | 'release', body?: unknown) =>
  call(t.app, 'POST', `/home/p2p/orders/${orderId}/${what}`, token, body);

describe('the migration of open P2P escrow from coin accounts to fiat accounts', () => {
  it('moves each open hold with one entry, keeps the ledger whole, and the moved escrow then pays out to and returns into fiat accounts', async () => {
    const alice = await trader(t.app, t.db, 'migalice01');
    const bob = await trader(t.app, t.db, 'migbob01');
    const carol = await trader(t.app, t.db, 'migcarol01');
    const dave = await trader(t.app, t.db, 'migdave01');
    await fund(t.db, alice.userId, 'USDT', '1000');
    await fund(t.db, dave.userId, 'USDT', '100');
    // Dave has a fiat account already (Alice gets hers from the migration).
    await fund(t.db, dave.userId, 'USDT', '5', 'fiat');

    // The old state. Alice's open sell ad (300) with Bob's order of 100 on it; her second ad (200)
    // with Bob's order of 50, then closed (150 back to her coin account, 50 still held for the order).
    const openAd = await oldSellAd(alice, 300n * USDT);
    const onOpenAd = await call(t.app, 'POST', '/home/p2p/orders', bob.token, { adId: openAd, quantity: '100' });
    expect(onOpenAd.code).toBe(200);
    const closedAd = await oldSellAd(alice, 200n * USDT);
    const onClosedAd = await call(t.app, 'POST', '/home/p2p/orders', bob.token, { adId: closedAd, quantity: '50' });
    expect(onClosedAd.code).toBe(200);
    expect((await call(t.app, 'POST', `/home/p2p/ads/${closedAd}/close`, alice.token)).data).toMatchObject({ status: 'closed' });
    // Carol's buy ad, Dave's order of 40 into it held on his coin account, and his order of 10 that
    // Carol cancelled (its hold released on the coin account: closed holds stay where they are).
    const buyAd = await postBuyAd(t.app, carol, '100');
    const daveOrder = await oldBuyAdOrder(dave, buyAd.id, 40n * USDT);
    const cancelledOrder = await oldBuyAdOrder(dave, buyAd.id, 10n * USDT);
    expect((await step(carol.token, cancelledOrder, 'cancel')).data).toMatchObject({ status: 'cancelled' });

    expect(await coinBalance(t.db, alice.userId, 'USDT')).toEqual({ availableMinor: 650n * USDT, frozenMinor: 350n * USDT });
    expect(await coinBalance(t.db, dave.userId, 'USDT')).toEqual({ availableMinor: 60n * USDT, frozenMinor: 40n * USDT });
    const fiatAccounts = async () =>
      (await t.db.query<{ user_id: string }>(`SELECT user_id::text FROM ledger_accounts WHERE kind = 'fiat' AND user_id = ANY($1::bigint[]) ORDER BY user_id`, [[alice.userId, dave.userId]])).map((row) => row.user_id);
    expect(await fiatAccounts()).toEqual([dave.userId]);
    const before = await p2pHolds();
    expect(before.map((hold) => [hold.reference_type, hold.status, hold.kind, hold.amount_minor])).toEqual([
      ['p2p_ad', 'open', 'coin', (300n * USDT).toString()],
      ['p2p_ad', 'open', 'coin', (50n * USDT).toString()],
      ['p2p_order', 'open', 'coin', (40n * USDT).toString()],
      ['p2p_order', 'released', 'coin', (10n * USDT).toString()],
    ]);
    // The ledger check names exactly these open holds as not on a fiat account.
    const problems = (await checkLedger(t.db)).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^P2P escrow holds not on their trader's fiat account: /);
    const flagged = JSON.parse(problems[0]!.replace(/^[^:]+: /, '')).map((row: { id: string }) => row.id);
    expect(flagged.sort()).toEqual(before.slice(0, 3).map((hold) => hold.id).sort());

    // The migration, as a server start applies it (it ran once on the empty database already).
    await t.db.query('DELETE FROM schema_migrations WHERE name = $1', [MIGRATION]);
    expect(await migrate(t.db)).toEqual([MIGRATION]);

    expect(await fiatAccounts()).toEqual([alice.userId, dave.userId].sort((x, y) => Number(BigInt(x) - BigInt(y))));
    const after = await p2pHolds();
    expect(after.map((hold) => [hold.id, hold.reference_id, hold.status, hold.amount_minor])).toEqual(before.map((hold) => [hold.id, hold.reference_id, hold.status, hold.amount_minor]));
    expect(after.map((hold) => [hold.user_id, hold.kind])).toEqual([
      [alice.userId, 'fiat'],
      [alice.userId, 'fiat'],
      [dave.userId, 'fiat'],
      [dave.userId, 'coin'],
    ]);
    // Only the frozen parts moved; nothing was made available, nothing lost.
    expect(await coinBalance(t.db, alice.userId, 'USDT')).toEqual({ availableMinor: 650n * USDT, frozenMinor: 0n });
    expect(await fiatBalance(t.db, alice.userId)).toEqual({ availableMinor: 0n, frozenMinor: 350n * USDT });
    expect(await coinBalance(t.db, dave.userId, 'USDT')).toEqual({ availableMinor: 60n * USDT, frozenMinor: 0n });
    expect(await fiatBalance(t.db, dave.userId)).toEqual({ availableMinor: 5n * USDT, frozenMinor: 40n * USDT });
    // One entry per moved hold, naming the hold's ad or order, with two frozen postings.
    const entries = await t.db.query<{ id: string; reference_type: string; reference_id: string; postings_hash: string; idempotency_key: string | null; memo: string }>(
      `SELECT e.id::text, e.reference_type, e.reference_id, e.postings_hash, e.idempotency_key, e.memo FROM journal_entries e
        WHERE e.reason = 'p2p.escrow_moved' ORDER BY e.id`,
    );
    expect(entries.map((entry) => [entry.reference_type, entry.reference_id, entry.postings_hash, entry.idempotency_key])).toEqual(
      before.slice(0, 3).map((hold) => [hold.reference_type, hold.reference_id, `migration:${hold.id}`, null]),
    );
    expect(entries.every((entry) => entry.memo.includes('fiat account'))).toBe(true);
    const postings = await t.db.query<{ entry_id: string; kind: string; bucket: string; amount_minor: string }>(
      `SELECT p.entry_id::text, a.kind, p.bucket, p.amount_minor::text FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
        WHERE p.entry_id = ANY($1::bigint[]) ORDER BY p.entry_id, p.amount_minor`,
      [entries.map((entry) => entry.id)],
    );
    expect(postings.map((row) => [row.kind, row.bucket, BigInt(row.amount_minor)])).toEqual([
      ['coin', 'frozen', -300n * USDT],
      ['fiat', 'frozen', 300n * USDT],
      ['coin', 'frozen', -50n * USDT],
      ['fiat', 'frozen', 50n * USDT],
      ['coin', 'frozen', -40n * USDT],
      ['fiat', 'frozen', 40n * USDT],
    ]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
    expect(await escrowMismatches(t.db)).toEqual([]);
    // The user reads the move in their records.
    const records = await call(t.app, 'GET', '/home/assets/records?page=1&pageSize=20', alice.token);
    expect(records.data.items[0]).toMatchObject({
      reason: 'p2p.escrow_moved',
      referenceType: 'p2p_ad',
      postings: [
        { account: 'coin', bucket: 'frozen', amount: '-50.000000' },
        { account: 'fiat', bucket: 'frozen', amount: '50.000000' },
      ],
    });

    // Applied again (nothing is on a coin account any more), it changes nothing.
    const entryCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entries'))[0]!.n;
    const entriesBefore = await entryCount();
    await t.db.query('DELETE FROM schema_migrations WHERE name = $1', [MIGRATION]);
    expect(await migrate(t.db)).toEqual([MIGRATION]);
    expect(await entryCount()).toBe(entriesBefore);

    // The moved escrow works as new escrow does. Bob pays, Alice releases: Bob's fiat account
    // receives 100 less 0.1 %, from the hold now on Alice's fiat account.
    await step(bob.token, onOpenAd.data.id, 'paid');
    const released = await step(alice.token, onOpenAd.data.id, 'release', { paymentPassword: '135790' });
    expect(released.data).toMatchObject({ status: 'released' });
    expect(await fiatBalance(t.db, bob.userId)).toEqual({ availableMinor: 99_900_000n, frozenMinor: 0n });
    expect(await coinBalance(t.db, bob.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    // Closing the open ad returns what it still offers to Alice's fiat account; the closed ad's
    // order, cancelled, returns its 50 there too.
    expect((await call(t.app, 'POST', `/home/p2p/ads/${openAd}/close`, alice.token)).data).toMatchObject({ status: 'closed', remaining: '0.000000' });
    expect((await step(bob.token, onClosedAd.data.id, 'cancel')).data).toMatchObject({ status: 'cancelled' });
    expect(await fiatBalance(t.db, alice.userId)).toEqual({ availableMinor: 250n * USDT, frozenMinor: 0n });
    expect(await coinBalance(t.db, alice.userId, 'USDT')).toEqual({ availableMinor: 650n * USDT, frozenMinor: 0n });
    // Dave's order into the buy ad: Carol pays, Dave releases from his fiat account to hers.
    await step(carol.token, daveOrder, 'paid');
    expect((await step(dave.token, daveOrder, 'release', { paymentPassword: '135790' })).data).toMatchObject({ status: 'released' });
    expect(await fiatBalance(t.db, carol.userId)).toEqual({ availableMinor: 39_960_000n, frozenMinor: 0n });
    expect(await fiatBalance(t.db, dave.userId)).toEqual({ availableMinor: 5n * USDT, frozenMinor: 0n });
    expect(await coinBalance(t.db, dave.userId, 'USDT')).toEqual({ availableMinor: 60n * USDT, frozenMinor: 0n });

    expect((await checkLedger(t.db)).problems).toEqual([]);
    expect(await escrowMismatches(t.db)).toEqual([]);
  });
});
