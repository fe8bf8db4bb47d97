import { allContracts, type Contract } from '@keel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settleDueOptionOrders } from '../../../src/use-cases/options/settle-option-orders.ts';
import { registeredRoutes } from '../../helpers/routes.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { optionsTrader } from './options-helpers.ts';
import { leverageTrader } from '../leverage/leverage-helpers.ts';

// Issue 7 and decisions page §1.2: "No staff endpoint can set, edit or override a trade's result,
// a price, or a tick." This file proves it for every route the server actually registers, three
// ways: (1) every registered /home/admin route is a staff contract, and every staff contract that
// changes anything is on this reviewed list — a new one fails here until someone has looked at it;
// (2) no staff call takes an input named like a price, a tick or a result; (3) every staff route,
// called by a member holding every role with ids of real orders, ticks and users and a body full
// of prices, ticks and results, leaves the recorded ticks, the contracts and the contract accounts
// exactly as they were.

/** Staff calls that change something, reviewed: none of them touches prices, ticks or contract results. */
const REVIEWED_STAFF_WRITES = [
  'POST /home/admin/auth/login', // a staff session
  'POST /home/admin/auth/logout',
  'PUT /home/admin/users/:userId/status', // suspend, ban, forbid withdrawals (audited)
  'POST /home/admin/verifications/:submissionId/decision', // identity review
  'POST /home/admin/deposits/:depositId/decision', // credits exactly the reported deposit, maker-checker
  'POST /home/admin/withdrawals/:withdrawalId/decision',
  'POST /home/admin/withdrawals/:withdrawalId/complete',
  'POST /home/admin/withdrawals/:withdrawalId/fail',
  'POST /home/admin/p2p/appeals/:orderId/resolve', // release or refund a P2P escrow, with a note
  // Staff management (ADR 0020): staff accounts, their passwords, authenticators and sessions only;
  // none of them touches a price, a tick or a contract result, or any user's money.
  'POST /home/admin/staff', // create a staff account with roles and a one-time password
  'PUT /home/admin/staff/:staffId/roles',
  'POST /home/admin/staff/:staffId/disable', // also ends the member's sessions
  'POST /home/admin/staff/:staffId/enable',
  'POST /home/admin/staff/:staffId/password-reset', // a new one-time password, authenticator reset
  'DELETE /home/admin/staff/:staffId/sessions/:sessionId', // an admin revokes a member's session
  'POST /home/admin/me/password', // a member sets their own password
  'POST /home/admin/me/totp/setup', // a member enrols their authenticator
  'POST /home/admin/me/totp/enable',
  'DELETE /home/admin/me/sessions/:sessionId', // a member ends one of their own sessions
  // Earn products (issue 17, ADR 0035): the terms offered to *new* subscriptions, proposed by one
  // admin and applied only on a second admin's approval; a subscription keeps the terms it was sold
  // under, and interest is paid only by the job from those terms. No call pays, withholds or sets interest.
  'POST /home/admin/earn/changes',
  'POST /home/admin/earn/changes/:changeId/decision',
  // Loans (issue 18, ADR 0036): compliance approves an application (the principal the borrower
  // asked for is paid from the lending treasury; two members above the published amount) or rejects
  // it (the pledge returns); loan products' terms for *new* applications, proposed by one admin and
  // applied on a second's approval. No call sets a credit limit, a score, an amount owed, a price or
  // a liquidation: those come from the published policy and recorded ticks only.
  'POST /home/admin/loans/:loanId/decision',
  'POST /home/admin/loan-products/changes',
  'POST /home/admin/loan-products/changes/:changeId/decision',
  // The fund section (issue 18, ADR 0037): compliance puts a request into the pool or rejects it
  // (the pledge returns). Ratings, limits, releases and settlements are computed and run by the job.
  'POST /home/admin/fund/requests/:requestId/decision',
  // Staff corrections (issue 22, ADR 0039): the one way staff change a balance — a signed amount for
  // one account with a reason the user reads, posted as a journal entry only when a different member
  // approves (an admin above the published value). No price, tick, result or outcome is an input.
  'POST /home/admin/corrections',
  'POST /home/admin/corrections/:correctionId/decision',
  // Proof of liabilities (issue 22, ADR 0040): an admin asks for a snapshot now; it reads balances, writes none.
  'POST /home/admin/proof/snapshots',
  // C2C through merchants (issue 19, ADR 0043): a merchant is a counterparty, not an operator. They
  // publish their own fiat price and limits for requests offered from now on (as a P2P ad does),
  // accept or decline an offer, and say the fiat arrived or was sent; support resolves a dispute to
  // complete or fail, with the P2P appeal's two-person rule. No call sets a market price, a tick, a
  // contract result or a balance; a merchant's float changes only by a house correction (maker and
  // checker) and by the orders' own entries.
  'PUT /home/admin/c2c/merchant', // the merchant's profile, online switch and terms
  'POST /home/admin/c2c/merchant/requests/:requestId/accept',
  'POST /home/admin/c2c/merchant/requests/:requestId/decline',
  'POST /home/admin/c2c/merchant/requests/:requestId/confirm', // a deposit's fiat arrived: the held USDT to the user
  'POST /home/admin/c2c/merchant/requests/:requestId/paid', // a withdrawal's fiat sent, with the bank's reference
  'POST /home/admin/c2c/merchant/requests/:requestId/appeal',
  'POST /home/admin/c2c/appeals/:requestId/resolve', // complete or fail a disputed order, with a note
  // Content (issue 20): words for readers — news, help, courses, banners — and their images. No
  // money, no price, no market data: a news item's markets are links to their trade screens.
  'POST /home/admin/content/items',
  'PUT /home/admin/content/items/:itemId',
  'PUT /home/admin/content/items/:itemId/translations/:language',
  'DELETE /home/admin/content/items/:itemId/translations/:language',
  'POST /home/admin/content/items/:itemId/publish',
  'POST /home/admin/content/items/:itemId/unpublish',
  'POST /home/admin/content/images',
  // VIP (issue 20, ADR 0046): compliance approves an application only where the published rule
  // allows the level on application (the standing read at that moment), or rejects it; no price,
  // tick, result or balance is touched, and no level can be set outside the rule.
  'POST /home/admin/vip/applications/:applicationId/decision',
];

