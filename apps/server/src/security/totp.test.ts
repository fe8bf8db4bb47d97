import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totpStepAt } from './totp.ts';

// RFC 6238 appendix B: the SHA1 secret is the ASCII string "12345678901234567890".
const rfcSecret = new TextEncoder().encode('12345678901234567890');

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors (8 digits)', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, expected] of vectors) expect(hotp(rfcSecret, totpStepAt(seconds * 1000), 8), String(seconds)).toBe(expected);
  });

  it('matches RFC 4226 HOTP values (6 digits)', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => expect(hotp(rfcSecret, BigInt(counter))).toBe(code));
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    expect(base32Encode(rfcSecret)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toEqual(rfcSecret);
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('accepts the current step and one either side, nothing further', () => {
    const secret = base32Encode(rfcSecret);
    const nowMs = 1_111_111_111_000;
    const step = totpStepAt(nowMs);
    const codeAt = (s: bigint) => hotp(rfcSecret, s);
    expect(matchTotp(secret, codeAt(step), nowMs)).toBe(step);
    expect(matchTotp(secret, codeAt(step - 1n), nowMs)).toBe(step - 1n);
    expect(matchTotp(secret, codeAt(step + 1n), nowMs)).toBe(step + 1n);
    expect(matchTotp(secret, codeAt(step - 2n), nowMs)).toBeUndefined();
    expect(matchTotp(secret, '12345', nowMs)).toBeUndefined();
  });

  it('builds the otpauth URI apps scan', () => {
    expect(otpauthUri('ABC', 'ana@example.com')).toBe(
      'otpauth://totp/Keel%3Aana%40example.com?secret=ABC&issuer=Keel&algorithm=SHA1&digits=6&period=30',
    );
  });
});
