import { describe, expect, it } from 'vitest';
import { deviceName, groupSecret } from './settings-helpers.ts';

describe('settings helpers', () => {
  it('names a device from its user agent', () => {
    expect(deviceName('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36')).toBe('Chrome · Android');
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe(
      'Safari · iOS',
    );
    expect(deviceName(null)).toBeNull();
    expect(deviceName('curl/8.0')).toBe('curl/8.0');
  });

  it('groups an authenticator secret in fours', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDE')).toBe('ABCD E');
  });
});
