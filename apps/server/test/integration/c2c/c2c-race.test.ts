import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/persistence/db.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';
import { sweepC2c } from '../../../src/use-cases/c2c/c2c-matching.ts';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { call, verifyUser } from '../../helpers/wallet.ts';
import { deposit, floatOf, makeMerchant, type Merchant, merchantStep } from './c2c-helpers.ts';

// Issue 19, the concurrency test of C2C matching: 200 deposit requests of 10 USDT made at once
// against 5 merchants whose floats back 10 orders each (50 in all). Two sweeps run side by side
// (two nodes, on PostgreSQL two pools) to provoke over-offering — an offer promises nothing — and
// every merchant accepts every offer it is shown, all at once. The float is held at acceptance, so
// exactly 50 orders are matched (10 per merchant), no float is ever promised twice or goes below
// zero, and the other 150 fail "unmatched" when their 5-minute window ends, with nothing moved.
// The clock is moved by hand, one offer window (60 s) a round.

const MERCHANTS = 5;
const ORDERS_PER_FLOAT = 10;
const REQUESTS = 200;
const MATCHED = MERCHANTS * ORDERS_PER_FLOAT;
const SECOND_MS = 1_000;
const OFFER_WINDOW_MS = 60 * SECOND_MS;
const MATCH_WINDOW_MS = 5 * 60 * SECOND_MS;
const FLOAT_MINOR = 100_000_000n;
const ORDER_MINOR = 10_000_000n;

let t: TestApp;
let secondNode: Db;
const createdAtMs = Date.UTC(2026, 11, 3, 9, 0, 0);
let nowMs = createdAtMs;
const events = { publish: async () => {} } as unknown as EventBus;
const sweepOn = (db: Db) => sweepC2c({ db, now: () => new Date(nowMs), events, logger: t.app.log });
const merchants: Merchant[] = [];

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(nowMs) });
  secondNode = await t.testDb.openAnother();
  const finance: [string, string] = [await createStaff(t.app, t.db, 'c2cracefin1', ['finance']), await createStaff(t.app, t.db, 'c2cracefin2', ['finance'])];
  for (let m = 0; m < MERCHANTS; m += 1) {
    merchants.push(await makeMerchant(t.app, t.db, `c2cracem${m}`, { country: 'DE', maxUsdt: '10', float: '100', finance }));
  }
});
afterAll(() => t?.close());

/** `count` identity-verified users, registered through the API a chunk at a time. */
async function verifiedUsers(count: number): Promise<{ token: string; userId: string }[]> {
  const users: { token: string; userId: string }[] = [];
  const CHUNK = 20;
  for (let start = 0; start < count; start += CHUNK) {
    const chunk = await Promise.all(
      Array.from({ length: Math.min(CHUNK, count - start) }, async (_, index) => {
        const session = await registerViaApi(t.app, `c2crace${String(start + index).padStart(3, '0')}`);
        await verifyUser(t.db, session.userId);
        return session;
      }),
    );
    users.push(...chunk);
  }
  return users;
}

