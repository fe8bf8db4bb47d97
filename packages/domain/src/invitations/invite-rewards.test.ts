import { describe, expect, it } from 'vitest';
import {
  UTC_DAY_MS,
  dayFromText,
  dayPartOf,
  daysDue,
  dayText,
  inviteRewardMinor,
  inviteRewardPostings,
  lastCompleteDay,
  rewardWindow,
  utcDayOf,
} from './invite-rewards.ts';

const at = (iso: string) => Date.parse(iso);

describe('UTC day bucketing', () => {
  it('puts a moment on its UTC day, midnight on the new day', () => {
    expect(dayText(utcDayOf(at('2026-11-29T23:59:59.999Z')))).toBe('2026-11-29');
    expect(dayText(utcDayOf(at('2026-11-30T00:00:00.000Z')))).toBe('2026-11-30');
    expect(utcDayOf(0)).toBe(0);
  });

  it('reads a day back from its text and refuses anything else', () => {
    expect(dayFromText('2026-11-29')).toBe(utcDayOf(at('2026-11-29T12:00:00Z')));
    expect(() => dayFromText('2026-02-30')).toThrow(RangeError);
    expect(() => dayFromText('29.11.2026')).toThrow(RangeError);
  });

  it('counts a day as complete only once it is over', () => {
    expect(dayText(lastCompleteDay(at('2026-11-30T00:00:00Z')))).toBe('2026-11-29');
    expect(dayText(lastCompleteDay(at('2026-11-29T23:59:59Z')))).toBe('2026-11-28');
  });
});

describe('the rewarded period', () => {
  it('runs the published number of days from the moment of registration', () => {
    const window = rewardWindow(at('2026-01-01T18:00:00Z'), 365);
    expect(window.endMs - window.startMs).toBe(365 * UTC_DAY_MS);
    expect(dayText(window.firstDay)).toBe('2026-01-01');
    // 365 days after 2026-01-01 18:00 is 2027-01-01 18:00: that day is the last, in part.
    expect(dayText(window.lastDay)).toBe('2027-01-01');
  });

  it('counts only the part of the first and last day inside the period', () => {
    const window = rewardWindow(at('2026-01-01T18:00:00Z'), 2);
    expect(dayPartOf(window.firstDay, window)).toEqual({ fromMs: at('2026-01-01T18:00:00Z'), toMs: at('2026-01-02T00:00:00Z') });
    expect(dayPartOf(window.firstDay + 1, window)).toEqual({ fromMs: at('2026-01-02T00:00:00Z'), toMs: at('2026-01-03T00:00:00Z') });
    expect(dayPartOf(window.lastDay, window)).toEqual({ fromMs: at('2026-01-03T00:00:00Z'), toMs: at('2026-01-03T18:00:00Z') });
    expect(dayPartOf(window.lastDay + 1, window)).toBeNull();
    expect(dayPartOf(window.firstDay - 1, window)).toBeNull();
  });

  it('ends exactly at midnight without an empty last day', () => {
    const window = rewardWindow(at('2026-01-01T00:00:00Z'), 1);
    expect(window.lastDay).toBe(window.firstDay);
  });

  it('refuses a period outside the published bounds', () => {
    expect(() => rewardWindow(0, 0)).toThrow(RangeError);
    expect(() => rewardWindow(0, 3651)).toThrow(RangeError);
  });
});

describe('the days a run settles', () => {
  const day = utcDayOf(at('2026-03-10T00:00:00Z'));
  it('settles every complete day since the last one (catching up), never today', () => {
    expect(daysDue(day, day + 400, at('2026-03-15T08:00:00Z'), 31)).toEqual({ fromDay: day, throughDay: day + 4 });
    expect(daysDue(day, day + 400, at('2026-03-10T23:00:00Z'), 31)).toBeNull();
  });

  it('stops at the period\'s last day and at the per-run bound', () => {
    expect(daysDue(day, day + 2, at('2026-04-15T00:00:00Z'), 31)).toEqual({ fromDay: day, throughDay: day + 2 });
    expect(daysDue(day, day + 400, at('2026-06-15T00:00:00Z'), 31)).toEqual({ fromDay: day, throughDay: day + 30 });
    expect(daysDue(day + 3, day + 2, at('2026-06-15T00:00:00Z'), 31)).toBeNull();
  });
});

describe('the reward', () => {
  it('is the published share, rounded down to the minor unit', () => {
    expect(inviteRewardMinor(1_000_000n, 20)).toBe(200_000n);
    expect(inviteRewardMinor(4n, 20)).toBe(0n);
    expect(inviteRewardMinor(5n, 20)).toBe(1n);
    expect(inviteRewardMinor(9_999n, 20)).toBe(1_999n);
    expect(inviteRewardMinor(123n, 0)).toBe(0n);
  });

  it('refuses a share outside the published bounds or a negative fee', () => {
    expect(() => inviteRewardMinor(1n, 51)).toThrow(RangeError);
    expect(() => inviteRewardMinor(1n, 2.5)).toThrow(RangeError);
    expect(() => inviteRewardMinor(-1n, 20)).toThrow(RangeError);
  });

  it('pays each fee account\'s share in its asset, balanced per asset, and nothing when all round to zero', () => {
    const coin = (asset: string) => (asset === 'USDT' ? 100n : 200n);
    const postings = inviteRewardPostings(
      [
        { feeAccountId: 1n, asset: 'USDT', feeMinor: 3_000_000n },
        { feeAccountId: 2n, asset: 'USDT', feeMinor: 1_000_001n },
        { feeAccountId: 3n, asset: 'BTC', feeMinor: 4n },
      ],
      20,
      coin,
    );
    expect(postings).toEqual([
      { accountId: 1n, asset: 'USDT', bucket: 'available', amountMinor: -600_000n },
      { accountId: 100n, asset: 'USDT', bucket: 'available', amountMinor: 600_000n },
      { accountId: 2n, asset: 'USDT', bucket: 'available', amountMinor: -200_000n },
      { accountId: 100n, asset: 'USDT', bucket: 'available', amountMinor: 200_000n },
    ]);
    expect(inviteRewardPostings([{ feeAccountId: 3n, asset: 'BTC', feeMinor: 4n }], 20, coin)).toBeNull();
  });
});
