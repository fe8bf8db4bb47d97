import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';
import { sweepC2c } from '../../../src/use-cases/c2c/c2c-matching.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, fund, walletUser } from '../../helpers/wallet.ts';
import { deposit, floatOf, GERMAN_BANK, makeMerchant, type Merchant, merchantStep, uploadProof, usdtIn, withdrawal } from './c2c-helpers.ts';

// C2C through merchants (issue 19, ADR 0043), with the clock moved by hand and the C2C job run by
// hand: matched and paid; unmatched → failed with nothing moved; matched and unpaid → failed with
// the float released; a withdrawal paid and confirmed; disputes resolved by support; the fair rule;
// one unfinished order per user; bank details checked by the country's formats.

let t: TestApp;
let nowMs = Date.UTC(2026, 11, 2, 9, 0, 0);
const MINUTE_MS = 60_000;
const events = { publish: async () => {} } as unknown as EventBus;
const sweep = () => sweepC2c({ db: t.db, now: () => new Date(nowMs), events, logger: t.app.log });
let cheap: Merchant;
let dear: Merchant;
let support1: string;
let support2: string;
let counter = 0;

const newUser = async () => {
  counter += 1;
  return walletUser(t.app, t.db, `c2cuser${counter}x`, { ready: true });
};
const entriesOf = async (requestId: string) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal_entries WHERE reference_type = 'c2c_request' AND reference_id = $1`, [requestId]))[0]!.n;
const view = async (token: string, id: string) => (await call(t.app, 'GET', `/home/c2c/requests/${id}`, token)).data;
const ledgerWhole = async () => expect((await checkLedger(t.db)).problems).toEqual([]);

beforeAll(async () => {
  t = await createTestApp({ P2P_APPEAL_TWO_PERSON_ABOVE_USDT: '500', WITHDRAWAL_DAILY_COUNT: '2' }, { now: () => new Date(nowMs) });
  const finance: [string, string] = [await createStaff(t.app, t.db, 'c2cfin1', ['finance']), await createStaff(t.app, t.db, 'c2cfin2', ['finance'])];
  support1 = await createStaff(t.app, t.db, 'c2csupport1', ['support']);
  support2 = await createStaff(t.app, t.db, 'c2csupport2', ['support']);
  cheap = await makeMerchant(t.app, t.db, 'c2ccheap1', { price: '0.92', float: '1000', finance });
  dear = await makeMerchant(t.app, t.db, 'c2cdear01', { price: '0.95', float: '1000', finance });
});
afterAll(() => t?.close());

describe('a C2C deposit', () => {
  it('is offered by the fair rule, held on the float at acceptance, paid with a screenshot and confirmed: the USDT reaches the fiat account in one entry', async () => {
    const user = await newUser();
    const made = await deposit(t.app, user.token, { amount: '100' });
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ kind: 'deposit', status: 'matching', usdt: '100.000000', quotedPrice: '0.92', merchant: null, paymentDetails: null });
    expect(made.data.orderNo).toMatch(/^C20261202\d{8}$/);
    expect(made.data.matchDeadlineMs).toBe(nowMs + 5 * MINUTE_MS);

    // The best price for the user first: the cheaper merchant is offered it; the dearer one is above the quote.
    await sweep();
    expect((await view(user.token, made.data.id)).status).toBe('offered');
    const offers = await call(t.app, 'GET', '/home/admin/c2c/merchant/requests?state=offers', cheap.token);
    expect(offers.data.items.map((each: { id: string }) => each.id)).toEqual([made.data.id]);
    expect(offers.data.items[0].user).toBe(user.username);
    expect((await call(t.app, 'GET', '/home/admin/c2c/merchant/requests?state=offers', dear.token)).data.items).toEqual([]);
    // Offered is not promised: nothing moved yet.
    expect(await entriesOf(made.data.id)).toBe(0);

    const accepted = await merchantStep(t.app, cheap, made.data.id, 'accept');
    expect(accepted.data).toMatchObject({ status: 'awaiting_payment', price: '0.92', fiat: '92.00', paymentDeadlineMs: nowMs + 5 * MINUTE_MS });
    expect(await floatOf(t.app, cheap)).toEqual({ available: '900.000000', held: '100.000000' });
    const toPay = await view(user.token, made.data.id);
    expect(toPay).toMatchObject({ merchant: { id: cheap.id, name: 'Shop c2ccheap1' }, paymentDetails: 'IBAN of c2ccheap1: DE89370400440532013000' });

    nowMs += 2 * MINUTE_MS;
    const proof = await uploadProof(t.app, user.token);
    const paid = await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/paid`, user.token, { uploadId: proof });
    expect(paid.data).toMatchObject({ status: 'paid', proofUploadId: proof, paidAtMs: nowMs });
    // The merchant sees the screenshot; another merchant does not.
    const image = await t.app.inject({ method: 'GET', url: `/home/admin/c2c/requests/${made.data.id}/proof`, headers: { authorization: cheap.token } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await call(t.app, 'GET', `/home/admin/c2c/requests/${made.data.id}/proof`, dear.token)).code).toBe(404);
    // The user cannot confirm their own deposit; only the merchant does.
    expect((await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/confirm`, user.token, { paymentPassword: '135790' })).data).toMatchObject({ problem: 'not_your_step' });

    const done = await merchantStep(t.app, cheap, made.data.id, 'confirm');
    expect(done.data.status).toBe('succeeded');
    expect(done.data.closingEntryId).not.toBeNull();
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '100.000000', frozen: '0.000000' });
    expect(await floatOf(t.app, cheap)).toEqual({ available: '900.000000', held: '0.000000' });
    // The hold and the payout: two entries, the payout one entry naming the order.
    expect(await entriesOf(made.data.id)).toBe(2);
    const [payout] = await t.db.query<{ reason: string; memo: string }>('SELECT reason, memo FROM journal_entries WHERE id = $1', [BigInt(done.data.closingEntryId)]);
    expect(payout).toEqual({ reason: 'c2c.deposit', memo: `C2C order ${made.data.orderNo}` });
    const [message] = await t.db.query<{ body: string }>('SELECT body FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [BigInt(user.userId)]);
    expect(message!.body).toBe(`Order ${made.data.orderNo} is complete: 100.000000 USDT is in your fiat account.`);
    await ledgerWhole();
  });

  it('goes to the next merchant when one declines, and fails after 5 minutes unmatched with nothing moved', async () => {
    const user = await newUser();
    const made = await deposit(t.app, user.token, { amount: '50', quotedPrice: '0.95' });
    await sweep();
    await merchantStep(t.app, cheap, made.data.id, 'decline');
    expect((await view(user.token, made.data.id)).status).toBe('matching');
    await sweep();
    // Declined once, never offered to the same merchant again: the next is the dearer one (within the quote).
    expect((await call(t.app, 'GET', '/home/admin/c2c/merchant/requests?state=offers', dear.token)).data.items.map((each: { id: string }) => each.id)).toEqual([made.data.id]);
    // The dearer one lets the offer lapse; nobody is left.
    nowMs += MINUTE_MS;
    await sweep();
    expect((await view(user.token, made.data.id)).status).toBe('matching');
    nowMs += 4 * MINUTE_MS;
    await sweep();
    const failed = await view(user.token, made.data.id);
    expect(failed).toMatchObject({ status: 'failed', failReason: 'unmatched', merchant: null });
    expect(await entriesOf(made.data.id)).toBe(0);
    const offered = await t.db.query<{ merchant_id: bigint; outcome: string }>('SELECT merchant_id, outcome FROM c2c_offers WHERE request_id = $1 ORDER BY offered_at', [
      BigInt(made.data.id),
    ]);
    expect(offered.map((row) => [row.merchant_id.toString(), row.outcome])).toEqual([
      [cheap.id, 'declined'],
      [dear.id, 'lapsed'],
    ]);
  });

  it('fails unpaid 5 minutes after acceptance, the float hold released', async () => {
    const user = await newUser();
    const made = await deposit(t.app, user.token, { amount: '40' });
    await sweep();
    await merchantStep(t.app, cheap, made.data.id, 'accept');
    expect(await floatOf(t.app, cheap)).toEqual({ available: '860.000000', held: '40.000000' });
    nowMs += 5 * MINUTE_MS - 1;
    await sweep();
    expect((await view(user.token, made.data.id)).status).toBe('awaiting_payment');
    nowMs += 1;
    // Too late to say paid; the job ends it.
    const proof = await uploadProof(t.app, user.token);
    expect((await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/paid`, user.token, { uploadId: proof })).data).toMatchObject({ problem: 'too_late' });
    await sweep();
    expect(await view(user.token, made.data.id)).toMatchObject({ status: 'failed', failReason: 'unpaid' });
    expect(await floatOf(t.app, cheap)).toEqual({ available: '900.000000', held: '0.000000' });
    await ledgerWhole();
  });

  it('allows one unfinished order per user, and names it', async () => {
    const user = await newUser();
    const first = await deposit(t.app, user.token, { amount: '20' });
    const second = await deposit(t.app, user.token, { amount: '20' });
    expect(second).toMatchObject({ code: 409, msg: 'you have an unfinished payment order: complete it first', data: { orderId: first.data.id } });
    expect((await call(t.app, 'GET', '/home/c2c/options?kind=deposit', user.token)).data.unfinishedOrderId).toBe(first.data.id);
    expect((await call(t.app, 'POST', `/home/c2c/requests/${first.data.id}/cancel`, user.token)).data).toMatchObject({ status: 'failed', failReason: 'cancelled' });
    expect((await deposit(t.app, user.token, { amount: '20' })).code).toBe(200);
    await call(t.app, 'POST', `/home/c2c/requests/${(await call(t.app, 'GET', '/home/c2c/options', user.token)).data.unfinishedOrderId}/cancel`, user.token);
  });

  it('refuses a price no merchant offers any more, amounts no online merchant takes, and a user without identity verification', async () => {
    const user = await newUser();
    expect(await deposit(t.app, user.token, { amount: '100', quotedPrice: '0.90' })).toMatchObject({ code: 409, data: { price: '0.92' } });
    expect((await deposit(t.app, user.token, { amount: '5000' })).msg).toBe('no merchant can take this order now');
    expect((await deposit(t.app, user.token, { amount: '100', country: 'JP' })).msg).toBe('no merchant can take this order now');
    expect((await deposit(t.app, user.token, { amount: '100', country: 'XX' })).code).toBe(400);
    const fiatAmount = await deposit(t.app, user.token, { amount: '92.01', amountIn: 'fiat' });
    // 92.01 fiat at 0.92 buys 100.010869… USDT: the user gets the floor.
    expect(fiatAmount.data.usdt).toBe('100.010869');
    await call(t.app, 'POST', `/home/c2c/requests/${fiatAmount.data.id}/cancel`, user.token);
    const stranger = await walletUser(t.app, t.db, 'c2cnoverify1');
    expect((await deposit(t.app, stranger.token, { amount: '100' })).msg).toBe('identity verification required');
    const options = await call(t.app, 'GET', '/home/c2c/options?kind=deposit', user.token);
    expect(options.data.countries.find((each: { country: string }) => each.country === 'DE')).toEqual({
      country: 'DE',
      currency: 'EUR',
      bestPrice: '0.92',
      minUsdt: '10.000000',
      maxUsdt: '1000.000000',
    });
    expect(options.data.countries.find((each: { country: string }) => each.country === 'JP').bestPrice).toBeNull();
    expect(options.data.windows).toEqual({ matchMinutes: 5, offerSeconds: 60, paymentMinutes: 5, confirmMinutes: 30 });
  });
});

