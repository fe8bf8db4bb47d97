import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirect } from './redirect.ts';

describe('safeRedirect', () => {
  it('accepts a path on this site, with its query', () => {
    expect(safeRedirect('/my')).toBe('/my');
    expect(safeRedirect('/trade_12?x=1')).toBe('/trade_12?x=1');
  });

  it('falls back to /index for a missing, fail400 or foreign redirect', () => {
    expect(safeRedirect(null)).toBe('/index');
    expect(safeRedirect('')).toBe('/index');
    expect(safeRedirect('fail400')).toBe('/index');
    expect(safeRedirect('https://evil.example/')).toBe('/index');
    expect(safeRedirect('//evil.example/x')).toBe('/index');
    expect(safeRedirect('/\\evil.example')).toBe('/index');
    expect(safeRedirect('my')).toBe('/index');
  });

  it('never sends a user back to a login page', () => {
    expect(safeRedirect('/login?redirect=%2Fmy')).toBe('/index');
    expect(safeRedirect('/register')).toBe('/index');
  });
});

describe('loginPathFor', () => {
  it('encodes the whole path and query into one parameter', () => {
    expect(loginPathFor('/my')).toBe('/login?redirect=%2Fmy');
    expect(loginPathFor('/trade_1?a=b&c=d')).toBe('/login?redirect=%2Ftrade_1%3Fa%3Db%26c%3Dd');
  });
});