/**
 * Reviewed inputs whose names look like an outcome but are not a trade's: the resolution of a P2P
 * appeal (release the escrow to the buyer or refund the seller), decided by support staff on the
 * evidence of the chat and payment — there is no market price in a P2P order; and the terms of an
 * earn product offered to new subscriptions (a rate, a payout time), applied on a second admin's approval.
 */
const REVIEWED_OUTCOME_LIKE_INPUTS: Record<string, string[]> = {
  'POST /home/admin/p2p/appeals/:orderId/resolve': ['outcome'],
  // A C2C dispute (above): complete or fail, decided by support on the screenshot and the bank reference.
  'POST /home/admin/c2c/appeals/:requestId/resolve': ['outcome'],
  // A merchant's own fiat price per USDT, quoted to users before they confirm (like a P2P ad's price);
  // it never reaches a contract, a position or a liquidation, and an accepted order keeps its price.
  'PUT /home/admin/c2c/merchant': ['price'],
  // A news item's markets (issue 20): symbols linking to their trade screens, never a price.
  'POST /home/admin/content/items': ['marketSymbols'],
  'PUT /home/admin/content/items/:itemId': ['marketSymbols'],
  // An earn product's published terms for new subscriptions (above); existing ones never change.
  'POST /home/admin/earn/changes': ['dailyRatePercent', 'penaltyRatePercent', 'payoutTimeUtc', 'open'],
  // A loan product's published terms for new applications (above); existing loans never change.
  'POST /home/admin/loan-products/changes': ['dailyRatePercent', 'marginCallLtvPercent', 'liquidationLtvPercent', 'open'],
};

/**
 * Input names that would let a caller say what a price, a tick or a result is — of a contract, or
 * of a leveraged or futures position (issue 16: a mark price, a trigger, a liquidation, a PnL).
 */
const OUTCOME_FIELD = /price|tick|result|outcome|profit|payout|yield|settle|candle|close|open|rate|mark|trigger|liquidat|pnl|margin|funding|interest|leverage|stop|take/i;

