import { describe, expect, it } from 'vitest';
import { maskContact, maskEmail, maskPhone, publicUserName } from './contact-mask.ts';

describe('maskEmail', () => {
  it('keeps the first and last letter of the local part and the top-level domain', () => {
    expect(maskEmail('alice@example.com')).toBe('a***e@e***.com');
    expect(maskEmail('mira.seller@mail.example.org')).toBe('m***r@m***.e***.org');
  });

  it('masks short local parts too, never showing all of it', () => {
    expect(maskEmail('abc@example.com')).toBe('a***@e***.com');
    expect(maskEmail('ab@example.com')).toBe('a***@e***.com');
    expect(maskEmail('a@example.com')).toBe('***@e***.com');
  });

  it('hides the length: three stars whatever was left out', () => {
    expect(maskEmail('averyveryverylongname@example.com')).toBe('a***e@e***.com');
  });

  it('never returns the input, whatever it is', () => {
    for (const value of ['x@y.z', '@example.com', 'no-at-sign', '', 'a@b', 'A@EXAMPLE.COM']) {
      const masked = maskEmail(value);
      expect(masked, value).not.toBe(value);
      expect(masked, value).toContain('***');
    }
  });
});

describe('maskPhone', () => {
  it('keeps the country calling code and the last two digits', () => {
    expect(maskPhone('+491701234567')).toBe('+49***67');
    expect(maskPhone('+447911123456')).toBe('+44***56');
    expect(maskPhone('+14155550123')).toBe('+1***23');
    expect(maskPhone('+79161234567')).toBe('+7***67');
    // Three-digit codes (E.164 codes are prefix-free: 1 and 7 alone, a listed set of two digits, the rest three).
    expect(maskPhone('+971501234567')).toBe('+971***67');
    expect(maskPhone('+8613812345678')).toBe('+86***78');
    expect(maskPhone('+85291234567')).toBe('+852***67');
  });

  it('shows at most two digits of the number itself, however short', () => {
    expect(maskPhone('+35312345')).toBe('+353***45');
    expect(maskPhone('+123')).toBe('+1***');
    expect(maskPhone('+1')).toBe('+***');
  });

  it('masks what is not in international form without reading it', () => {
    expect(maskPhone('01701234567')).toBe('***67');
    expect(maskPhone('12')).toBe('***');
    expect(maskPhone('')).toBe('***');
  });
});

describe('maskContact', () => {
  it('masks an e-mail address as one and anything else as a phone number', () => {
    expect(maskContact('alice@example.com')).toBe('a***e@e***.com');
    expect(maskContact('+491701234567')).toBe('+49***67');
  });
});

describe('publicUserName', () => {
  const base = { id: 7n, nickname: null, username: null, email: null, phone: null };

  it('a nickname or a username is shown as it is: both are public names', () => {
    expect(publicUserName({ ...base, nickname: 'Mira', username: 'mira2024', email: 'mira@example.org' })).toBe('Mira');
    expect(publicUserName({ ...base, username: 'mira2024', email: 'mira@example.org' })).toBe('mira2024');
  });

  it('without either, the e-mail or phone masked, never in full', () => {
    expect(publicUserName({ ...base, email: 'mira.seller@example.org', phone: '+491701234567' })).toBe('m***r@e***.org');
    expect(publicUserName({ ...base, phone: '+491701234567' })).toBe('+49***67');
  });

  it('with nothing at all, the user number', () => {
    expect(publicUserName(base)).toBe('#7');
    expect(publicUserName({ ...base, id: '12' })).toBe('#12');
  });
});
