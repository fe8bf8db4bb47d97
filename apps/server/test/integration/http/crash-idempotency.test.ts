import { randomBytes } from 'node:crypto';
import { allContracts } from '@keel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCrash } from '../../../src/http/route.ts';
import {
  claimIdempotencyKey,
  findIdempotentAnswer,
  IdempotentAnswerTaken,
  IN_FLIGHT_TIMEOUT_MS,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from '../../../src/persistence/idempotency.store.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { adTerms, postAd, trader } from '../../helpers/p2p.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, type Call, call, fund, TEST_XPUB, walletUser, type WalletUser } from '../../helpers/wallet.ts';
import { optionsTrader } from '../options/options-helpers.ts';
import { addProduct, earnUser, fundTreasury, specProduct, subscribe } from '../earn/earn-helpers.ts';
import { addLoanProduct, apply, borrower, decide, fundLender, loanTerms, repay } from '../loans/loans-helpers.ts';
import { fundBorrower, invest, investor, publish, review } from '../fund/fund-helpers.ts';
import { leverageTrader } from '../leverage/leverage-helpers.ts';
import { makeMerchant, type Merchant, merchantStep, uploadProof } from '../c2c/c2c-helpers.ts';
import { sweepC2c } from '../../../src/use-cases/c2c/c2c-matching.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';

// Issue 13, defect 2 (ADR 0019): a request commits its effect, then the process dies before the
// answer reaches the client — the route's seam `afterHandlerCommitted` throws SimulatedCrash, so no
// answer is stored and the key is not freed, exactly as after a SIGKILL at that moment. The client
// retries with the same key at once and again after the in-flight window (when a retry may take
// the key over). Every idempotent contract has a scenario here (a new one without one fails the
// first test), and each must show: one effect, the first answer (deep equal) to both retries, and
// a clean ledger check.

let t: TestApp;
let finance: string;
let support: string;
let nowMs = Date.now();
/** The contract whose next answer is lost, and that answer once it was. */
let crashNext: string | null = null;
let lostAnswer: unknown;
let names = 0;
const name = (prefix: string) => {
  names += 1;
  return `${prefix}${names}x${Date.now().toString(36)}`.slice(0, 30);
};

beforeAll(async () => {
  t = await createTestApp(
    { OPTIONS_PRODUCTS: '30/80/10/5000', DEPOSIT_XPUB_TRON: TEST_XPUB, WITHDRAWAL_DAILY_COUNT: '100' },
    {
      market: true,
      now: () => new Date(nowMs),
      afterHandlerCommitted: (contractId, answer) => {
        if (crashNext !== contractId) return;
        crashNext = null;
        lostAnswer = answer;
        throw new SimulatedCrash(contractId);
      },
    },
  );
  finance = await createStaff(t.app, t.db, 'crashfinance', ['finance']);
  support = await createStaff(t.app, t.db, 'crashsupport', ['support']);
});
afterAll(() => t?.close());

const tick = (symbol: string, price: string) => t.market!.record([{ symbol, price, atMs: nowMs }]);
const count = async (sql: string, ...params: unknown[]) => (await t.db.query<{ n: number }>(sql, params))[0]!.n;
const tronTxHash = () => randomBytes(32).toString('hex');

/** A reported deposit of `amount` USDT on TRON, waiting for finance staff. */
async function reportedDeposit(user: WalletUser, amount = '100') {
  const answer = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount, txHash: tronTxHash() });
  if (answer.code !== 200) throw new Error(`deposit: ${answer.msg}`);
  return answer.data.id as string;
}

/** A user with 1,000 USDT, a usable TRON address and a pending withdrawal of 100 USDT. */
async function pendingWithdrawal() {
  const user = await walletUser(t.app, t.db, name('crashwd'), { ready: true });
  await fund(t.db, user.userId, 'USDT', '1000');
  const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });
  const answer = await call(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '100', paymentPassword: '135790' });
  if (answer.code !== 200) throw new Error(`withdrawal: ${answer.msg}`);
  return { user, addressId, withdrawalId: answer.data.id as string };
}

async function approvedWithdrawal() {
  const pending = await pendingWithdrawal();
  const approved = await call(t.app, 'POST', `/home/admin/withdrawals/${pending.withdrawalId}/decision`, finance, { decision: 'approve' });
  if (approved.data?.status !== 'approved') throw new Error(`approve: ${approved.msg} ${JSON.stringify(approved.data)}`);
  return pending;
}

/** A 20x futures long of 0.03998 BTC (100 USDT margin) on BTC/USDT. */
async function openLeveragePosition() {
  const user = await leverageTrader(t.app, t.db, name('crashpos'), '500');
  await tick('BTC/USDT', '50000');
  const opened = await call(t.app, 'POST', '/home/leverage/positions', user.token, { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20 });
  if (opened.code !== 200) throw new Error(`open: ${opened.msg}`);
  return { user, positionId: opened.data.id as string };
}

