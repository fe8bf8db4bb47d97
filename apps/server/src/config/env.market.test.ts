import { defaultSimulatedMarkets } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

describe('market configuration', () => {
  it('defaults to the simulator over its own markets', () => {
    const config = loadConfig({});
    expect(config.MARKET_FEED).toBe('simulator');
    expect(config.MARKET_SYMBOLS).toEqual(defaultSimulatedMarkets.map((market) => market.symbol));
    expect(config.MARKET_SIM_SEED).toBeUndefined();
    expect(config).toMatchObject({ MARKET_CCXT_EXCHANGE: 'binance', MARKET_CCXT_POLL_MS: 2000, MARKET_TICK_RETENTION_HOURS: 48 });
  });

  it('reads a symbol list, trimming spaces', () => {
    const config = loadConfig({ MARKET_FEED: 'ccxt', MARKET_SYMBOLS: 'BTC/USDT, ETH/USDT ,PEPE/USDT' });
    expect(config.MARKET_SYMBOLS).toEqual(['BTC/USDT', 'ETH/USDT', 'PEPE/USDT']);
  });

  it.each([
    ['without BTC/USDT', { MARKET_SYMBOLS: 'ETH/USDT,SOL/USDT' }],
    ['with a malformed symbol', { MARKET_SYMBOLS: 'BTC/USDT,ETH/USDT,btc-usdt' }],
    ['with a duplicate', { MARKET_SYMBOLS: 'BTC/USDT,ETH/USDT,BTC/USDT' }],
    ['with an unknown feed', { MARKET_FEED: 'random' }],
    ['with a too fast simulator', { MARKET_TICK_INTERVAL_MS: '5' }],
    ['with a malformed exchange id', { MARKET_FEED: 'ccxt', MARKET_CCXT_EXCHANGE: 'Binance US' }],
    ['with a negative retention', { MARKET_TICK_RETENTION_HOURS: '-1' }],
  ])('refuses a configuration %s', (_name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
  });

  it('refuses a simulator market it cannot simulate, naming it, and allows it for ccxt', () => {
    expect(() => loadConfig({ MARKET_SYMBOLS: 'BTC/USDT,ETH/USDT,PEPE/USDT' })).toThrow(/PEPE\/USDT/);
    expect(loadConfig({ MARKET_FEED: 'off', MARKET_SYMBOLS: 'BTC/USDT,ETH/USDT,PEPE/USDT' }).MARKET_SYMBOLS).toHaveLength(3);
  });
});
