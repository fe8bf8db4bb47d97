import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariableNames, loadConfig } from './env.ts';

describe('configuration', () => {
  it('has working defaults for a bare machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, DATA_DIR: './data', SEED_DEMO: true, INVITE_CODE_REQUIRED: false });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('stops with one clear line per bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      const lines = (error as Error).message.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines.some((line) => line.startsWith('invalid configuration: PORT:'))).toBe(true);
      expect(lines.some((line) => line.includes('DATABASE_URL') && line.includes('postgres://'))).toBe(true);
    }
  });

  it('reads booleans and lists', () => {
    const config = loadConfig({ SEED_DEMO: 'false', CORS_ORIGINS: 'https://a.example, https://b.example' });
    expect(config.SEED_DEMO).toBe(false);
    expect(config.CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(ConfigError);
  });

  it('.env.example lists every variable', () => {
    const example = readFileSync(new URL('../../../../.env.example', import.meta.url), 'utf8');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    for (const name of configVariableNames) expect(listed.has(name), name).toBe(true);
  });
});
