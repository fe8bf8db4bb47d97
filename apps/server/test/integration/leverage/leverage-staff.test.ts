import { errorCatalogue, staffRoles } from '@keel/contracts';
import { formatAmount, parseAmount } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { runTriggerPass } from '../../../src/use-cases/leverage/trigger-engine.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import type { WalletUser } from '../../helpers/wallet.ts';
import { call } from '../../helpers/wallet.ts';
import { leverageTrader, platformBalance } from './leverage-helpers.ts';

// The staff side of leveraged and futures positions (issue 16), on a real database: five positions
// of four users — two left open, one closed by its owner, one liquidated by a gap past its
// liquidation price (the insurance fund bears the rest of the loss), one liquidated on a steady fall
// (the fund receives the liquidation fee) — then every staff view's numbers checked exactly against
// the positions, their events and the ledger, and each view's roles allowed and refused.

let t: TestApp;
let nowMs = Date.UTC(2026, 10, 27, 9, 0, 0);
const BTC = 'BTC/USDT';
const ETH = 'ETH/USDT';
/** A low published limit, so the exposure's share of it reads in whole percents. */
const LIMIT = '10000';

beforeAll(async () => {
  t = await createTestApp({ LEVERAGE_EXPOSURE_LIMIT_USDT: LIMIT }, { market: true, now: () => new Date(nowMs) });
});
afterAll(() => t?.close());

/** Records ticks one second apart, ending at the app's clock, and moves the clock past them. */
async function ticks(symbol: string, prices: readonly string[]) {
  for (const price of prices) {
    nowMs += 1_000;
    await t.market!.record([{ symbol, price, atMs: nowMs }]);
  }
}
const engine = () => runTriggerPass({ db: t.db, now: () => new Date(nowMs) });
/** A signed USDT text in minor units. */
const usdt = (text: string) => (text.startsWith('-') ? -parseAmount(text.slice(1), 6) : parseAmount(text, 6));
const formatUsdt = (minor: bigint) => formatAmount(minor, 6);

// biome-ignore lint/suspicious/noExplicitAny: the tests read answers shaped by the contracts.
type Position = any;

async function open(user: WalletUser, body: Record<string, unknown>): Promise<Position> {
  const answer = await call(t.app, 'POST', '/home/leverage/positions', user.token, { product: 'futures', symbol: BTC, side: 'long', ...body });
  if (answer.code !== 200) throw new Error(`open: ${answer.msg} ${JSON.stringify(answer.data)}`);
  return answer.data;
}
/** The position as its owner reads it. */
const ownView = async (user: WalletUser, id: string) => (await call(t.app, 'GET', `/home/leverage/positions/${id}`, user.token)).data;

const staffGet = (token: string, url: string) => call(t.app, 'GET', url, token);
/** A staff answer's data, failing loudly on anything but a success. */
async function staffData(token: string, url: string) {
  const answer = await staffGet(token, url);
  if (answer.code !== 200) throw new Error(`${url}: ${answer.code} ${answer.msg}`);
  return answer.data;
}
const withoutStaffFields = ({ userId: _userId, userName: _userName, mark: _mark, ...position }: Position) => position;

let alice: WalletUser;
let bob: WalletUser;
let carol: WalletUser;
let dave: WalletUser;
let admin: string;
let finance: string;
let support: string;
const positions: Record<'aliceBtcShort' | 'aliceEthShort' | 'bobBtcLong' | 'carolBtcLong' | 'daveEthLong', Position> = {} as never;
let exposureWhileAllOpen: Position;

