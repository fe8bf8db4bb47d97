import { describe, expect, it } from 'vitest';
import { AppError, errorCatalogue, errorKeyFromMsg, errorKeys } from './catalogue.ts';

// Spec section 8, in its own words: each of these texts must be a catalogue message.
const specMessages = [
  'token empty', 'token does not exist', 'user status incorrect', 'request address does not exist', 'parameter error',
  'system error', 'wrong original password', 'wrong verification code', 'passwords inconsistent', 'phone required',
  'e-mail required', 'account and password cannot be empty', 'account or password incorrect', 'phone or e-mail does not exist',
  'phone or e-mail already registered', 'invalid invitation code', 'wrong login password', 'wrong payment password',
  'insufficient balance', 'wrong amount', 'amount out of range', 'product does not exist', 'wrong purchase quantity',
  "cannot sell one's own sell order", 'wrong image format', 'file size mismatch', 'daily withdrawal count limit reached',
  'purchase limit exceeded', 'loan amount wrong', 'loan quota insufficient', 'account banned/suspended',
  'withdrawal impossible', 'withdrawal forbidden, contact customer service', 'no payment password set, confirm to set',
  'select a recharge channel', 'wallet not connected or not installed', 'wallet connection failed', 'login failed',
  'wrong phone number', 'password change failed', 'withdrawal temporarily closed', 'withdrawal period',
];

describe('error catalogue', () => {
  it('holds every message of spec section 8', () => {
    for (const msg of specMessages) expect(errorKeyFromMsg(msg), msg).toBeDefined();
    expect(errorKeyFromMsg('transaction time is limited')).toBe('TRANSACTION_TIME_LIMITED');
    expect(errorCatalogue.TRANSACTION_TIME_LIMITED.msg.startsWith('transaction time is')).toBe(true);
  });

  it('has one message per key, so clients can translate by the text', () => {
    const messages = errorKeys.map((key) => errorCatalogue[key].msg);
    expect(new Set(messages).size).toBe(messages.length);
  });

  it('uses 401 only for the token errors and 500 only for system error', () => {
    expect(errorKeys.filter((key) => errorCatalogue[key].status === 401).sort()).toEqual(['TOKEN_EMPTY', 'TOKEN_NOT_FOUND']);
    expect(errorKeys.filter((key) => errorCatalogue[key].status === 500)).toEqual(['SYSTEM_ERROR']);
  });

  it('AppError carries the catalogue status, text and data', () => {
    const error = new AppError('WITHDRAWAL_PERIOD', { until: '2026-11-23T00:00:00Z' });
    expect(error).toMatchObject({ status: 400, message: 'withdrawal period', key: 'WITHDRAWAL_PERIOD', data: { until: '2026-11-23T00:00:00Z' } });
  });
});
