import type { LeverageMarkPrice } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { addPushedTick, forgetPushedTicks, needsServerMark, newestServerMarks, noPushedTicks, type PushedTicks, shownMark } from './mark-prices.ts';

const at = 1_700_000_000_000;
let lastId = 100;
const tick = (price: string, atMs = at, symbol = 'BTC/USDT') => {
  lastId += 1;
  return { tickId: String(lastId), symbol, price, atMs };
};
const push = (pushed: PushedTicks, ...ticks: ReturnType<typeof tick>[]) => ticks.reduce(addPushedTick, pushed);

const serverMark: LeverageMarkPrice = { symbol: 'BTC/USDT', price: '60000.00000000', tickIds: ['10', '11', '12', '13', '14'], atMs: at };
const server = newestServerMarks([serverMark]);

describe('the mark price on screen', () => {
  it('is the server’s until five ticks have been pushed, then the median of the last five', () => {
    expect(shownMark('BTC/USDT', noPushedTicks, server)).toMatchObject({ price: '60000.00000000', tickIds: ['10', '11', '12', '13', '14'], from: 'server' });
    let pushed = push(noPushedTicks, tick('61000'), tick('59000'), tick('60500'), tick('70000'));
    expect(shownMark('BTC/USDT', pushed, server)?.from).toBe('server');
    const fifth = tick('60200');
    pushed = push(pushed, fifth);
    const mark = shownMark('BTC/USDT', pushed, server);
    // 59,000 60,200 60,500 61,000 70,000: one outlier does not move the median.
    expect(mark).toMatchObject({ price: '60500.00000000', priceMinor: 6050000000000n, from: 'ticks', atMs: at });
    expect(mark?.tickIds).toHaveLength(5);
    expect(mark?.tickIds.at(-1)).toBe(fifth.tickId);
    // The next tick drops the oldest.
    pushed = push(pushed, tick('59500'));
    expect(shownMark('BTC/USDT', pushed, server)?.price).toBe('60200.00000000');
  });

  it('takes only ticks within 30 s of the newest; fewer than three there is no mark price', () => {
    const old = at - 60_000;
    let pushed = push(noPushedTicks, tick('50000', old), tick('50000', old), tick('50000', old), tick('60000'), tick('62000'));
    expect(shownMark('BTC/USDT', pushed, server)).toBeNull();
    pushed = push(pushed, tick('61000'));
    // 60,000 61,000 62,000 in the window: 61,000, from those three ticks only.
    expect(shownMark('BTC/USDT', pushed, server)).toMatchObject({ price: '61000.00000000' });
    expect(shownMark('BTC/USDT', pushed, server)?.tickIds).toHaveLength(3);
  });

  it('ignores a tick it has seen (a replay), keeps markets apart, and starts again after missed ticks', () => {
    const first = tick('60000');
    let pushed = push(noPushedTicks, first);
    expect(addPushedTick(pushed, first)).toBe(pushed);
    pushed = push(pushed, tick('3000', at, 'ETH/USDT'));
    expect(pushed.get('BTC/USDT')).toHaveLength(1);
    expect(pushed.get('ETH/USDT')).toHaveLength(1);
    expect(forgetPushedTicks().size).toBe(0);
  });

  it('asks the server again only while its mark is older than a pushed tick and the run is too short', () => {
    expect(needsServerMark('BTC/USDT', noPushedTicks, server)).toBe(false);
    let pushed = push(noPushedTicks, tick('60000'));
    expect(needsServerMark('BTC/USDT', pushed, server)).toBe(true);
    const newer = newestServerMarks([serverMark], [{ ...serverMark, tickIds: [...serverMark.tickIds.slice(1), pushed.get('BTC/USDT')![0]!.tickId.toString()] }]);
    expect(needsServerMark('BTC/USDT', pushed, newer)).toBe(false);
    expect(needsServerMark('ETH/USDT', push(noPushedTicks, tick('3000', at, 'ETH/USDT')), server)).toBe(true);
    pushed = push(pushed, tick('1'), tick('2'), tick('3'), tick('4'));
    expect(needsServerMark('BTC/USDT', pushed, server)).toBe(false);
  });

  it('keeps the newest of the server’s answers per market', () => {
    const later = { ...serverMark, price: '60100.00000000', tickIds: ['11', '12', '13', '14', '15'] };
    expect(newestServerMarks([later], [serverMark], undefined).get('BTC/USDT')?.price).toBe('60100.00000000');
    expect(newestServerMarks([serverMark], [later]).get('BTC/USDT')?.price).toBe('60100.00000000');
  });
});
