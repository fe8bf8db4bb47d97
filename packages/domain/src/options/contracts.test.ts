import { describe, expect, it } from 'vitest';
import { applyEntry, type AccountBalance, validateEntry } from '../ledger/postings.ts';
import {
  DEFAULT_OPTION_PRODUCTS_TEXT,
  decideOutcome,
  decideSettlement,
  OptionProductsError,
  parseOptionProducts,
  type SettleableOrder,
  settlementPostings,
  stakeProblem,
  winPayoutMinor,
} from './contracts.ts';

const USDT = 1_000_000n;
const limits = { maxCloseDelayMs: 10_000, recordingLagMs: 60_000 };
const order: SettleableOrder = { direction: 'up', stakeMinor: 100n * USDT, yieldBps: 8000, openPriceMinor: 50_000_00000000n, expiresAtMs: 1_000_000 };
const tick = (priceMinor: bigint, atMs = order.expiresAtMs) => ({ tickId: 7n, priceMinor, atMs });

describe('products', () => {
  it('reads the default products: 30, 60, 120 and 300 s with their yields and ranges', () => {
    const products = parseOptionProducts(DEFAULT_OPTION_PRODUCTS_TEXT);
    expect(products.map((p) => [p.cycleSeconds, p.yieldBps, p.minStakeMinor, p.maxStakeMinor, p.enabled])).toEqual([
      [30, 8000, 10n * USDT, 5_000n * USDT, true],
      [60, 8200, 10n * USDT, 10_000n * USDT, true],
      [120, 8500, 10n * USDT, 20_000n * USDT, true],
      [300, 8800, 10n * USDT, 50_000n * USDT, true],
    ]);
  });

  it('switches one product off with /off, takes decimal yields and sorts by cycle', () => {
    const products = parseOptionProducts('60/82.5/1/10/off, 30/80/0.5/5');
    expect(products.map((p) => [p.cycleSeconds, p.yieldBps, p.minStakeMinor, p.enabled])).toEqual([
      [30, 8000, 500_000n, true],
      [60, 8250, 1n * USDT, false],
    ]);
  });

  it.each([
    ['', 'at least one'],
    ['30/80/10', 'is not'],
    ['3/80/10/20', 'outside 5 s'],
    ['30/0/10/20', 'yield'],
    ['30/80/20/10', 'min ≤ max'],
    ['30/80/0/10', 'min ≤ max'],
    ['30/80/10/20,30/85/10/20', 'twice'],
    ['30/80/1.0000001/20', 'two amounts'],
  ])('refuses %j', (text, message) => {
    expect(() => parseOptionProducts(text)).toThrow(OptionProductsError);
    expect(() => parseOptionProducts(text)).toThrow(message);
  });

  it('checks the stake range inclusively', () => {
    const [product] = parseOptionProducts('30/80/10/5000');
    expect(stakeProblem(product!, 10n * USDT)).toBeNull();
    expect(stakeProblem(product!, 5_000n * USDT)).toBeNull();
    expect(stakeProblem(product!, 10n * USDT - 1n)).toBe('below_min');
    expect(stakeProblem(product!, 5_000n * USDT + 1n)).toBe('above_max');
  });
});

describe('outcome', () => {
  it('up wins above, loses below; down the opposite; equal is flat for both', () => {
    expect(decideOutcome('up', 100n, 101n)).toBe('won');
    expect(decideOutcome('up', 100n, 99n)).toBe('lost');
    expect(decideOutcome('down', 100n, 99n)).toBe('won');
    expect(decideOutcome('down', 100n, 101n)).toBe('lost');
    expect(decideOutcome('up', 100n, 100n)).toBe('flat');
    expect(decideOutcome('down', 100n, 100n)).toBe('flat');
  });
});

describe('payout rounding', () => {
  it('pays stake × yield exactly when it divides', () => {
    expect(winPayoutMinor(100n * USDT, 8000)).toBe(80n * USDT);
    expect(winPayoutMinor(10n * USDT, 8250)).toBe(8_250_000n);
  });

  it('rounds a fractional payout down to the minor unit, never up', () => {
    // 0.000013 × 85 % = 0.00001105 → 0.000011
    expect(winPayoutMinor(13n, 8500)).toBe(11n);
    // 0.000001 × 80 % = 0.0000008 → 0
    expect(winPayoutMinor(1n, 8000)).toBe(0n);
    // 12.345679 × 82 % = 10.12345678 → 10.123456
    expect(winPayoutMinor(12_345_679n, 8200)).toBe(10_123_456n);
  });
});