beforeAll(async () => {
  [alice, bob, carol, dave] = [
    await leverageTrader(t.app, t.db, 'levstaffalice'),
    await leverageTrader(t.app, t.db, 'levstaffbob'),
    await leverageTrader(t.app, t.db, 'levstaffcarol'),
    await leverageTrader(t.app, t.db, 'levstaffdave'),
  ];
  // Staff lists name a user by the nickname when there is one (publicUserName).
  await t.db.query('UPDATE users SET nickname = $2 WHERE id = $1', [carol.userId, 'Carol C.']);
  admin = await createStaff(t.app, t.db, 'levstaffadmin', ['admin']);
  finance = await createStaff(t.app, t.db, 'levstafffinance', ['finance']);
  support = await createStaff(t.app, t.db, 'levstaffsupport', ['support']);

  await ticks(BTC, ['50000', '50000', '50000', '50000']);
  await ticks(ETH, ['3000', '3000', '3000', '3000']);
  positions.aliceBtcShort = await open(alice, { side: 'short', margin: '100', leverage: 20 });
  positions.aliceEthShort = await open(alice, { symbol: ETH, side: 'short', margin: '50', leverage: 10 });
  positions.bobBtcLong = await open(bob, { margin: '100', leverage: 20 });
  positions.carolBtcLong = await open(carol, { product: 'leveraged', margin: '200', leverage: 10 });
  positions.daveEthLong = await open(dave, { product: 'leveraged', symbol: ETH, margin: '200', leverage: 10 });
  exposureWhileAllOpen = await staffData(finance, '/home/admin/leverage/exposure');

  // Carol closes at the last recorded price; then BTC gaps to 40,000: Bob's 20x long is liquidated
  // at the mark 40,000, its loss beyond the margin borne by the insurance fund.
  const closed = await call(t.app, 'POST', `/home/leverage/positions/${positions.carolBtcLong.id}/close`, carol.token, {});
  if (closed.code !== 200) throw new Error(`close: ${closed.msg}`);
  await ticks(BTC, ['40000', '40000', '40000']);
  await engine();
  // ETH falls 0.4 % a tick: Dave's 10x long is liquidated near its liquidation price, with margin
  // left for the liquidation fee (to the fund) and for Dave.
  await ticks(
    ETH,
    Array.from({ length: 30 }, (_, index) => String(3_000 - 12 * (index + 1))),
  );
  await engine();
  for (const [name, position] of Object.entries(positions)) {
    const owner = { aliceBtcShort: alice, aliceEthShort: alice, bobBtcLong: bob, carolBtcLong: carol, daveEthLong: dave }[name as keyof typeof positions];
    positions[name as keyof typeof positions] = await ownView(owner, position.id);
  }
  expect(positions.bobBtcLong.status).toBe('liquidated');
  expect(positions.daveEthLong.status).toBe('liquidated');
  expect(positions.carolBtcLong.status).toBe('closed');
  expect([positions.aliceBtcShort.status, positions.aliceEthShort.status]).toEqual(['open', 'open']);
  expect((await checkLedger(t.db)).problems).toEqual([]);
});

