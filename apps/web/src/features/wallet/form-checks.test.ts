import { describe, expect, it } from 'vitest';
import { checkAddressForm, checkBankCard, txHashProblem } from './form-checks.ts';

const card = {
  realName: ' Asha Rao ',
  phone: '+91 98765 43210',
  bankName: 'State Bank of India',
  bankAccount: '123456789012',
  ifsc: 'sbin0001234',
  email: 'Asha@Example.com',
};

describe('checkBankCard', () => {
  it('accepts a good card and normalises it as the server does', () => {
    expect(checkBankCard(card)).toEqual({
      problems: {},
      body: { realName: 'Asha Rao', phone: '+919876543210', bankName: 'State Bank of India', bankAccount: '123456789012', ifsc: 'SBIN0001234', email: 'asha@example.com' },
    });
  });

  it('names each field problem', () => {
    const result = checkBankCard({ realName: 'A', phone: '12345', bankName: '<b>Bank</b>', bankAccount: '12345678', ifsc: 'SBIN1001234', email: 'nope' });
    expect(result.body).toBeUndefined();
    expect(result.problems).toEqual({
      realName: 'tooShort',
      phone: 'phoneFormat',
      bankName: 'characters',
      bankAccount: 'accountFormat',
      ifsc: 'ifscFormat',
      email: 'emailFormat',
    });
    expect(checkBankCard({ realName: '', phone: '', bankName: '', bankAccount: '', ifsc: '', email: '' }).problems).toEqual({
      realName: 'required',
      phone: 'required',
      bankName: 'required',
      bankAccount: 'required',
      ifsc: 'required',
      email: 'required',
    });
    expect(checkBankCard({ ...card, bankAccount: '1234567890123456789' }).problems.bankAccount).toBe('accountFormat');
  });
});

describe('checkAddressForm', () => {
  it('accepts a valid address in its normal form', () => {
    const result = checkAddressForm({ network: 'ethereum', address: ' 0x52908400098527886e0f7030069857d2e4169ee7 ', label: ' cold ' });
    expect(result.problems).toEqual({});
    expect(result.body).toEqual({ network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'cold' });
  });

  it('names the address problem from the domain check', () => {
    expect(checkAddressForm({ network: 'bitcoin', address: '', label: '' }).problems.address).toBe('empty');
    expect(checkAddressForm({ network: 'bitcoin', address: 'hello', label: '' }).problems.address).toBe('format');
    expect(checkAddressForm({ network: 'bitcoin', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: '' }).problems.address).toBe('wrong_network');
    expect(checkAddressForm({ network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169Ee7', label: '' }).problems.address).toBe('checksum');
  });

  it('checks the label', () => {
    expect(checkAddressForm({ network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'x'.repeat(41) }).problems.label).toBe('tooLong');
    expect(checkAddressForm({ network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: '<script>' }).problems.label).toBe('characters');
  });
});

describe('txHashProblem', () => {
  const hex = 'ab'.repeat(32);
  it('wants a hash shaped for the network', () => {
    expect(txHashProblem('ethereum', '')).toBe('required');
    expect(txHashProblem('ethereum', `0x${hex}`)).toBeUndefined();
    expect(txHashProblem('ethereum', hex)).toBe('format');
    expect(txHashProblem('bitcoin', hex)).toBeUndefined();
    expect(txHashProblem('tron', `0x${hex}`)).toBeUndefined();
    expect(txHashProblem('tron', 'abc')).toBe('format');
    expect(txHashProblem(undefined, 'abc')).toBeUndefined();
  });
});