/** How many answers carry each outcome, e.g. { success: 10, 'insufficient balance': 3 }. */
function tally(answers: readonly { code: number; msg: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const key = answer.code === 200 ? 'success' : answer.msg;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Every merchant accepts, all at once, every offer its console lists. */
async function acceptEverything(): Promise<{ code: number; msg: string }[]> {
  const answers = await Promise.all(
    merchants.map(async (merchant) => {
      const offers = await call(t.app, 'GET', '/home/admin/c2c/merchant/requests?state=offers&pageSize=100', merchant.token);
      expect(offers.code).toBe(200);
      expect(offers.data.total).toBe(offers.data.items.length);
      // Offered no more than the float could hold, even by two sweeps at once (the merchant's row is locked for each offer).
      expect(offers.data.items.length * 10, `offers to ${merchant.id}`).toBeLessThanOrEqual(Number(BigInt((await floatOf(t.app, merchant)).available.replace('.', '')) / 1_000_000n));
      return Promise.all(offers.data.items.map((offer: { id: string }) => merchantStep(t.app, merchant, offer.id, 'accept')));
    }),
  );
  return answers.flat();
}

/** Each float as its merchant's console shows it: never below zero, never more held than it has. */
async function floatsSound() {
  for (const merchant of merchants) {
    const float = await floatOf(t.app, merchant);
    const available = BigInt(float.available.replace('.', ''));
    const held = BigInt(float.held.replace('.', ''));
    expect(available, `float of ${merchant.id}`).toBeGreaterThanOrEqual(0n);
    expect(held, `float of ${merchant.id}`).toBeGreaterThanOrEqual(0n);
    expect(available + held, `float of ${merchant.id}`).toBe(FLOAT_MINOR);
  }
  // The ledger's side: the open holds of each float sum to its frozen part and never exceed the account.
  const overHeld = await t.db.query(
    `SELECT a.id, a.available_minor::text AS available, a.frozen_minor::text AS frozen, COALESCE(sum(h.amount_minor), 0)::text AS held
       FROM ledger_accounts a LEFT JOIN ledger_holds h ON h.account_id = a.id AND h.status = 'open'
      WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label LIKE 'merchant:%'
      GROUP BY a.id
     HAVING COALESCE(sum(h.amount_minor), 0) <> a.frozen_minor OR COALESCE(sum(h.amount_minor), 0) > a.available_minor + a.frozen_minor OR a.available_minor < 0`,
  );
  expect(overHeld).toEqual([]);
}

describe('200 concurrent C2C deposits against 5 merchants with float for 50', () => {
  it('matches exactly 50, never promises a float twice, and fails the rest cleanly after the window', { timeout: 180_000 }, async () => {
    const users = await verifiedUsers(REQUESTS);
    const made = await Promise.all(users.map((user) => deposit(t.app, user.token, { amount: '10' })));
    expect(tally(made)).toEqual({ success: REQUESTS });
    expect(made.every((answer) => answer.data.status === 'matching' && answer.data.matchDeadlineMs === createdAtMs + MATCH_WINDOW_MS)).toBe(true);
    const ids = made.map((answer) => answer.data.id as string);

    // Rounds one offer window apart, from a second after the requests until their window ends: every
    // acceptance is at least a second after them, so no payment window ends by the final sweep.
    const acceptTallies: Record<string, number>[] = [];
    for (nowMs = createdAtMs + SECOND_MS; nowMs < createdAtMs + MATCH_WINDOW_MS; nowMs += OFFER_WINDOW_MS) {
      const [first, second] = await Promise.all([sweepOn(t.db), sweepOn(secondNode)]);
      // One sweep works a request: no request was offered by both.
      const offeredBy = [...first, ...second].filter((outcome) => outcome.step === 'offer').map((outcome) => outcome.requestId);
      expect(new Set(offeredBy).size).toBe(offeredBy.length);
      const answers = await acceptEverything();
      acceptTallies.push(tally(answers));
      for (const answer of answers) {
        if (answer.code !== 200) expect(['insufficient balance', 'the order is not in a state for this step']).toContain(answer.msg);
      }
      await floatsSound();
    }
    // Every float was filled by the first round's acceptances; nothing was accepted afterwards.
    expect(acceptTallies[0]!.success).toBe(MATCHED);
    expect(acceptTallies.slice(1).every((each) => (each.success ?? 0) === 0)).toBe(true);

    // The end of the match window (before the first payment window ends): the rest fail unmatched.
    nowMs = createdAtMs + MATCH_WINDOW_MS;
    const last = await sweepOn(t.db);
    expect(last.filter((outcome) => outcome.step === 'match_timeout')).toHaveLength(REQUESTS - MATCHED);
    expect(last.filter((outcome) => outcome.step === 'payment_timeout')).toEqual([]);

    const rows = await t.db.query<{ id: bigint; status: string; fail_reason: string | null; merchant_id: bigint | null; hold_id: bigint | null; payment_deadline_ms: string | null }>(
      'SELECT id, status, fail_reason, merchant_id, hold_id, payment_deadline_ms::text AS payment_deadline_ms FROM c2c_requests ORDER BY id',
    );
    expect(rows).toHaveLength(REQUESTS);
    expect(rows.map((row) => row.id.toString()).sort()).toEqual([...ids].sort());
    const matched = rows.filter((row) => row.status === 'awaiting_payment');
    const failed = rows.filter((row) => row.status === 'failed');
    expect(matched).toHaveLength(MATCHED);
    expect(failed).toHaveLength(REQUESTS - MATCHED);
    expect(failed.every((row) => row.fail_reason === 'unmatched' && row.merchant_id === null && row.hold_id === null)).toBe(true);
    expect(matched.every((row) => Number(row.payment_deadline_ms) > nowMs)).toBe(true);
    // Each merchant exactly 10 orders, its float all held, nothing free.
    for (const merchant of merchants) {
      expect(matched.filter((row) => row.merchant_id?.toString() === merchant.id), `orders of ${merchant.id}`).toHaveLength(ORDERS_PER_FLOAT);
      expect(await floatOf(t.app, merchant)).toEqual({ available: '0.000000', held: '100.000000' });
    }
    await floatsSound();

    // Each matched order: one accepted offer (its merchant's), one open hold of 10 USDT on that merchant's float.
    const accepted = await t.db.query<{ request_id: bigint; merchant_id: bigint }>(`SELECT request_id, merchant_id FROM c2c_offers WHERE outcome = 'accepted' ORDER BY request_id`);
    expect(accepted.map((row) => `${row.request_id}:${row.merchant_id}`)).toEqual(matched.map((row) => `${row.id}:${row.merchant_id}`));
    const holds = await t.db.query<{ id: bigint; reference_id: string; amount: string; label: string }>(
      `SELECT h.id, h.reference_id, h.amount_minor::text AS amount, a.label FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
        WHERE h.reference_type = 'c2c_request' ORDER BY h.reference_id::bigint`,
    );
    expect(holds.map((hold) => [hold.id, hold.reference_id, BigInt(hold.amount), hold.label])).toEqual(
      matched.map((row) => [row.hold_id, row.id.toString(), ORDER_MINOR, `merchant:${row.merchant_id}`]),
    );
    const twice = await t.db.query(`SELECT request_id FROM c2c_offers WHERE outcome = 'accepted' GROUP BY request_id HAVING count(*) > 1`);
    expect(twice).toEqual([]);
    const [offerCount] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM c2c_offers WHERE outcome IS NULL');
    expect(offerCount!.n).toBe(0);

    // Nothing was moved for the failed ones: no entry and no hold names them.
    const failedIds = failed.map((row) => row.id.toString());
    const [touched] = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM journal_entries WHERE reference_type = 'c2c_request' AND reference_id = ANY($1::text[]))::int
            + (SELECT count(*) FROM ledger_holds WHERE reference_type = 'c2c_request' AND reference_id = ANY($1::text[]))::int AS n`,
      [failedIds],
    );
    expect(touched!.n).toBe(0);
    // And a failed one reads so to its user.
    const someFailed = users[ids.indexOf(failedIds[0]!)]!;
    expect((await call(t.app, 'GET', `/home/c2c/requests/${failedIds[0]}`, someFailed.token)).data).toMatchObject({ status: 'failed', failReason: 'unmatched', merchant: null });

    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
