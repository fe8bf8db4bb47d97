import { readFileSync } from 'node:fs';
import { DEFAULT_VIP_LEVELS, DEFAULT_VIP_LEVELS_TEXT } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

// The contract products of issue 7 are configuration: read once, refused at start-up when wrong.
describe('contract products configuration', () => {
  it('defaults to the four cycles of the decisions page', () => {
    const config = loadConfig({});
    expect(config.OPTIONS_PRODUCTS.map((product) => product.cycleSeconds)).toEqual([30, 60, 120, 300]);
    expect(config.OPTIONS_PRODUCTS.every((product) => product.enabled)).toBe(true);
    expect(config).toMatchObject({ OPTIONS_CLOSE_TICK_MAX_DELAY_MS: 10_000, OPTIONS_OPEN_TICK_MAX_AGE_MS: 5_000, OPTIONS_SETTLE_INTERVAL_MS: 250 });
  });

  it('switches a product off with /off', () => {
    const config = loadConfig({ OPTIONS_PRODUCTS: '30/80/10/5000/off,60/82/10/10000' });
    expect(config.OPTIONS_PRODUCTS.map((product) => [product.cycleSeconds, product.enabled])).toEqual([
      [30, false],
      [60, true],
    ]);
  });

  it('stops start-up with the reason for a bad product list', () => {
    expect(() => loadConfig({ OPTIONS_PRODUCTS: '30/80/5000/10' })).toThrow(ConfigError);
    expect(() => loadConfig({ OPTIONS_PRODUCTS: '30/80/5000/10' })).toThrow(/OPTIONS_PRODUCTS.*min ≤ max/);
    expect(() => loadConfig({ OPTIONS_PRODUCTS: 'thirty seconds' })).toThrow(/OPTIONS_PRODUCTS/);
  });
});

describe('VIP_LEVELS', () => {
  it('defaults to the published table, the one .env.example shows', () => {
    const example = /^VIP_LEVELS=(.*)$/m.exec(readFileSync(new URL('../../../../.env.example', import.meta.url), 'utf8'))?.[1];
    expect(example).toBe(DEFAULT_VIP_LEVELS_TEXT);
    expect(loadConfig({}).VIP_LEVELS).toEqual(DEFAULT_VIP_LEVELS);
  });

  it('takes the operator’s table', () => {
    const config = loadConfig({ VIP_LEVELS: '1/15/2/-/20000' });
    expect(config.VIP_LEVELS.map((each) => [each.level, each.feeDiscountBps, each.extraDailyWithdrawals])).toEqual([
      [0, 0, 0],
      [1, 1_500, 2],
    ]);
  });

  it('stops start-up with the reason for an incoherent table', () => {
    expect(() => loadConfig({ VIP_LEVELS: '1/20/1/100/10,2/10/1/200/20' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIP_LEVELS: '1/20/1/100/10,2/10/1/200/20' })).toThrow(/VIP_LEVELS.*discount is below/);
    expect(() => loadConfig({ VIP_LEVELS: '2/10/1/100/10' })).toThrow(/VIP_LEVELS.*follows level 0/);
  });
});