/** Field names of a zod object schema, nested objects and arrays included. */
function fieldNames(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const names: string[] = [];
  const visit = (node: z.ZodType) => {
    if (node instanceof z.ZodObject) {
      for (const [name, child] of Object.entries(node.shape as Record<string, z.ZodType>)) {
        names.push(name);
        visit(child);
      }
    } else if (node instanceof z.ZodOptional || node instanceof z.ZodNullable || node instanceof z.ZodDefault) {
      visit(node.unwrap() as z.ZodType);
    } else if (node instanceof z.ZodArray) {
      visit(node.element as z.ZodType);
    } else if (node instanceof z.ZodPipe) {
      visit(node.in as z.ZodType);
    } else if (node instanceof z.ZodUnion) {
      for (const option of node.options as z.ZodType[]) visit(option);
    }
  };
  visit(schema);
  return names;
}

const staffContracts = (allContracts as readonly Contract[]).filter((contract) => contract.caller === 'staff');
const key = (contract: Contract) => `${contract.method} ${contract.path}`;

let t: TestApp;
let nowMs = Date.UTC(2026, 10, 22, 12, 0, 0);

beforeAll(async () => {
  t = await createTestApp({}, { market: true, now: () => new Date(nowMs) });
});
afterAll(() => t?.close());