describe('decideSettlement', () => {
  it('settles a win with the payout as profit', () => {
    expect(decideSettlement(order, tick(50_000_00000001n), order.expiresAtMs, limits)).toEqual({
      kind: 'settle',
      status: 'won',
      closeTick: tick(50_000_00000001n),
      profitMinor: 80n * USDT,
    });
  });

  it('settles a loss as minus the whole stake', () => {
    const decision = decideSettlement(order, tick(49_999_99999999n), order.expiresAtMs + 5, limits);
    expect(decision).toMatchObject({ kind: 'settle', status: 'lost', profitMinor: -100n * USDT });
  });

  it('settles an equal close as flat with no profit', () => {
    expect(decideSettlement({ ...order, direction: 'down' }, tick(order.openPriceMinor), order.expiresAtMs, limits)).toMatchObject({
      status: 'flat',
      profitMinor: 0n,
    });
  });

  it('waits for a tick while one can still be recorded in time, then voids', () => {
    const lastWait = order.expiresAtMs + limits.maxCloseDelayMs + limits.recordingLagMs - 1;
    expect(decideSettlement(order, undefined, lastWait, limits)).toEqual({ kind: 'wait' });
    expect(decideSettlement(order, undefined, lastWait + 1, limits)).toEqual({ kind: 'settle', status: 'void', closeTick: null, profitMinor: 0n });
  });

  it('voids on a closing tick observed too long after expiry, and keeps it as evidence', () => {
    const late = tick(60_000_00000000n, order.expiresAtMs + limits.maxCloseDelayMs + 1);
    expect(decideSettlement(order, late, late.atMs, limits)).toEqual({ kind: 'settle', status: 'void', closeTick: late, profitMinor: 0n });
    const justInTime = tick(60_000_00000000n, order.expiresAtMs + limits.maxCloseDelayMs);
    expect(decideSettlement(order, justInTime, justInTime.atMs, limits)).toMatchObject({ status: 'won' });
  });

  it('refuses a closing tick from before expiry', () => {
    expect(() => decideSettlement(order, tick(1n, order.expiresAtMs - 1), order.expiresAtMs, limits)).toThrow(RangeError);
  });
});

describe('settlement postings', () => {
  const user = 10n;
  const house = 2n;
  const balances = (): Map<bigint, AccountBalance> =>
    new Map([
      [user, { accountId: user, asset: 'USDT', availableMinor: 0n, frozenMinor: 100n * USDT, allowNegative: false }],
      [house, { accountId: house, asset: 'USDT', availableMinor: 0n, frozenMinor: 0n, allowNegative: true }],
    ]);
  const settle = (status: 'won' | 'lost' | 'flat' | 'void', profitMinor: bigint) =>
    applyEntry(balances(), settlementPostings({ userAccountId: user, houseAccountId: house, asset: 'USDT', stakeMinor: 100n * USDT, status, profitMinor }));

  it('a win returns the stake and pays the payout from the house', () => {
    const after = settle('won', 80n * USDT);
    expect(after.get(user)).toMatchObject({ availableMinor: 180n * USDT, frozenMinor: 0n });
    expect(after.get(house)?.availableMinor).toBe(-80n * USDT);
  });

  it('a loss gives the frozen stake to the house', () => {
    const after = settle('lost', -100n * USDT);
    expect(after.get(user)).toMatchObject({ availableMinor: 0n, frozenMinor: 0n });
    expect(after.get(house)?.availableMinor).toBe(100n * USDT);
  });

  it.each(['flat', 'void'] as const)('%s returns the stake and leaves the house alone', (status) => {
    const after = settle(status, 0n);
    expect(after.get(user)).toMatchObject({ availableMinor: 100n * USDT, frozenMinor: 0n });
    expect(after.get(house)?.availableMinor ?? 0n).toBe(0n);
  });

  it('every entry is balanced', () => {
    for (const [status, profit] of [
      ['won', 80n * USDT],
      ['won', 0n],
      ['lost', -100n * USDT],
      ['flat', 0n],
      ['void', 0n],
    ] as const) {
      expect(() =>
        validateEntry(settlementPostings({ userAccountId: user, houseAccountId: house, asset: 'USDT', stakeMinor: 100n * USDT, status, profitMinor: profit })),
      ).not.toThrow();
    }
  });

  it('refuses postings that do not match the outcome', () => {
    const base = { userAccountId: user, houseAccountId: house, asset: 'USDT', stakeMinor: 100n * USDT };
    expect(() => settlementPostings({ ...base, status: 'lost', profitMinor: -1n })).toThrow(RangeError);
    expect(() => settlementPostings({ ...base, status: 'flat', profitMinor: 1n })).toThrow(RangeError);
    expect(() => settlementPostings({ ...base, status: 'won', profitMinor: -1n })).toThrow(RangeError);
  });
});
