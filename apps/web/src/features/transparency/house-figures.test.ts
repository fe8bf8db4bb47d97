import { describe, expect, it } from 'vitest';
import { changeOn, type HouseAccount, houseId, houseText, sortHouses, totalChange, utcDay } from './house-figures.ts';

const house = (kind: HouseAccount['kind'], extra: Partial<HouseAccount> = {}): HouseAccount => ({
  kind,
  label: '',
  asset: 'USDT',
  accountId: '1',
  balance: '5.000000',
  days: [],
  ...extra,
});

describe('the transparency page’s house accounts', () => {
  it('names the UTC day of a time as the server does', () => {
    expect(utcDay(Date.UTC(2026, 10, 28, 23, 59, 59))).toBe('2026-11-28');
    expect(utcDay(Date.UTC(2026, 10, 29, 0, 0, 0))).toBe('2026-11-29');
  });

  it('puts the houses users trade against first, then the insurance fund, the fees and the treasuries', () => {
    const sorted = sortHouses([
      house('lending_treasury'),
      house('fees', { label: 'leverage' }),
      house('fees'),
      house('options_house', { asset: 'USDT' }),
      house('earn_treasury', { asset: 'BTC' }),
      house('earn_treasury', { asset: 'ETH' }),
      house('insurance_fund'),
      house('leverage_house'),
    ]);
    expect(sorted.map(houseId)).toEqual([
      'options_house-USDT',
      'leverage_house-USDT',
      'insurance_fund-USDT',
      'fees-USDT',
      'fees-leverage-USDT',
      'earn_treasury-BTC',
      'earn_treasury-ETH',
      'lending_treasury-USDT',
    ]);
  });

  it('reads a day’s change, zero at the account’s scale on a day without entries, and sums the days', () => {
    const options = house('options_house', {
      days: [
        { day: '2026-11-28', change: '-2.000000' },
        { day: '2026-11-26', change: '7.000000' },
      ],
    });
    expect(changeOn(options, '2026-11-28')).toBe('-2.000000');
    expect(changeOn(options, '2026-11-27')).toBe('0.000000');
    expect(totalChange(options)).toBe('5.000000');
    expect(totalChange(house('insurance_fund'))).toBe('0.000000');
  });

  it('names the fee accounts by their label', () => {
    expect(houseText(house('fees')).name).toBe('web.transparency.house.fees');
    expect(houseText(house('fees', { label: 'leverage' })).name).toBe('web.transparency.house.feesLeverage');
    expect(houseText(house('fees', { label: 'other' }))).toEqual({
      name: 'web.transparency.house.feesOther',
      what: 'web.transparency.house.feesOther.what',
      values: { label: 'other' },
    });
    expect(houseText(house('earn_treasury')).what).toBe('web.transparency.house.earn_treasury.what');
  });
});
