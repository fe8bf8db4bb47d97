import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

// ADR 0041: production refuses the settings that suit a try-out and not real money, one line each,
// unless the deployment declares itself a demo.

const uploadKey = randomBytes(32).toString('base64');
/** A production configuration with every guard satisfied. */
const production = { NODE_ENV: 'production', MARKET_FEED: 'off', SEED_DEMO: 'false', UPLOAD_ENCRYPTION_KEY: uploadKey };

function problemLines(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.split('\n');
  }
  throw new Error('the configuration was accepted');
}

describe('production mode', () => {
  it('KEEL_DEMO is off by default and read like the other switches', () => {
    expect(loadConfig({}).KEEL_DEMO).toBe(false);
    expect(loadConfig({ KEEL_DEMO: 'true' }).KEEL_DEMO).toBe(true);
    expect(loadConfig({ KEEL_DEMO: '1' }).KEEL_DEMO).toBe(true);
    expect(() => loadConfig({ KEEL_DEMO: 'demo' })).toThrow(ConfigError);
  });

  it('starts with every guard satisfied (ccxt or off, no seed, an upload key)', () => {
    expect(loadConfig(production)).toMatchObject({ NODE_ENV: 'production', MARKET_FEED: 'off', SEED_DEMO: false, KEEL_DEMO: false });
    expect(loadConfig({ ...production, MARKET_FEED: 'ccxt' }).MARKET_FEED).toBe('ccxt');
  });

  it.each([
    ['the simulator, set', { MARKET_FEED: 'simulator' }, 'MARKET_FEED', 'MARKET_FEED=ccxt or MARKET_FEED=off'],
    ['the simulator, by default', { MARKET_FEED: undefined }, 'MARKET_FEED', 'MARKET_FEED=ccxt or MARKET_FEED=off'],
    ['demo data, set', { SEED_DEMO: 'true' }, 'SEED_DEMO', 'SEED_DEMO=false'],
    ['demo data, by default', { SEED_DEMO: undefined }, 'SEED_DEMO', 'npm run staff:first'],
    ['no upload key', { UPLOAD_ENCRYPTION_KEY: undefined }, 'UPLOAD_ENCRYPTION_KEY', 'openssl rand -base64 32'],
    ['an empty upload key', { UPLOAD_ENCRYPTION_KEY: '' }, 'UPLOAD_ENCRYPTION_KEY', 'set UPLOAD_ENCRYPTION_KEY'],
  ])('refuses %s in one line saying what to set', (_name, change, variable, advice) => {
    const lines = problemLines({ ...production, ...change });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^invalid configuration: ${variable}: .*refused in production`));
    expect(lines[0]).toContain(advice);
    expect(lines[0]).toContain('KEEL_DEMO=true');
  });

  it('names every problem at once, one line each (the bare defaults have all three)', () => {
    const lines = problemLines({ NODE_ENV: 'production' });
    expect(lines.map((line) => line.split(':')[1]?.trim())).toEqual(['MARKET_FEED', 'SEED_DEMO', 'UPLOAD_ENCRYPTION_KEY']);
  });

  it('lets a declared demo run the simulator, seed and generate its upload key', () => {
    expect(loadConfig({ NODE_ENV: 'production', KEEL_DEMO: 'true' })).toMatchObject({ MARKET_FEED: 'simulator', SEED_DEMO: true, KEEL_DEMO: true });
  });

  it('guards production only: development and tests keep their try-out defaults', () => {
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ MARKET_FEED: 'simulator', SEED_DEMO: true });
    expect(loadConfig({ NODE_ENV: 'test' }).UPLOAD_ENCRYPTION_KEY).toBeUndefined();
  });
});