const withdrawalStatus = (id: string) => t.db.query('SELECT status, closing_entry_id::text FROM withdrawals WHERE id = $1', [id]);

/** A seller's ad of 500 USDT and a buyer's order of 100 USDT on it, in `state`. */
async function p2pOrder(state: 'placed' | 'paid' | 'appealing') {
  const seller = await trader(t.app, t.db, name('crashsel'), '500');
  const buyer = await trader(t.app, t.db, name('crashbuy'));
  const ad = await postAd(t.app, seller, '500');
  const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100' });
  if (placed.code !== 200) throw new Error(`order: ${placed.msg}`);
  const orderId = placed.data.id as string;
  if (state !== 'placed') await call(t.app, 'POST', `/home/p2p/orders/${orderId}/paid`, buyer.token);
  if (state === 'appealing') {
    // An appeal opens once the payment window (15 minutes) has passed again after "paid".
    nowMs += 16 * 60_000;
    const appealed = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, buyer.token, { reason: 'The seller does not release' });
    if (appealed.code !== 200) throw new Error(`appeal: ${appealed.msg}`);
  }
  return { seller, buyer, ad, orderId };
}

const orderState = (orderId: string) => t.db.query('SELECT status, closing_entry_id::text FROM p2p_orders WHERE id = $1', [orderId]);
const adState = (adId: string) => t.db.query('SELECT status, remaining_minor::text, price_fiat_minor::text FROM p2p_ads WHERE id = $1', [adId]);

/** Everything a money-moving or state-changing call can write, as comparable values. */
async function everything() {
  const rows = async (sql: string) => JSON.stringify(await t.db.query(sql));
  return {
    accounts: await rows('SELECT id::text, available_minor::text, frozen_minor::text FROM ledger_accounts ORDER BY id'),
    entries: await rows('SELECT count(*)::int AS n FROM journal_entries'),
    holds: await rows('SELECT id::text, status, amount_minor::text FROM ledger_holds ORDER BY id'),
    options: await rows('SELECT id::text, status FROM option_orders ORDER BY id'),
    positions: await rows('SELECT id::text, status, quantity_minor::text, margin_minor::text FROM leverage_positions ORDER BY id'),
    positionEvents: await rows('SELECT count(*)::int AS n FROM leverage_position_events'),
    limitOrders: await rows('SELECT id::text, status FROM leverage_orders ORDER BY id'),
    earnSubscriptions: await rows('SELECT id::text, status, paid_days FROM earn_subscriptions ORDER BY id'),
    loans: await rows('SELECT id::text, status, repaid_minor::text FROM loans ORDER BY id'),
    fundRequests: await rows('SELECT id::text, status, raised_minor::text FROM fund_requests ORDER BY id'),
    fundInvestments: await rows('SELECT id::text, status FROM fund_investments ORDER BY id'),
    corrections: await rows('SELECT id::text, status FROM staff_corrections ORDER BY id'),
    c2cRequests: await rows('SELECT id::text, status, hold_id::text, closing_entry_id::text FROM c2c_requests ORDER BY id'),
    c2cOffers: await rows('SELECT request_id::text, merchant_id::text, outcome FROM c2c_offers ORDER BY request_id, merchant_id'),
    userTransfers: await rows('SELECT id::text, entry_id::text FROM user_transfers ORDER BY id'),
    swaps: await rows('SELECT id::text, executed_entry_id::text FROM swap_quotes ORDER BY id'),
    ads: await rows('SELECT id::text, status, remaining_minor::text, price_fiat_minor::text FROM p2p_ads ORDER BY id'),
    orders: await rows('SELECT id::text, status FROM p2p_orders ORDER BY id'),
    appeals: await rows('SELECT order_id::text, resolution FROM p2p_appeals ORDER BY order_id'),
    deposits: await rows('SELECT id::text, status, first_approved_by::text FROM deposits ORDER BY id'),
    withdrawals: await rows('SELECT id::text, status, first_approved_by::text FROM withdrawals ORDER BY id'),
    messages: await rows('SELECT count(*)::int AS n FROM messages'),
    audit: await rows('SELECT count(*)::int AS n FROM audit_log'),
    jobs: await rows('SELECT count(*)::int AS n FROM jobs'),
  };
}

interface Scenario {
  /** The request, sent with the given Idempotency-Key (the same on every try). */
  send: (key: string) => Promise<Call>;
  /** The one effect the request has, e.g. how many orders the user has; must move once and only once. */
  effect: () => Promise<unknown>;
  /** What the world does while the client waits out the window (the market keeps ticking). */
  beforeLateRetry?: () => Promise<void>;
}

/**
 * A C2C order in a country of its own (so the one merchant serving it is the one offered it), taken
 * as far as `upTo`: requested, offered, accepted, paid (a deposit by the user with a screenshot, a
 * withdrawal by the merchant with a reference), or sent to support by the receiver.
 */