describe('a C2C withdrawal', () => {
  it('holds the USDT on the fiat account, is paid by the merchant with a reference, and reaches the float only when the user confirms', async () => {
    const user = await newUser();
    await fund(t.db, user.userId, 'USDT', '300', 'fiat');
    const made = await withdrawal(t.app, user.token, { amount: '200', quotedPrice: '0.95' });
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({ kind: 'withdrawal', status: 'matching', bankDetails: { ...GERMAN_BANK, accountNumber: 'DE89370400440532013000' } });
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '100.000000', frozen: '200.000000' });
    // Saved for the next withdrawal to Germany.
    expect((await call(t.app, 'GET', '/home/c2c/bank-details?country=DE', user.token)).data).toMatchObject({ payeeName: 'Ana Lee', accountNumber: 'DE89370400440532013000' });

    // A withdrawal's best price is the highest: the dearer merchant buys at 0.95.
    await sweep();
    const accepted = await merchantStep(t.app, dear, made.data.id, 'accept');
    expect(accepted.data).toMatchObject({ status: 'awaiting_payment', price: '0.95', fiat: '190.00' });
    expect(await floatOf(t.app, dear)).toEqual({ available: '1000.000000', held: '0.000000' });
    // Once accepted, the user can no longer call it off (the merchant may be paying).
    expect((await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/cancel`, user.token)).data).toMatchObject({ problem: 'wrong_state' });
    const sent = await merchantStep(t.app, dear, made.data.id, 'paid', { paymentReference: 'SEPA-2026-12-02-0042' });
    expect(sent.data).toMatchObject({ status: 'paid', paymentReference: 'SEPA-2026-12-02-0042', confirmDeadlineMs: nowMs + 30 * MINUTE_MS });
    expect((await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/confirm`, user.token, { paymentPassword: '000000' })).msg).toBe('wrong payment password');
    expect((await view(user.token, made.data.id)).status).toBe('paid');
    const confirmed = await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/confirm`, user.token, { paymentPassword: '135790' });
    expect(confirmed.data.status).toBe('succeeded');
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '100.000000', frozen: '0.000000' });
    expect(await floatOf(t.app, dear)).toEqual({ available: '1200.000000', held: '0.000000' });
    await ledgerWhole();
  });

  it('checks the bank details by the country’s formats, and refuses more than the fiat account holds', async () => {
    const user = await newUser();
    await fund(t.db, user.userId, 'USDT', '50', 'fiat');
    const badIban = await withdrawal(t.app, user.token, { amount: '20', bankDetails: { ...GERMAN_BANK, accountNumber: 'DE89 3704 0044 0532 0130 01', swiftCode: 'COBAGB2L' } });
    expect(badIban.code).toBe(400);
    expect(badIban.data.fields).toEqual([
      { field: 'body.bankDetails.accountNumber', message: 'not a valid IBAN of this country' },
      { field: 'body.bankDetails.swiftCode', message: 'not a valid SWIFT (BIC) code of this country' },
    ]);
    expect((await withdrawal(t.app, user.token, { amount: '60' })).msg).toBe('insufficient balance');
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '50.000000', frozen: '0.000000' });
    expect((await call(t.app, 'GET', '/home/c2c/options', user.token)).data.unfinishedOrderId).toBeNull();
  });

  it('is judged by the published withdrawal rules and counts in the daily count of withdrawals', async () => {
    const user = await newUser();
    await fund(t.db, user.userId, 'USDT', '100', 'fiat');
    for (let made = 0; made < 2; made += 1) {
      const request = await withdrawal(t.app, user.token, { amount: '10' });
      expect(request.code).toBe(200);
      expect((await call(t.app, 'POST', `/home/c2c/requests/${request.data.id}/cancel`, user.token)).data.status).toBe('failed');
    }
    expect(await withdrawal(t.app, user.token, { amount: '10' })).toMatchObject({ code: 400, data: { rule: 'daily_count', limit: 2, used: 2 } });
    const forbidden = await newUser();
    await fund(t.db, forbidden.userId, 'USDT', '100', 'fiat');
    await t.db.query(`UPDATE users SET status = 'withdrawal_forbidden' WHERE id = $1`, [forbidden.userId]);
    expect((await withdrawal(t.app, forbidden.token, { amount: '10' })).data).toMatchObject({ rule: 'withdrawal_forbidden' });
    expect(await usdtIn(t.app, forbidden.token, 'fiat')).toEqual({ available: '100.000000', frozen: '0.000000' });
  });

  it('goes to support when the user does not answer in time, never released on silence; support completes it', async () => {
    const user = await newUser();
    await fund(t.db, user.userId, 'USDT', '100', 'fiat');
    const made = await withdrawal(t.app, user.token, { amount: '100', quotedPrice: '0.95' });
    await sweep();
    await merchantStep(t.app, dear, made.data.id, 'accept');
    await merchantStep(t.app, dear, made.data.id, 'paid', { paymentReference: 'SEPA-0043' });
    nowMs += 30 * MINUTE_MS;
    await sweep();
    expect(await view(user.token, made.data.id)).toMatchObject({ status: 'appealing', appeal: { by: 'system' } });
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '0.000000', frozen: '100.000000' });
    const open = await call(t.app, 'GET', '/home/admin/c2c/appeals?status=open', support1);
    expect(open.data.items.map((each: { id: string }) => each.id)).toContain(made.data.id);
    const resolved = await call(t.app, 'POST', `/home/admin/c2c/appeals/${made.data.id}/resolve`, support1, { outcome: 'complete', note: 'The bank confirmed the transfer arrived.' });
    expect(resolved.data).toMatchObject({ status: 'succeeded', resolution: { outcome: 'complete' }, resolvedBy: 'c2csupport1' });
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '0.000000', frozen: '0.000000' });
    expect(await floatOf(t.app, dear)).toEqual({ available: '1300.000000', held: '0.000000' });
    await ledgerWhole();
  });
});

describe('C2C disputes', () => {
  it('a deposit the merchant says was not paid: above the appeal threshold two support members must agree; failing it releases the float', async () => {
    const user = await newUser();
    const made = await deposit(t.app, user.token, { amount: '600' });
    await sweep();
    await merchantStep(t.app, cheap, made.data.id, 'accept');
    await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/paid`, user.token, { uploadId: await uploadProof(t.app, user.token) });
    const appealed = await merchantStep(t.app, cheap, made.data.id, 'appeal', { reason: 'No transfer arrived on our account.' });
    expect(appealed.data).toMatchObject({ status: 'appealing', appeal: { by: 'merchant', reason: 'No transfer arrived on our account.' } });
    // Support sees the screenshot.
    expect((await t.app.inject({ method: 'GET', url: `/home/admin/c2c/requests/${made.data.id}/proof`, headers: { authorization: support1 } })).statusCode).toBe(200);
    const proposed = await call(t.app, 'POST', `/home/admin/c2c/appeals/${made.data.id}/resolve`, support1, { outcome: 'fail', note: 'The bank statement shows nothing.' });
    expect(proposed.data).toMatchObject({ status: 'appealing', proposal: { outcome: 'fail', staff: 'c2csupport1' }, twoPersonReason: { rule: 'record' } });
    expect(await floatOf(t.app, cheap)).toEqual({ available: '300.000000', held: '600.000000' });
    expect((await call(t.app, 'POST', `/home/admin/c2c/appeals/${made.data.id}/resolve`, support1, { outcome: 'fail', note: 'again' })).msg).toBe('a second staff member must approve');
    const failed = await call(t.app, 'POST', `/home/admin/c2c/appeals/${made.data.id}/resolve`, support2, { outcome: 'fail', note: 'Agreed: nothing arrived.' });
    expect(failed.data).toMatchObject({ status: 'failed', failReason: 'support', resolution: { outcome: 'fail', note: 'Agreed: nothing arrived.' } });
    expect(await floatOf(t.app, cheap)).toEqual({ available: '900.000000', held: '0.000000' });
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '0.000000', frozen: '0.000000' });
    await ledgerWhole();
  });

  it('a withdrawal the user says was not paid: support fails it and the user’s hold returns', async () => {
    const user = await newUser();
    await fund(t.db, user.userId, 'USDT', '80', 'fiat');
    const made = await withdrawal(t.app, user.token, { amount: '80', quotedPrice: '0.95' });
    await sweep();
    await merchantStep(t.app, dear, made.data.id, 'accept');
    await merchantStep(t.app, dear, made.data.id, 'paid', { paymentReference: 'SEPA-0044' });
    const appealed = await call(t.app, 'POST', `/home/c2c/requests/${made.data.id}/appeal`, user.token, { reason: 'Nothing arrived on my account.' });
    expect(appealed.data).toMatchObject({ status: 'appealing', appeal: { by: 'user' } });
    const failed = await call(t.app, 'POST', `/home/admin/c2c/appeals/${made.data.id}/resolve`, support2, { outcome: 'fail', note: 'The merchant could not show the transfer.' });
    expect(failed.data.status).toBe('failed');
    expect(await usdtIn(t.app, user.token, 'fiat')).toEqual({ available: '80.000000', frozen: '0.000000' });
    await ledgerWhole();
  });
});
