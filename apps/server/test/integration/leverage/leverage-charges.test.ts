import { parseAmount, parsePriceMinor } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { chargeDuePositions } from '../../../src/use-cases/leverage/charge-positions.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { leveragedBalance, leverageTrader, platformBalance } from './leverage-helpers.ts';

// Funding (futures, every 8 hours at the published rate on the notional at the mark price) and
// interest (leveraged, every hour on what was borrowed), from the position's margin, each period
// exactly once, catching up after downtime (issue 16).

let t: TestApp;
const HOUR = 3_600_000;
// 12:00 UTC: funding next falls due at 16:00, interest at 13:00.
let nowMs = Date.UTC(2026, 10, 26, 12, 0, 0);
const BTC = 'BTC/USDT';

beforeAll(async () => {
  t = await createTestApp({ LEVERAGE_FUNDING_RATE_PPM: '100', LEVERAGE_INTEREST_RATE_PPM: '5' }, { market: true, now: () => new Date(nowMs) });
});
afterAll(() => t?.close());

const usdt = (text: string) => parseAmount(text, 6);
const charge = () => chargeDuePositions({ db: t.db, now: () => new Date(nowMs), config: t.config });
/** Three ticks at `price` in the seconds before `atMs`: a mark price at that time. */
async function markAt(atMs: number, price: string) {
  for (const offset of [3_000, 2_000, 1_000]) await t.market!.record([{ symbol: BTC, price, atMs: atMs - offset }]);
}
const open = (token: string, body: Record<string, unknown>) =>
  call(t.app, 'POST', '/home/leverage/positions', token, { product: 'futures', symbol: BTC, side: 'long', margin: '100', leverage: 20, ...body });
const position = async (token: string, id: string) => (await call(t.app, 'GET', `/home/leverage/positions/${id}`, token)).data;

describe('funding and interest', () => {
  it('charges futures funding at each 8-hour time from the mark price then, once, and catches up periods missed', async () => {
    const long = await leverageTrader(t.app, t.db, 'levfund1');
    const short = await leverageTrader(t.app, t.db, 'levfund2');
    await markAt(nowMs, '50000');
    const longPosition = await open(long.token, {});
    const shortPosition = await open(short.token, { side: 'short' });
    const houseBefore = await platformBalance(t.db, 'leverage_house');

    // Not due before 16:00.
    nowMs = Date.UTC(2026, 10, 26, 15, 59, 0);
    expect(await charge()).toEqual([]);

    // 16:00: the mark is 50,000. Long 0.03998 BTC: 0.01 % of 1,999 = 0.1999 paid; the short
    // (0.04002001 BTC, sold at 49,975) receives 0.01 % of 2,001.0005 = 0.200100 (rounded down).
    const sixteen = Date.UTC(2026, 10, 26, 16, 0, 0);
    await markAt(sixteen, '50000');
    nowMs = sixteen + 5_000;
    expect((await charge()).map((each) => each.positionId).sort()).toEqual([BigInt(longPosition.data.id), BigInt(shortPosition.data.id)].sort());
    const longAfter = await position(long.token, longPosition.data.id);
    expect(longAfter).toMatchObject({ margin: '99.800100', funding: '-0.199900' });
    expect(longAfter.events.at(-1)).toMatchObject({ kind: 'funding', periodAtMs: sixteen, marginChange: '-0.199900', price: '50000.00000000' });
    // Less margin: the long's liquidation price rises.
    expect(parsePriceMinor(longAfter.liquidationPrice) > parsePriceMinor(longPosition.data.liquidationPrice)).toBe(true);
    expect((await position(short.token, shortPosition.data.id)).margin).toBe('100.200100');
    expect((await platformBalance(t.db, 'leverage_house')) - houseBefore).toBe(usdt('0.1999') - usdt('0.2001'));
    // The same period again: nothing.
    expect(await charge()).toEqual([]);

    // Down for a day: 00:00 and 08:00 have marks recorded (51,000), 16:00 none (no funding then).
    await markAt(Date.UTC(2026, 10, 27, 0, 0, 0), '51000');
    await markAt(Date.UTC(2026, 10, 27, 8, 0, 0), '51000');
    nowMs = Date.UTC(2026, 10, 27, 17, 0, 0);
    await charge();
    const caughtUp = await position(long.token, longPosition.data.id);
    // 0.01 % of 0.03998 × 51,000 = 2,038.98 → 0.203898, twice.
    expect(caughtUp.events.filter((event: { kind: string }) => event.kind === 'funding').map((event: { periodAtMs: number; marginChange: string }) => [event.periodAtMs, event.marginChange])).toEqual([
      [sixteen, '-0.199900'],
      [Date.UTC(2026, 10, 27, 0, 0, 0), '-0.203898'],
      [Date.UTC(2026, 10, 27, 8, 0, 0), '-0.203898'],
    ]);
    expect(caughtUp.funding).toBe('-0.607696');
    expect(await charge()).toEqual([]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('charges hourly interest on what a leveraged position borrowed', async () => {
    const user = await leverageTrader(t.app, t.db, 'levinterest1');
    await markAt(nowMs, '50000');
    const opened = await open(user.token, { product: 'leveraged', leverage: 10, margin: '200' });
    // Borrowed 2,000 − 200 = 1,800 at 5 ppm an hour: 0.009 an hour, three hours.
    nowMs += 3 * HOUR;
    await charge();
    const after = await position(user.token, opened.data.id);
    expect(after.events.filter((event: { kind: string }) => event.kind === 'interest').map((event: { marginChange: string }) => event.marginChange)).toEqual([
      '-0.009000',
      '-0.009000',
      '-0.009000',
    ]);
    expect(after.margin).toBe('199.973000');
    expect(await leveragedBalance(t.db, user.userId)).toMatchObject({ frozen: usdt('199.973') });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