async function c2cOrder(kind: 'deposit' | 'withdrawal', country: string, upTo: 'matching' | 'offered' | 'accepted' | 'paid' | 'appealing') {
  const maker = await createStaff(t.app, t.db, name('crashc2cf'), ['finance']);
  const merchant: Merchant = await makeMerchant(t.app, t.db, name('crashc2cm'), { country, float: '1000', finance: [maker, finance] });
  const user = await walletUser(t.app, t.db, name('crashc2cu'), { ready: true });
  if (kind === 'withdrawal') await fund(t.db, user.userId, 'USDT', '100', 'fiat');
  const bankDetails = { payeeName: 'Ana Lee', bankName: 'Crash Bank', accountNumber: '12345678' };
  const made = await call(t.app, 'POST', kind === 'deposit' ? '/home/c2c/deposits' : '/home/c2c/withdrawals', user.token, {
    country, amount: '20', amountIn: 'usdt', quotedPrice: '0.92', ...(kind === 'withdrawal' ? { bankDetails, paymentPassword: '135790' } : {}),
  });
  if (made.code !== 200) throw new Error(`C2C ${kind}: ${made.msg}`);
  const id = made.data.id as string;
  const steps = ['offered', 'accepted', 'paid', 'appealing'].slice(0, ['matching', 'offered', 'accepted', 'paid', 'appealing'].indexOf(upTo));
  for (const step of steps) {
    let answer: Call = { code: 200, msg: '', data: null };
    if (step === 'offered') await sweepC2c({ db: t.db, now: () => new Date(nowMs), events: { publish: async () => {} } as unknown as EventBus, logger: t.app.log });
    if (step === 'accepted') answer = await merchantStep(t.app, merchant, id, 'accept');
    if (step === 'paid') {
      answer =
        kind === 'deposit'
          ? await call(t.app, 'POST', `/home/c2c/requests/${id}/paid`, user.token, { uploadId: await uploadProof(t.app, user.token) })
          : await merchantStep(t.app, merchant, id, 'paid', { paymentReference: 'CRASH-0001' });
    }
    if (step === 'appealing') {
      answer =
        kind === 'deposit'
          ? await merchantStep(t.app, merchant, id, 'appeal', { reason: 'Nothing arrived.' })
          : await call(t.app, 'POST', `/home/c2c/requests/${id}/appeal`, user.token, { reason: 'Nothing arrived.' });
    }
    if (answer.code !== 200) throw new Error(`C2C ${step}: ${answer.msg}`);
  }
  const status = () => t.db.query('SELECT status, closing_entry_id::text FROM c2c_requests WHERE id = $1', [id]);
  return { id, user, merchant, status };
}