describe('the positions of all users', () => {
  it('lists them newest first with the owner’s id and public name, each exactly as its owner reads it', async () => {
    const list = await staffData(support, '/home/admin/leverage/positions');
    expect(list).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    const order = [positions.daveEthLong, positions.carolBtcLong, positions.bobBtcLong, positions.aliceEthShort, positions.aliceBtcShort];
    expect(list.items.map((item: Position) => item.id)).toEqual(order.map((position) => position.id));
    expect(list.items.map((item: Position) => [item.userId, item.userName])).toEqual([
      [dave.userId, 'levstaffdave'],
      [carol.userId, 'Carol C.'],
      [bob.userId, 'levstaffbob'],
      [alice.userId, 'levstaffalice'],
      [alice.userId, 'levstaffalice'],
    ]);
    // Each as its owner's list has it (the last few events), and as its owner's detail when it has few events.
    const ownLists = new Map<string, Position>();
    for (const [user, scope] of [
      [alice, 'open'],
      [bob, 'history'],
      [carol, 'history'],
      [dave, 'history'],
    ] as const) {
      for (const item of (await call(t.app, 'GET', `/home/leverage/positions?scope=${scope}`, user.token)).data.items) ownLists.set(item.id, item);
    }
    for (const item of list.items) expect(withoutStaffFields(item)).toEqual(ownLists.get(item.id));
    expect(withoutStaffFields(list.items[2])).toEqual(positions.bobBtcLong);
    // The marks of the open positions' markets, the same the owner is shown.
    const aliceOpen = (await call(t.app, 'GET', '/home/leverage/positions?scope=open', alice.token)).data;
    expect(list.marks).toEqual([...aliceOpen.marks].sort((a: Position, b: Position) => a.symbol.localeCompare(b.symbol)));
    expect(list.marks.map((mark: Position) => mark.symbol)).toEqual([BTC, ETH]);
  });

  it('filters by status, product, market and user, and pages', async () => {
    const ids = async (query: string) => (await staffData(finance, `/home/admin/leverage/positions?${query}`)).items.map((item: Position) => item.id);
    expect(await ids('status=open')).toEqual([positions.aliceEthShort.id, positions.aliceBtcShort.id]);
    expect(await ids('status=closed')).toEqual([positions.carolBtcLong.id]);
    expect(await ids('status=liquidated')).toEqual([positions.daveEthLong.id, positions.bobBtcLong.id]);
    expect(await ids('product=leveraged')).toEqual([positions.daveEthLong.id, positions.carolBtcLong.id]);
    expect(await ids(`symbol=${encodeURIComponent(ETH)}`)).toEqual([positions.daveEthLong.id, positions.aliceEthShort.id]);
    expect(await ids(`userId=${alice.userId}`)).toEqual([positions.aliceEthShort.id, positions.aliceBtcShort.id]);
    expect(await ids(`status=open&product=futures&symbol=${encodeURIComponent(BTC)}&userId=${alice.userId}`)).toEqual([positions.aliceBtcShort.id]);
    expect(await ids('status=liquidated&product=futures&symbol=ETH%2FUSDT')).toEqual([]);
    const page2 = await staffData(finance, '/home/admin/leverage/positions?pageSize=2&page=2');
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page2.items.map((item: Position) => item.id)).toEqual([positions.bobBtcLong.id, positions.aliceEthShort.id]);
    // Closed and liquidated positions have no mark to show.
    expect((await staffData(finance, '/home/admin/leverage/positions?status=liquidated')).marks).toEqual([]);
    const refused = await staffGet(finance, '/home/admin/leverage/positions?status=won&userId=x');
    expect(refused.msg).toBe(errorCatalogue.PARAMETER_ERROR.msg);
    expect(refused.data.fields.map((field: { field: string }) => field.field).sort()).toEqual(['query.status', 'query.userId']);
  });

  it('opens one position with every event and its ticks; the mark only while it is open', async () => {
    const liquidated = await staffData(support, `/home/admin/leverage/positions/${positions.bobBtcLong.id}`);
    expect(liquidated).toMatchObject({ userId: bob.userId, userName: 'levstaffbob', mark: null });
    expect(withoutStaffFields(liquidated)).toEqual(positions.bobBtcLong);
    const gap = liquidated.events.at(-1);
    expect(gap).toMatchObject({ kind: 'liquidation', price: '40000.00000000', pnl: '-400.799500', payout: '0.000000', insurance: '-300.799500' });
    expect(gap.tick).toMatchObject({ symbol: BTC, price: '40000.00000000', source: 'test' });
    expect(gap.markTickIds).toHaveLength(5);

    const stillOpen = await staffData(admin, `/home/admin/leverage/positions/${positions.aliceBtcShort.id}`);
    expect(withoutStaffFields(stillOpen)).toEqual(positions.aliceBtcShort);
    const marks = (await staffData(admin, '/home/admin/leverage/positions?status=open')).marks;
    expect(stillOpen.mark).toEqual(marks.find((mark: Position) => mark.symbol === BTC));
    expect(stillOpen.mark.price).toBe('40000.00000000');

    expect((await staffGet(admin, '/home/admin/leverage/positions/987654321')).msg).toBe(errorCatalogue.RECORD_NOT_FOUND.msg);
    expect((await staffGet(admin, '/home/admin/leverage/positions/abc')).msg).toBe(errorCatalogue.PARAMETER_ERROR.msg);
  });
});

