import { describe, expect, it } from 'vitest';
import { contactValueOk } from './ContactMethodsForm.tsx';
import { nicknameProblem } from './NicknameForm.tsx';
import { deviceName } from './SessionsList.tsx';
import { groupSecret } from './TotpSettings.tsx';

describe('settings helpers', () => {
  it('checks a nickname as the contract does', () => {
    expect(nicknameProblem(' ')).toBe('required');
    expect(nicknameProblem('A')).toBe('nicknameFormat');
    expect(nicknameProblem('<b>Ana</b>')).toBe('nicknameFormat');
    expect(nicknameProblem('x'.repeat(21))).toBe('nicknameFormat');
    expect(nicknameProblem(' Ana ')).toBeUndefined();
  });

  it('checks a contact value as the contract does', () => {
    expect(contactValueOk('@ana_trades')).toBe(true);
    expect(contactValueOk('x')).toBe(false);
    expect(contactValueOk('a<b')).toBe(false);
  });

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
