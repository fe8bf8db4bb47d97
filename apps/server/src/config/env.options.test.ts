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