describe('the house’s exposure per market and side', () => {
  const row = (exposure: Position, symbol: string, side: string) => exposure.markets.find((each: Position) => each.symbol === symbol && each.side === side);

  it('while all five were open: the open notionals against the published limit, with counts and margins', async () => {
    expect(exposureWhileAllOpen).toMatchObject({ asset: 'USDT', limit: '10000.000000' });
    expect(exposureWhileAllOpen.totals).toEqual({ exposure: '8500.000000', openPositions: 5, openMargin: '650.000000' });
    expect(row(exposureWhileAllOpen, BTC, 'long')).toEqual({
      symbol: BTC,
      side: 'long',
      exposure: '4000.000000',
      remaining: '6000.000000',
      usedPercent: '40.00',
      openPositions: 2,
      openNotional: '4000.000000',
      openMargin: '300.000000',
    });
    expect(row(exposureWhileAllOpen, BTC, 'short')).toMatchObject({ exposure: '2000.000000', usedPercent: '20.00', openPositions: 1, openMargin: '100.000000' });
    expect(row(exposureWhileAllOpen, ETH, 'long')).toMatchObject({ exposure: '2000.000000', usedPercent: '20.00', openPositions: 1, openMargin: '200.000000' });
    expect(row(exposureWhileAllOpen, ETH, 'short')).toMatchObject({ exposure: '500.000000', usedPercent: '5.00', openPositions: 1, openMargin: '50.000000' });
  });

  it('after the close and the liquidations: only Alice’s two, every configured market listed with both sides', async () => {
    const exposure = await staffData(admin, '/home/admin/leverage/exposure');
    expect(exposure.totals).toEqual({ exposure: '2500.000000', openPositions: 2, openMargin: '150.000000' });
    const zero = { exposure: '0.000000', remaining: '10000.000000', usedPercent: '0.00', openPositions: 0, openNotional: '0.000000', openMargin: '0.000000' };
    expect(row(exposure, BTC, 'long')).toEqual({ symbol: BTC, side: 'long', ...zero });
    expect(row(exposure, ETH, 'long')).toEqual({ symbol: ETH, side: 'long', ...zero });
    expect(row(exposure, BTC, 'short')).toEqual({
      symbol: BTC,
      side: 'short',
      exposure: '2000.000000',
      remaining: '8000.000000',
      usedPercent: '20.00',
      openPositions: 1,
      openNotional: '2000.000000',
      openMargin: '100.000000',
    });
    expect(row(exposure, ETH, 'short')).toMatchObject({ exposure: '500.000000', openNotional: '500.000000', openMargin: '50.000000', usedPercent: '5.00' });
    const symbols = [...t.config.MARKET_SYMBOLS].sort();
    expect(exposure.markets.map((each: Position) => `${each.symbol} ${each.side}`)).toEqual(symbols.flatMap((symbol) => [`${symbol} long`, `${symbol} short`]));
    for (const each of exposure.markets.filter((market: Position) => market.symbol !== BTC && market.symbol !== ETH)) expect(each).toMatchObject(zero);
    // The house's exposure is what the open positions sum to, as the ledger check also says.
    const [stored] = await t.db.query<{ total: string }>('SELECT sum(open_notional_minor)::text AS total FROM leverage_exposures');
    expect(formatUsdt(BigInt(stored!.total))).toBe(exposure.totals.exposure);
  });
});

