import type { LeveragePosition, LeveragePositionEvent } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { chargeRecords, closePreview, marginChangePreview, notionalAt, standingAt } from './position-figures.ts';

const tick = { tickId: '7', symbol: 'BTC/USDT', price: '60000.00000000', atMs: 1_700_000_000_000, source: 'test' };

/** The 20x futures long of 100 USDT opened at 60,030 (60,000 plus the spread). */
const position: LeveragePosition = {
  id: '1',
  positionNo: 'F2024010100000001',
  product: 'futures',
  symbol: 'BTC/USDT',
  side: 'long',
  leverage: 20,
  status: 'open',
  closeReason: null,
  quantity: '0.03331667',
  entryPrice: '60030.00000000',
  entryNotional: '2000.000000',
  initialMargin: '100.000000',
  margin: '100.000000',
  liquidationPrice: '57315.07492454',
  takeProfitPrice: null,
  stopLossPrice: null,
  realizedPnl: '0.000000',
  fees: '2.000000',
  funding: '0.000000',
  openedAtMs: tick.atMs,
  closedAtMs: null,
  openTick: tick,
  events: [],
};

describe('an open position at the mark price', () => {
  it('unrealized PnL rounded down, equity, maintenance and margin ratio', () => {
    expect(standingAt(position, '60000.00000000')).toEqual({
      markPrice: '60000.00000000',
      // 0.03331667 × (60,000 − 60,030) = −0.9995001, rounded towards −∞
      unrealizedPnl: '-0.999501',
      equity: '99.000499',
      // 0.5 % of 1,999.0002, rounded up
      maintenance: '9.995001',
      // 9.995001 ÷ 99.000499 = 10.0959… %, rounded up in basis points
      marginRatioPercent: '10.10',
      // equity is below the margin, the margin is the initial margin: nothing to take back
      removableMargin: '0.000000',
    });
  });

  it('a profit lets margin above the initial margin be taken back; no ratio once equity is gone', () => {
    const topped = { ...position, margin: '150.000000' };
    expect(standingAt(topped, '61000').removableMargin).toBe('50.000000');
    expect(standingAt(topped, '61000').unrealizedPnl).toBe('32.317169');
    expect(standingAt(position, '50000').marginRatioPercent).toBeNull();
  });
});

describe('previews', () => {
  it('adding margin moves a long’s liquidation price down, removing it up', () => {
    expect(marginChangePreview(position, 'add', '50')).toEqual({ margin: '150.000000', liquidationPrice: '55806.78324109' });
    const removed = marginChangePreview({ ...position, margin: '150.000000' }, 'remove', '50');
    expect(removed).toEqual({ margin: '100.000000', liquidationPrice: '57315.07492454' });
    expect(marginChangePreview(position, 'remove', '100')).toBeNull();
    expect(marginChangePreview(position, 'add', 'abc')).toBeNull();
    expect(marginChangePreview(position, 'add', '0')).toBeNull();
  });

  it('a close at the last price: margin share, PnL, fee on the closing notional, payout', () => {
    expect(closePreview(position, '', '61000')).toEqual({
      quantity: '0.03331667',
      full: true,
      price: '61000.00000000',
      pnl: '32.317169',
      // 0.1 % of 2,032.31687 rounded up
      fee: '2.032317',
      payout: '130.284852',
      marginTaken: '100.000000',
      marginLeft: '0.000000',
    });
    // 0.01 of 0.03331667 takes 100 × 0.01 ÷ 0.03331667 = 30.015004… of the margin, rounded down.
    const half = closePreview(position, '0.01', '60000');
    expect(half).toMatchObject({ quantity: '0.01000000', full: false, pnl: '-0.300000', fee: '0.600000', marginTaken: '30.015004', marginLeft: '69.984996' });
    expect(closePreview(position, '0.04', '60000')).toBeNull();
    expect(closePreview(position, '0.000000001', '60000')).toBeNull();
    expect(notionalAt(position, '60000')).toBe('1999.000200');
  });
});

describe('funding and interest records', () => {
  const event = (id: string, kind: LeveragePositionEvent['kind'], periodAtMs: number | null): LeveragePositionEvent => ({
    id,
    kind,
    atMs: 1,
    quantity: null,
    price: null,
    tick: null,
    markTickIds: null,
    pnl: null,
    fee: null,
    insurance: null,
    payout: null,
    marginChange: '-0.100000',
    takeProfitPrice: null,
    stopLossPrice: null,
    periodAtMs,
    entryId: id,
  });

  it('every funding and interest event, newest period first, each once', () => {
    const a = { ...position, events: [event('1', 'open', null), event('2', 'funding', 100), event('4', 'funding', 300)] };
    const b = { ...position, id: '2', events: [event('3', 'interest', 200), event('5', 'close', null)] };
    const records = chargeRecords([a, b, a]);
    expect(records.map((record) => [record.event.id, record.position.id])).toEqual([
      ['4', '1'],
      ['3', '2'],
      ['2', '1'],
    ]);
  });
});
