import { describe, expect, it } from 'vitest';
import { idNumberProblem, textProblem, validateAdvanced, validateIdentity } from './form-checks.ts';

describe('verification form checks (mirror of the contracts)', () => {
  it('requires bounded free text without control characters or angle brackets', () => {
    expect(textProblem('  ', 100)).toBe('required');
    expect(textProblem('x'.repeat(101), 100)).toBe('tooLong');
    expect(textProblem('<b>Ana</b>', 100)).toBe('characters');
    expect(textProblem('Ana Silva', 100)).toBeUndefined();
  });

  it('accepts ID numbers of 4–40 letters, digits, spaces or dashes', () => {
    expect(idNumberProblem('P123')).toBeUndefined();
    expect(idNumberProblem('AB 12-34')).toBeUndefined();
    expect(idNumberProblem('P12')).toBe('idNumber');
    expect(idNumberProblem('P12/34')).toBe('idNumber');
  });

  it('checks a whole identity form and an advanced form', () => {
    expect(validateIdentity({ realName: 'Ana', country: 'PT', address: 'Rua 1', idType: 'passport', idNumber: 'P1234567' })).toEqual({});
    expect(validateIdentity({ realName: '', country: '', address: '', idType: '', idNumber: '' })).toEqual({
      realName: 'required',
      country: 'required',
      address: 'required',
      idType: 'required',
      idNumber: 'required',
    });
    expect(validateAdvanced({ occupation: 'Engineer', income: '50k', contactPhone: '+351 912 345 678' })).toEqual({});
    expect(validateAdvanced({ occupation: 'Engineer', income: '50k', contactPhone: '912' }).contactPhone).toBe('phoneFormat');
  });
});
