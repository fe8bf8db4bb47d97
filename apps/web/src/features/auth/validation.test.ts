import { describe, expect, it } from 'vitest';
import { passwordProblem, problemsFromServer, validateLogin, validateRegistration } from './validation.ts';

const valid = { username: 'alice01', password: 'secret1', confirmPassword: 'secret1', inviteCode: '', agreement: true };

describe('registration checks (mirror of the server contract)', () => {
  it('accepts a valid registration', () => {
    expect(validateRegistration(valid)).toEqual({});
  });

  it('requires 6 to 32 letters or digits for the username', () => {
    expect(validateRegistration({ ...valid, username: '' }).username).toBe('required');
    expect(validateRegistration({ ...valid, username: 'abc12' }).username).toBe('usernameFormat');
    expect(validateRegistration({ ...valid, username: 'alice_01' }).username).toBe('usernameFormat');
    expect(validateRegistration({ ...valid, username: 'a'.repeat(33) }).username).toBe('usernameFormat');
    expect(validateRegistration({ ...valid, username: '  alice01  ' }).username).toBeUndefined();
  });

  it('requires a password of at least 6 characters with a letter or a digit', () => {
    expect(passwordProblem('')).toBe('required');
    expect(passwordProblem('abc12')).toBe('passwordLength');
    expect(passwordProblem('!!!!!!')).toBe('passwordCharacters');
    expect(passwordProblem('x'.repeat(129))).toBe('passwordTooLong');
    expect(passwordProblem('abc!!!')).toBeUndefined();
  });

  it('requires the two passwords to match', () => {
    expect(validateRegistration({ ...valid, confirmPassword: 'secret2' }).confirmPassword).toBe('passwordsInconsistent');
    expect(validateRegistration({ ...valid, confirmPassword: '' }).confirmPassword).toBe('required');
  });

  it('limits the invite code and requires the agreement', () => {
    expect(validateRegistration({ ...valid, inviteCode: 'x'.repeat(17) }).inviteCode).toBe('inviteCodeLength');
    expect(validateRegistration({ ...valid, agreement: false }).agreement).toBe('agreementRequired');
  });
});

describe('login checks', () => {
  it('flags an empty account or password and a missing agreement', () => {
    expect(validateLogin({ account: 'alice01', password: 'x', agreement: true })).toEqual({ empty: false, agreement: undefined });
    expect(validateLogin({ account: ' ', password: 'x', agreement: true }).empty).toBe(true);
    expect(validateLogin({ account: 'alice01', password: '', agreement: false })).toEqual({ empty: true, agreement: 'agreementRequired' });
  });
});

describe('server field errors', () => {
  it('maps data.fields of a parameter error onto the form fields', () => {
    const data = {
      fields: [
        { field: 'body.username', message: 'must be 6 to 32 letters or digits' },
        { field: 'body.password', message: 'must be at least 6 characters' },
        { field: 'body.language', message: 'invalid' },
      ],
    };
    expect(problemsFromServer(data, ['username', 'password', 'confirmPassword'] as const)).toEqual({
      username: 'usernameFormat',
      password: 'passwordLength',
    });
  });

  it('ignores answers without a field list', () => {
    expect(problemsFromServer(null, ['username'] as const)).toEqual({});
    expect(problemsFromServer({ fields: 'x' }, ['username'] as const)).toEqual({});
  });
});