describe('staff routes and contract outcomes', () => {
  it('every registered admin route is a staff contract, and every staff write is reviewed', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
    expect(registered.length).toBeGreaterThan(50);
    const adminRoutes = registered.filter((route) => route.split(' ')[1]!.startsWith('/home/admin'));
    expect(adminRoutes.sort()).toEqual(staffContracts.map(key).concat(['POST /home/admin/auth/login']).sort());
    // Every staff contract is registered (none is served under another prefix).
    for (const contract of staffContracts) expect(registered).toContain(key(contract));
    const writes = staffContracts.filter((contract) => contract.method !== 'GET').map(key);
    expect(writes.sort()).toEqual(REVIEWED_STAFF_WRITES.filter((route) => route !== 'POST /home/admin/auth/login').sort());
  });

  it('no staff call takes a price, a tick or a result as input', () => {
    for (const contract of staffContracts) {
      const names = [...fieldNames(contract.body as z.ZodType | undefined), ...fieldNames(contract.query as z.ZodType | undefined), ...fieldNames(contract.params as z.ZodType | undefined)];
      expect(names.filter((name) => OUTCOME_FIELD.test(name)), key(contract)).toEqual(REVIEWED_OUTCOME_LIKE_INPUTS[key(contract)] ?? []);
    }
    // The options staff calls are reads.
    expect(staffContracts.filter((contract) => contract.path.includes('/options')).map((contract) => contract.method)).toEqual(['GET', 'GET']);
    // So are the leverage staff calls: positions, one position, the house's exposure, the insurance fund (issue 16).
    expect(staffContracts.filter((contract) => contract.path.includes('/leverage')).map((contract) => contract.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
  });

  // Every staff contract × 8 ids, each with a fresh staff login (a password hash): over a minute on PGlite.
  it('no staff route, called with every role and outcome-shaped input, changes a tick, a contract or a contract balance', { timeout: 240_000 }, async () => {
    const user = await optionsTrader(t.app, t.db, 'optstaffproof1');
    const [opening] = await t.market!.record([{ symbol: 'BTC/USDT', price: '50000', atMs: nowMs }]);
    const settledOrder = await call(t.app, 'POST', '/home/options/orders', user.token, { symbol: 'BTC/USDT', direction: 'up', cycleSeconds: 30, amount: '100' });
    nowMs = settledOrder.data.expiresAtMs;
    const [closing] = await t.market!.record([{ symbol: 'BTC/USDT', price: '49000', atMs: nowMs }]);
    nowMs += 1;
    await settleDueOptionOrders({ db: t.db, now: () => new Date(nowMs), config: t.config });
    const openOrder = await call(t.app, 'POST', '/home/options/orders', user.token, { symbol: 'BTC/USDT', direction: 'down', cycleSeconds: 60, amount: '10' });
    expect(openOrder.code).toBe(200);
    // A leveraged position, open, with a take-profit and a stop-loss (issue 16).
    const trader = await leverageTrader(t.app, t.db, 'levstaffproof1');
    await t.market!.record([{ symbol: 'BTC/USDT', price: '50000', atMs: nowMs }]);
    const position = await call(t.app, 'POST', '/home/leverage/positions', trader.token, {
      product: 'futures',
      symbol: 'BTC/USDT',
      side: 'long',
      margin: '100',
      leverage: 20,
      takeProfitPrice: '60000',
      stopLossPrice: '49000',
    });
    expect(position.code).toBe(200);
    const limitOrder = await call(t.app, 'POST', '/home/leverage/orders', trader.token, {
      product: 'futures',
      symbol: 'BTC/USDT',
      side: 'short',
      margin: '100',
      leverage: 20,
      limitPrice: '60000',
    });
    expect(limitOrder.code).toBe(200);

    const snapshot = async () => ({
      ticks: await t.db.query('SELECT id, symbol, price::text, observed_at_ms, source FROM market_ticks ORDER BY id'),
      candles: await t.db.query('SELECT * FROM market_candles ORDER BY symbol, interval, open_time_ms'),
      orders: await t.db.query('SELECT * FROM option_orders ORDER BY id'),
      accounts: await t.db.query(
        `SELECT id, available_minor::text, frozen_minor::text FROM ledger_accounts WHERE kind IN ('options', 'options_house') ORDER BY id`,
      ),
      settlements: await t.db.query(`SELECT id FROM journal_entries WHERE reason = 'options.settle' OR reference_type = 'option_order' ORDER BY id`),
      positions: await t.db.query('SELECT * FROM leverage_positions ORDER BY id'),
      positionEvents: await t.db.query('SELECT * FROM leverage_position_events ORDER BY id'),
      limitOrders: await t.db.query('SELECT * FROM leverage_orders ORDER BY id'),
      cursors: await t.db.query('SELECT * FROM leverage_trigger_cursors ORDER BY symbol'),
      exposures: await t.db.query('SELECT symbol, side, open_notional_minor::text FROM leverage_exposures ORDER BY symbol, side'),
      leverageAccounts: await t.db.query(
        `SELECT id, available_minor::text, frozen_minor::text FROM ledger_accounts
         WHERE kind IN ('leveraged', 'leverage_house', 'insurance_fund') OR (kind = 'fees' AND label = 'leverage') ORDER BY id`,
      ),
    });
    const before = await snapshot();
    expect(before.orders).toHaveLength(2);

    const roles = ['admin', 'compliance', 'finance', 'support', 'content', 'merchant'];
    const ids = [settledOrder.data.id, openOrder.data.id, user.userId, opening!.tickId.toString(), closing!.tickId.toString(), position.data.id, trader.userId, limitOrder.data.id];
    const outcomeBody = {
      price: '1',
      openPrice: '1',
      closePrice: '99999999',
      tickId: closing!.tickId.toString(),
      closeTickId: opening!.tickId.toString(),
      result: 'won',
      status: 'won',
      outcome: 'won',
      profit: '1000000',
      actualProfit: '1000000',
      markPrice: '1',
      liquidationPrice: '99999999',
      takeProfitPrice: '1',
      stopLossPrice: '99999999',
      pnl: '1000000',
      realizedPnl: '1000000',
      margin: '0',
      positionId: position.data.id,
      orderId: limitOrder.data.id,
      limitPrice: '1',
      liquidate: true,
      decision: 'approve',
      resolution: 'release',
      note: 'staff attempt',
      reason: 'staff attempt',
      txHash: `0x${'ab'.repeat(32)}`,
    };
    let answered = 0;
    for (const contract of staffContracts) {
      for (const id of ids) {
        // A fresh session each time: logout is one of the routes.
        const token = await createStaff(t.app, t.db, `proof${contract.id.replaceAll('.', '')}${answered}`.slice(0, 32), roles);
        const url = contract.path.replaceAll(/:[A-Za-z]+/g, id);
        const query = new URLSearchParams(Object.entries(outcomeBody).map(([name, value]) => [name, String(value)])).toString();
        const response = await t.app.inject({
          method: contract.method,
          url: contract.method === 'GET' ? `${url}?${query}` : url,
          headers: { authorization: token, 'idempotency-key': `proof-${answered}-key` },
          ...(contract.method === 'GET' ? {} : { payload: outcomeBody }),
        });
        expect(response.statusCode, `${key(contract)} with ${id}`).toBeLessThan(500);
        answered += 1;
      }
    }
    expect(answered).toBe(staffContracts.length * ids.length);
    expect(await snapshot()).toEqual(before);
  });
});
