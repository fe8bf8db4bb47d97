import { describe, expect, it } from 'vitest';
import {
  codeProblem,
  emailProblem,
  phoneProblem,
  resendWaitMs,
  retryAfterSeconds,
  sixDigitsProblem,
  validateContactRegistration,
  validateReset,
} from './contact-validation.ts';

describe('phone and e-mail checks (mirror of the server)', () => {
  it('checks e-mail addresses ("incorrect email format")', () => {
    expect(emailProblem('')).toBe('required');
    expect(emailProblem('not-an-email')).toBe('emailFormat');
    expect(emailProblem(' Ana@Example.com ')).toBeUndefined();
  });

  it('checks phone numbers in international form', () => {
    expect(phoneProblem('')).toBe('required');
    expect(phoneProblem('12')).toBe('phoneFormat');
    expect(phoneProblem('0170 1234567')).toBe('phoneFormat');
    expect(phoneProblem('+49 170 1234567')).toBeUndefined();
    expect(phoneProblem('0049 (170) 123-4567')).toBeUndefined();
  });

  it('checks 6-digit codes and payment passwords', () => {
    expect(codeProblem('')).toBe('required');
    expect(codeProblem('12345')).toBe('codeFormat');
    expect(codeProblem('123456')).toBeUndefined();
    expect(sixDigitsProblem('12345a')).toBe('sixDigits');
    expect(sixDigitsProblem('135790')).toBeUndefined();
  });

  it('checks a registration by e-mail and a recovery by phone', () => {
    const registration = { target: 'ana@example.com', code: '123456', password: 'secret12', confirmPassword: 'secret12', inviteCode: '', agreement: true };
    expect(validateContactRegistration('email', registration)).toEqual({});
    expect(validateContactRegistration('email', { ...registration, confirmPassword: 'secret13', agreement: false })).toEqual({
      confirmPassword: 'passwordsInconsistent',
      agreement: 'agreementRequired',
    });
    expect(validateContactRegistration('sms', registration).target).toBe('phoneFormat');
    expect(validateReset('sms', { target: '+491701234567', code: '', password: 'abc', confirmPassword: 'abc' })).toEqual({
      code: 'required',
      password: 'passwordLength',
    });
  });
});

describe('waits', () => {
  it('counts the resend wait from the answer alone, whatever the device clock says', () => {
    const sentAt = 1_000_000;
    expect(resendWaitMs({ expiresAtMs: sentAt + 300_000, resendAfterMs: sentAt + 60_000 })).toBe(60_000);
  });

  it('reads retryAfterSeconds of a 429 answer', () => {
    expect(retryAfterSeconds({ retryAfterSeconds: 1800 })).toBe(1800);
    expect(retryAfterSeconds({ retryAfterSeconds: 0.2 })).toBe(1);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds({ retryAfterSeconds: 'x' })).toBeUndefined();
  });
});