describe('the insurance fund', () => {
  it('shows its balance next to what the liquidations sum to, the house and fee balances, and its entries newest first', async () => {
    const fund = await staffData(finance, '/home/admin/leverage/insurance-fund');
    const daveLiquidation = positions.daveEthLong.events.at(-1);
    const bobLiquidation = positions.bobBtcLong.events.at(-1);
    expect(daveLiquidation.kind).toBe('liquidation');
    const received = usdt(daveLiquidation.insurance);
    expect(received).toBeGreaterThan(0n);
    expect(fund.insuranceFund).toEqual({
      balance: formatUsdt(received - usdt('300.7995')),
      received: daveLiquidation.insurance,
      paid: '300.799500',
      fromEvents: formatUsdt(received - usdt('300.7995')),
      liquidations: 2,
    });
    expect(usdt(fund.insuranceFund.balance)).toBe(await platformBalance(t.db, 'insurance_fund'));
    // The house: the other side of the users' realized PnL, funding and interest.
    const all = Object.values(positions);
    const usersResult = all.reduce<bigint>((sum, position) => sum + usdt(position.realizedPnl) + usdt(position.funding), 0n);
    expect(fund.house.balance).toBe(formatUsdt(-usersResult));
    expect(usdt(fund.house.balance)).toBe(await platformBalance(t.db, 'leverage_house'));
    // The fee account: every position's fees, on opening and closing.
    expect(fund.fees.balance).toBe(formatUsdt(all.reduce<bigint>((sum, position) => sum + usdt(position.fees), 0n)));
    expect(usdt(fund.fees.balance)).toBe(await platformBalance(t.db, 'fees', 'leverage'));

    expect(fund.entries).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(fund.entries.items).toEqual([
      {
        entryId: daveLiquidation.entryId,
        reason: 'leverage.liquidation',
        referenceType: 'leverage_position',
        referenceId: positions.daveEthLong.id,
        positionNo: positions.daveEthLong.positionNo,
        amount: daveLiquidation.insurance,
        createdAt: new Date(daveLiquidation.atMs).toISOString(),
      },
      {
        entryId: bobLiquidation.entryId,
        reason: 'leverage.liquidation',
        referenceType: 'leverage_position',
        referenceId: positions.bobBtcLong.id,
        positionNo: positions.bobBtcLong.positionNo,
        amount: '-300.799500',
        createdAt: new Date(bobLiquidation.atMs).toISOString(),
      },
    ]);
    const second = await staffData(admin, '/home/admin/leverage/insurance-fund?page=2&pageSize=1');
    expect(second.entries).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(second.entries.items.map((entry: Position) => entry.entryId)).toEqual([bobLiquidation.entryId]);
    expect((await staffData(admin, '/home/admin/leverage/insurance-fund?page=3&pageSize=1')).entries.items).toEqual([]);
  });

  it('reads zero and no entries on a platform that has had no position yet', async () => {
    const fresh = await createTestApp({}, { market: true, now: () => new Date(nowMs) });
    try {
      const token = await createStaff(fresh.app, fresh.db, 'levstafffresh', ['finance']);
      const fund = (await call(fresh.app, 'GET', '/home/admin/leverage/insurance-fund', token)).data;
      expect(fund).toEqual({
        asset: 'USDT',
        insuranceFund: { balance: '0.000000', received: '0.000000', paid: '0.000000', fromEvents: '0.000000', liquidations: 0 },
        house: { balance: '0.000000' },
        fees: { balance: '0.000000' },
        entries: { items: [], total: 0, page: 1, pageSize: 20 },
      });
      const exposure = (await call(fresh.app, 'GET', '/home/admin/leverage/exposure', token)).data;
      expect(exposure).toMatchObject({ limit: '5000000.000000', totals: { exposure: '0.000000', openPositions: 0, openMargin: '0.000000' } });
      expect(exposure.markets).toHaveLength(fresh.config.MARKET_SYMBOLS.length * 2);
    } finally {
      await fresh.close();
    }
  });
});

describe('who may read them', () => {
  it('positions: admin, finance and support; the house’s exposure and insurance fund: admin and finance; no user', async () => {
    const reads = {
      positions: '/home/admin/leverage/positions',
      position: `/home/admin/leverage/positions/${positions.bobBtcLong.id}`,
      exposure: '/home/admin/leverage/exposure',
      insuranceFund: '/home/admin/leverage/insurance-fund',
    };
    const allowed: Record<keyof typeof reads, string[]> = {
      positions: ['admin', 'finance', 'support'],
      position: ['admin', 'finance', 'support'],
      exposure: ['admin', 'finance'],
      insuranceFund: ['admin', 'finance'],
    };
    for (const role of staffRoles) {
      const token = await createStaff(t.app, t.db, `levstaffrole${role}`, [role]);
      for (const [name, url] of Object.entries(reads) as [keyof typeof reads, string][]) {
        const answer = await staffGet(token, url);
        if (allowed[name].includes(role)) expect(answer.code, `${role} ${name}`).toBe(200);
        else expect([answer.code, answer.msg], `${role} ${name}`).toEqual([403, errorCatalogue.PERMISSION_DENIED.msg]);
      }
    }
    for (const url of Object.values(reads)) {
      expect((await staffGet(alice.token, url)).code, url).toBe(401);
      expect((await call(t.app, 'GET', url, null)).code, url).toBe(401);
    }
  });
});