const scenarios: Record<string, () => Promise<Scenario>> = {
  // C2C (issue 19): each step of the user, the merchant and support, its answer lost after the commit.
  'c2c.createDeposit': async () => {
    const maker = await createStaff(t.app, t.db, name('crashc2cf'), ['finance']);
    await makeMerchant(t.app, t.db, name('crashc2cm'), { country: 'FR', float: '1000', finance: [maker, finance] });
    const user = await walletUser(t.app, t.db, name('crashc2cu'), { ready: true });
    return {
      send: (key) => call(t.app, 'POST', '/home/c2c/deposits', user.token, { country: 'FR', amount: '20', amountIn: 'usdt', quotedPrice: '0.92' }, key),
      effect: () => count('SELECT count(*)::int AS n FROM c2c_requests WHERE user_id = $1', user.userId),
    };
  },
  'c2c.createWithdrawal': async () => {
    const maker = await createStaff(t.app, t.db, name('crashc2cf'), ['finance']);
    await makeMerchant(t.app, t.db, name('crashc2cm'), { country: 'JP', finance: [maker, finance] });
    const user = await walletUser(t.app, t.db, name('crashc2cu'), { ready: true });
    await fund(t.db, user.userId, 'USDT', '100', 'fiat');
    const body = { country: 'JP', amount: '20', amountIn: 'usdt', quotedPrice: '0.92', bankDetails: { payeeName: 'Ana Lee', bankName: 'Crash Bank', accountNumber: '12345678' }, paymentPassword: '135790' };
    return {
      send: (key) => call(t.app, 'POST', '/home/c2c/withdrawals', user.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM c2c_requests WHERE user_id = $1', user.userId),
    };
  },
  'c2c.markPaid': async () => {
    const order = await c2cOrder('deposit', 'ES', 'accepted');
    const uploadId = await uploadProof(t.app, order.user.token);
    return { send: (key) => call(t.app, 'POST', `/home/c2c/requests/${order.id}/paid`, order.user.token, { uploadId }, key), effect: order.status };
  },
  'c2c.confirm': async () => {
    const order = await c2cOrder('withdrawal', 'KR', 'paid');
    return { send: (key) => call(t.app, 'POST', `/home/c2c/requests/${order.id}/confirm`, order.user.token, { paymentPassword: '135790' }, key), effect: order.status };
  },
  'c2c.cancel': async () => {
    const order = await c2cOrder('deposit', 'IT', 'matching');
    return { send: (key) => call(t.app, 'POST', `/home/c2c/requests/${order.id}/cancel`, order.user.token, undefined, key), effect: order.status };
  },
  'c2c.appeal': async () => {
    const order = await c2cOrder('withdrawal', 'VN', 'paid');
    return { send: (key) => call(t.app, 'POST', `/home/c2c/requests/${order.id}/appeal`, order.user.token, { reason: 'Nothing arrived.' }, key), effect: order.status };
  },
  'admin.c2cAccept': async () => {
    const order = await c2cOrder('deposit', 'NL', 'offered');
    return { send: (key) => call(t.app, 'POST', `/home/admin/c2c/merchant/requests/${order.id}/accept`, order.merchant.token, undefined, key), effect: order.status };
  },
  'admin.c2cDecline': async () => {
    const order = await c2cOrder('deposit', 'TR', 'offered');
    return { send: (key) => call(t.app, 'POST', `/home/admin/c2c/merchant/requests/${order.id}/decline`, order.merchant.token, undefined, key), effect: order.status };
  },
  'admin.c2cConfirm': async () => {
    const order = await c2cOrder('deposit', 'SA', 'paid');
    return { send: (key) => call(t.app, 'POST', `/home/admin/c2c/merchant/requests/${order.id}/confirm`, order.merchant.token, undefined, key), effect: order.status };
  },
  'admin.c2cPaid': async () => {
    const order = await c2cOrder('withdrawal', 'ID', 'accepted');
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/c2c/merchant/requests/${order.id}/paid`, order.merchant.token, { paymentReference: 'CRASH-0002' }, key),
      effect: order.status,
    };
  },
  'admin.c2cMerchantAppeal': async () => {
    const order = await c2cOrder('deposit', 'AE', 'paid');
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/c2c/merchant/requests/${order.id}/appeal`, order.merchant.token, { reason: 'Nothing arrived.' }, key),
      effect: order.status,
    };
  },
  'admin.c2cResolve': async () => {
    const order = await c2cOrder('deposit', 'BR', 'appealing');
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/c2c/appeals/${order.id}/resolve`, support, { outcome: 'complete', note: 'The payment arrived.' }, key),
      effect: order.status,
    };
  },

  'assets.transfer': async () => {
    const user = await walletUser(t.app, t.db, name('crashxfer'));
    await fund(t.db, user.userId, 'USDT', '100');
    return {
      send: (key) => call(t.app, 'POST', '/home/assets/transfer', user.token, { fromAccount: 'coin', toAccount: 'options', asset: 'USDT', amount: '25' }, key),
      effect: () => count(`SELECT count(*)::int AS n FROM journal_entries WHERE reason = 'transfer.internal' AND reference_id = $1`, user.userId),
    };
  },

  'assets.transferToUser': async () => {
    const sender = await walletUser(t.app, t.db, name('crashxfu'), { ready: true });
    const recipient = await walletUser(t.app, t.db, name('crashxfr'));
    await fund(t.db, sender.userId, 'USDT', '100');
    const body = { to: recipient.userId, asset: 'USDT', amount: '25', paymentPassword: '135790' };
    return {
      send: (key) => call(t.app, 'POST', '/home/assets/transfer-to-user', sender.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM user_transfers WHERE sender_id = $1', sender.userId),
    };
  },

  'wallet.deposit': async () => {
    const user = await walletUser(t.app, t.db, name('crashdep'));
    const body = { channel: 'USDT-TRC20', amount: '100', txHash: tronTxHash() };
    return {
      send: (key) => call(t.app, 'POST', '/home/wallet/deposits', user.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM deposits WHERE user_id = $1', user.userId),
    };
  },

  'wallet.withdraw': async () => {
    const user = await walletUser(t.app, t.db, name('crashwd'), { ready: true });
    await fund(t.db, user.userId, 'USDT', '1000');
    const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });
    const body = { channel: 'USDT-TRC20', addressId, amount: '100', paymentPassword: '135790' };
    return {
      send: (key) => call(t.app, 'POST', '/home/wallet/withdrawals', user.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1', user.userId),
    };
  },

  'wallet.cancelWithdrawal': async () => {
    const { user, withdrawalId } = await pendingWithdrawal();
    return {
      send: (key) => call(t.app, 'POST', `/home/wallet/withdrawals/${withdrawalId}/cancel`, user.token, undefined, key),
      effect: () => withdrawalStatus(withdrawalId),
    };
  },

  'admin.decideDeposit': async () => {
    const depositId = await reportedDeposit(await walletUser(t.app, t.db, name('crashdd')));
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/deposits/${depositId}/decision`, finance, { decision: 'approve' }, key),
      effect: () => t.db.query('SELECT status, entry_id::text FROM deposits WHERE id = $1', [depositId]),
    };
  },

  'admin.decideWithdrawal': async () => {
    const { withdrawalId } = await pendingWithdrawal();
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/withdrawals/${withdrawalId}/decision`, finance, { decision: 'reject', reason: 'address under review' }, key),
      effect: () => withdrawalStatus(withdrawalId),
    };
  },

  'admin.completeWithdrawal': async () => {
    const { withdrawalId } = await approvedWithdrawal();
    const body = { txHash: tronTxHash() };
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/withdrawals/${withdrawalId}/complete`, finance, body, key),
      effect: () => withdrawalStatus(withdrawalId),
    };
  },

  'admin.failWithdrawal': async () => {
    const { withdrawalId } = await approvedWithdrawal();
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/withdrawals/${withdrawalId}/fail`, finance, { reason: 'rejected by the network' }, key),
      effect: () => withdrawalStatus(withdrawalId),
    };
  },

  'p2p.postAd': async () => {
    const seller = await trader(t.app, t.db, name('crashad'), '500');
    return {
      send: (key) => call(t.app, 'POST', '/home/p2p/ads', seller.token, { ...adTerms, total: '300' }, key),
      effect: () => count('SELECT count(*)::int AS n FROM p2p_ads WHERE owner_id = $1', seller.userId),
    };
  },

  'p2p.editAd': async () => {
    const seller = await trader(t.app, t.db, name('crashedit'), '500');
    const ad = await postAd(t.app, seller, '500');
    return {
      send: (key) => call(t.app, 'PUT', `/home/p2p/ads/${ad.id}`, seller.token, { ...adTerms, price: '86.10', remaining: '400' }, key),
      effect: () => adState(ad.id),
    };
  },

  'p2p.closeAd': async () => {
    const seller = await trader(t.app, t.db, name('crashclose'), '500');
    const ad = await postAd(t.app, seller, '500');
    return {
      send: (key) => call(t.app, 'POST', `/home/p2p/ads/${ad.id}/close`, seller.token, undefined, key),
      effect: () => adState(ad.id),
    };
  },

  'p2p.markPaid': async () => {
    const { buyer, orderId } = await p2pOrder('placed');
    return {
      send: (key) => call(t.app, 'POST', `/home/p2p/orders/${orderId}/paid`, buyer.token, undefined, key),
      effect: () => orderState(orderId),
    };
  },

  'p2p.cancel': async () => {
    const { buyer, orderId } = await p2pOrder('placed');
    return {
      send: (key) => call(t.app, 'POST', `/home/p2p/orders/${orderId}/cancel`, buyer.token, undefined, key),
      effect: () => orderState(orderId),
    };
  },

  'p2p.release': async () => {
    const { seller, orderId } = await p2pOrder('paid');
    return {
      send: (key) => call(t.app, 'POST', `/home/p2p/orders/${orderId}/release`, seller.token, { paymentPassword: '135790' }, key),
      effect: () => orderState(orderId),
    };
  },

  'p2p.appeal': async () => {
    const { buyer, orderId } = await p2pOrder('paid');
    nowMs += 16 * 60_000;
    return {
      send: (key) => call(t.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, buyer.token, { reason: 'The seller does not release' }, key),
      effect: () => t.db.query('SELECT o.status, count(a.order_id)::int AS appeals FROM p2p_orders o LEFT JOIN p2p_appeals a ON a.order_id = o.id WHERE o.id = $1 GROUP BY o.status', [orderId]),
    };
  },

  'admin.p2pResolve': async () => {
    const { orderId } = await p2pOrder('appealing');
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/p2p/appeals/${orderId}/resolve`, support, { outcome: 'release', note: 'Bank statement shows the payment' }, key),
      effect: () => t.db.query('SELECT o.status, o.closing_entry_id::text, a.resolution FROM p2p_orders o JOIN p2p_appeals a ON a.order_id = o.id WHERE o.id = $1', [orderId]),
    };
  },

  'options.orders.place': async () => {
    const user = await optionsTrader(t.app, t.db, name('crashopt'), '100');
    await tick('BTC/USDT', '50000');
    const body = { symbol: 'BTC/USDT', direction: 'up', cycleSeconds: 30, amount: '40' };
    return {
      send: (key) => call(t.app, 'POST', '/home/options/orders', user.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM option_orders WHERE user_id = $1', user.userId),
      beforeLateRetry: async () => {
        await tick('BTC/USDT', '50010');
      },
    };
  },

  'leverage.positions.open': async () => {
    const user = await leverageTrader(t.app, t.db, name('crashlev'), '500');
    await tick('BTC/USDT', '50000');
    const body = { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20 };
    return {
      send: (key) => call(t.app, 'POST', '/home/leverage/positions', user.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM leverage_positions WHERE user_id = $1', user.userId),
      beforeLateRetry: async () => {
        await tick('BTC/USDT', '50010');
      },
    };
  },

  'leverage.positions.close': async () => {
    const { user, positionId } = await openLeveragePosition();
    return {
      // Half of it: a second close under the key would take a second half.
      send: (key) => call(t.app, 'POST', `/home/leverage/positions/${positionId}/close`, user.token, { quantity: '0.01' }, key),
      effect: () => t.db.query('SELECT quantity_minor::text, margin_minor::text FROM leverage_positions WHERE id = $1', [positionId]),
      beforeLateRetry: async () => {
        await tick('BTC/USDT', '50020');
      },
    };
  },

  'leverage.positions.margin': async () => {
    const { user, positionId } = await openLeveragePosition();
    return {
      send: (key) => call(t.app, 'POST', `/home/leverage/positions/${positionId}/margin`, user.token, { direction: 'add', amount: '10' }, key),
      effect: () => t.db.query('SELECT margin_minor::text FROM leverage_positions WHERE id = $1', [positionId]),
    };
  },

  'leverage.orders.place': async () => {
    const user = await leverageTrader(t.app, t.db, name('crashlim'), '500');
    await tick('BTC/USDT', '50000');
    const body = { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20, limitPrice: '40000' };
    return {
      send: (key) => call(t.app, 'POST', '/home/leverage/orders', user.token, body, key),
      effect: () => count('SELECT count(*)::int AS n FROM leverage_orders WHERE user_id = $1', user.userId),
    };
  },

  'leverage.orders.cancel': async () => {
    const user = await leverageTrader(t.app, t.db, name('crashcan'), '500');
    await tick('BTC/USDT', '50000');
    const placed = await call(t.app, 'POST', '/home/leverage/orders', user.token, { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20, limitPrice: '40000' });
    if (placed.code !== 200) throw new Error(`limit order: ${placed.msg}`);
    return {
      send: (key) => call(t.app, 'POST', `/home/leverage/orders/${placed.data.id}/cancel`, user.token, undefined, key),
      effect: () => t.db.query('SELECT status, close_entry_id::text FROM leverage_orders WHERE id = $1', [placed.data.id]),
    };
  },

  'earn.subscribe': async () => {
    const productId = await addProduct(t.db, specProduct({ name: 'Crash subscribe' }));
    await fundTreasury(t.db, '1000');
    const user = await earnUser(t.app, t.db, name('crashearn'), '1000');
    return {
      send: (key) => subscribe(t.app, user, productId, '500', key),
      effect: () => count('SELECT count(*)::int AS n FROM earn_subscriptions WHERE user_id = $1', user.userId),
    };
  },

  'earn.subscriptions.redeem': async () => {
    const productId = await addProduct(t.db, specProduct({ name: 'Crash redeem' }));
    await fundTreasury(t.db, '1000');
    const user = await earnUser(t.app, t.db, name('crashred'), '1000');
    const subscribed = await subscribe(t.app, user, productId, '500');
    if (subscribed.code !== 200) throw new Error(`subscribe: ${subscribed.msg}`);
    return {
      send: (key) => call(t.app, 'POST', `/home/earn/subscriptions/${subscribed.data.id}/redeem`, user.token, { paymentPassword: '135790' }, key),
      effect: () => t.db.query('SELECT status, penalty_minor::text, close_entry_id::text FROM earn_subscriptions WHERE id = $1', [subscribed.data.id]),
    };
  },

  'loans.apply': async () => {
    const productId = await addLoanProduct(t.db, loanTerms({ name: 'Crash apply' }));
    const user = await borrower(t.app, t.db, name('crashloan'), { USDT: '1000' });
    return {
      send: (key) => apply(t.app, user, productId, { amount: '300', collateralAsset: 'USDT', collateralAmount: '500' }, key),
      effect: () => count('SELECT count(*)::int AS n FROM loans WHERE user_id = $1', user.userId),
    };
  },

  'loans.repay': async () => {
    const productId = await addLoanProduct(t.db, loanTerms({ name: 'Crash repay' }));
    await fundLender(t.db, '1000');
    const user = await borrower(t.app, t.db, name('crashrep'), { USDT: '1000' });
    const applied = await apply(t.app, user, productId, { amount: '300', collateralAsset: 'USDT', collateralAmount: '500' });
    if (applied.code !== 200) throw new Error(`loan: ${applied.msg}`);
    const reviewer = await createStaff(t.app, t.db, name('crashcomp'), ['compliance']);
    const approved = await decide(t.app, reviewer, applied.data.id, 'approve');
    if (approved.code !== 200) throw new Error(`approval: ${approved.msg}`);
    return {
      send: (key) => repay(t.app, user, applied.data.id, { full: false, amount: '100' }, key),
      effect: () => t.db.query('SELECT status, repaid_minor::text FROM loans WHERE id = $1', [applied.data.id]),
    };
  },

  'fund.requests.publish': async () => {
    const borrower = await fundBorrower(t.app, t.db, name('crashfund'), { USDT: '1000' });
    return {
      send: (key) => publish(t.app, borrower, { amount: '500', collateralAsset: 'USDT', collateralAmount: '600', tranches: 1, releasePeriodDays: 0 }, key),
      effect: () => count('SELECT count(*)::int AS n FROM fund_requests WHERE user_id = $1', borrower.userId),
    };
  },

  'fund.invest': async () => {
    const borrower = await fundBorrower(t.app, t.db, name('crashfundb'), { USDT: '1000' });
    const made = await publish(t.app, borrower, { amount: '500', collateralAsset: 'USDT', collateralAmount: '600', tranches: 1, releasePeriodDays: 0 });
    if (made.code !== 200) throw new Error(`fund request: ${made.msg}`);
    const reviewer = await createStaff(t.app, t.db, name('crashfundc'), ['compliance']);
    const approved = await review(t.app, reviewer, made.data.id, 'approve');
    if (approved.code !== 200) throw new Error(`approval: ${approved.msg}`);
    const backer = await investor(t.app, t.db, name('crashfundi'), '1000');
    return {
      send: (key) => invest(t.app, backer, made.data.id, '100', key),
      effect: () => count('SELECT count(*)::int AS n FROM fund_investments WHERE user_id = $1', backer.userId),
    };
  },

  // Staff corrections (issue 22, ADR 0039): the checker's approval posts the entry; its answer is lost.
  'admin.corrections.decide': async () => {
    const user = await walletUser(t.app, t.db, name('crashcorr'));
    const maker = await createStaff(t.app, t.db, name('crashmaker'), ['finance']);
    const proposed = await call(
      t.app,
      'POST',
      '/home/admin/corrections',
      maker,
      { target: 'user', userId: user.userId, account: 'coin', asset: 'USDT', amount: '40', reason: 'Crash test: a deposit credited short' },
      null,
    );
    if (proposed.code !== 200) throw new Error(`correction: ${proposed.msg}`);
    return {
      send: (key) => call(t.app, 'POST', `/home/admin/corrections/${proposed.data.id}/decision`, finance, { approve: true }, key),
      effect: () => t.db.query('SELECT status, entry_id::text FROM staff_corrections WHERE id = $1', [proposed.data.id]),
    };
  },

  'p2p.placeOrder': async () => {
    const seller = await trader(t.app, t.db, name('crashsel'), '500');
    const buyer = await trader(t.app, t.db, name('crashbuy'));
    const ad = await postAd(t.app, seller, '500');
    return {
      send: (key) => call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100', remark: '' }, key),
      effect: () => count('SELECT count(*)::int AS n FROM p2p_orders WHERE buyer_id = $1', buyer.userId),
    };
  },

  'assets.swap.execute': async () => {
    const user = await walletUser(t.app, t.db, name('crashswap'));
    await fund(t.db, user.userId, 'BTC', '1');
    await tick('BTC/USDT', '90000');
    const quote = await call(t.app, 'POST', '/home/assets/swap/quote', user.token, { fromAsset: 'BTC', toAsset: 'USDT', amount: '0.5' });
    expect(quote.code).toBe(200);
    return {
      send: (key) => call(t.app, 'POST', '/home/assets/swap', user.token, { quoteId: quote.data.quoteId }, key),
      effect: () => count('SELECT count(*)::int AS n FROM swap_quotes WHERE user_id = $1 AND executed_entry_id IS NOT NULL', user.userId),
      beforeLateRetry: async () => {
        await tick('BTC/USDT', '90100');
      },
    };
  },
};

/** Commit, lose the answer, retry at once and after the in-flight window: one effect, the first answer. */
async function crashThenRetry(contractId: string) {
  const scenario = await scenarios[contractId]!();
  const key = `crash-${contractId}-${name('k')}`;
  const before = { all: await everything(), effect: await scenario.effect() };

  crashNext = contractId;
  lostAnswer = undefined;
  const lost = await scenario.send(key);
  expect(crashNext, 'the request reached its handler and committed').toBeNull();
  expect(lost).toMatchObject({ code: 500, msg: 'system error' });
  const firstAnswer = JSON.parse(JSON.stringify(lostAnswer)) as Call;
  expect(firstAnswer.code, JSON.stringify(firstAnswer)).toBe(200);
  const afterFirst = { all: await everything(), effect: await scenario.effect() };
  expect(afterFirst.effect, 'the first request had its effect').not.toEqual(before.effect);

  const immediateRetry = await scenario.send(key);
  nowMs += IN_FLIGHT_TIMEOUT_MS + 1_000;
  await scenario.beforeLateRetry?.();
  const lateRetry = await scenario.send(key);
  // One comparison, so a failure shows both retries and the effect together.
  expect({ immediateRetry, lateRetry, effect: await scenario.effect() }).toEqual({ immediateRetry: firstAnswer, lateRetry: firstAnswer, effect: afterFirst.effect });
  expect(await everything(), 'the retries changed nothing').toEqual(afterFirst.all);
  expect((await checkLedger(t.db)).problems).toEqual([]);
}

describe('an idempotent request whose answer was lost after its commit', () => {
  it('every idempotent contract has a crash scenario here', () => {
    const idempotent = allContracts.filter((contract) => contract.idempotent).map((contract) => contract.id);
    expect(idempotent.length).toBeGreaterThan(0);
    expect(idempotent.filter((id) => !(id in scenarios))).toEqual([]);
    expect(Object.keys(scenarios).filter((id) => !idempotent.includes(id))).toEqual([]);
  });

  for (const contractId of Object.keys(scenarios)) {
    it(`${contractId}: one effect, and both retries answer the first answer`, async () => {
      await crashThenRetry(contractId);
    });
  }
});

describe('a run whose claim was taken over after the in-flight window', () => {
  it('through the route: its effect rolls back with the answer it could not commit, and it answers for the run holding the key', async () => {
    const user = await optionsTrader(t.app, t.db, name('lostclaim'), '100');
    await tick('BTC/USDT', '50000');
    const key = `lost-claim-${name('k')}`;
    // Stands in for a retry that takes the claim over while this run works: the run's own first
    // write hands the claim to "another run" (a test-only trigger, dropped below).
    await t.db.exec(`
      CREATE FUNCTION test_take_claim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE idempotency_requests SET claim_token = 'another run' WHERE idem_key = '${key}';
        RETURN NEW;
      END;
      $$;
      CREATE TRIGGER test_take_claim AFTER INSERT ON option_orders FOR EACH ROW EXECUTE FUNCTION test_take_claim();`);
    try {
      const body = { symbol: 'BTC/USDT', direction: 'up', cycleSeconds: 30, amount: '40' };
      const answer = await call(t.app, 'POST', '/home/options/orders', user.token, body, key);
      // The other run has not answered yet: "request in progress", never a 500 and never this run's order.
      expect(answer).toMatchObject({ code: 409, msg: 'request in progress' });
    } finally {
      await t.db.exec('DROP TRIGGER test_take_claim ON option_orders; DROP FUNCTION test_take_claim();');
    }
    expect(await count('SELECT count(*)::int AS n FROM option_orders WHERE user_id = $1', user.userId)).toBe(0);
    expect(await t.db.query(`SELECT available_minor::text, frozen_minor::text FROM ledger_accounts WHERE user_id = $1 AND kind = 'options'`, [user.userId])).toEqual([
      { available_minor: '100000000', frozen_minor: '0' },
    ]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('can neither commit its answer (nor so its effect), nor overwrite or free the answer of the run that took over', async () => {
    const user = await walletUser(t.app, t.db, name('takeover'));
    const request = { scope: `user:${user.userId}`, key: `takeover-${name('k')}`, requestHash: 'same request' };
    const slow = await claimIdempotencyKey(t.db, { ...request, now: new Date(nowMs) });
    const retry = await claimIdempotencyKey(t.db, { ...request, now: new Date(nowMs + IN_FLIGHT_TIMEOUT_MS + 1) });
    if (slow.kind !== 'claimed' || retry.kind !== 'claimed') throw new Error('both runs should have claimed the key');
    const claimOf = (claim: { claimToken: string }) => ({ scope: request.scope, key: request.key, claimToken: claim.claimToken });
    const effects = () => count('SELECT count(*)::int AS n FROM messages WHERE title = $1', request.key);

    // The slow run finishes its work and tries to commit it with its answer, as answerInTransaction does.
    const slowRun = t.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO messages (user_id, title, body) VALUES ($1, $2, 'the slow run was here')`, [user.userId, request.key]);
      const body = { code: 200, msg: 'success', data: 'slow' };
      if (!(await storeIdempotentAnswer(tx, { ...claimOf(slow), status: 200, body }))) throw new IdempotentAnswerTaken(request.scope, request.key);
    });
    await expect(slowRun).rejects.toBeInstanceOf(IdempotentAnswerTaken);
    expect(await effects(), 'its effect rolled back with it').toBe(0);
    // Its failure handling cannot free the key of the run that took over.
    await releaseIdempotencyKey(t.db, claimOf(slow));
    expect((await claimIdempotencyKey(t.db, { ...request, now: new Date(nowMs + IN_FLIGHT_TIMEOUT_MS + 2) }).catch((error: Error) => error.message))).toBe('request in progress');

    expect(await storeIdempotentAnswer(t.db, { ...claimOf(retry), status: 200, body: { code: 200, msg: 'success', data: 'retry' } })).toBe(true);
    // A late answer of the slow run never overwrites the committed one.
    expect(await storeIdempotentAnswer(t.db, { ...claimOf(slow), status: 200, body: { code: 200, msg: 'success', data: 'slow' } })).toBe(false);
    expect(await storeIdempotentAnswer(t.db, { ...claimOf(retry), status: 409, body: { code: 409, msg: 'late', data: null } })).toBe(false);
    expect(await findIdempotentAnswer(t.db, request)).toEqual({ status: 200, body: { code: 200, msg: 'success', data: 'retry' } });
  });
});
