import { describe, expect, it } from 'vitest';
import { addressFormSchema, addressProblemOfMessage, bankCardFormSchema, TX_HASH_FORMAT, txHashField } from './form-checks.ts';

const card = {
  realName: ' Asha Rao ',
  phone: '+91 98765 43210',
  bankName: 'State Bank of India',
  bankAccount: '123456789012',
  ifsc: 'sbin0001234',
  email: 'Asha@Example.com',
};

/** The message of each field's first issue, by field. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
  return found;
}

describe('bankCardFormSchema', () => {
  it('accepts a good card as the contract writes it', () => {
    const result = bankCardFormSchema.safeParse(card);
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ realName: 'Asha Rao', bankName: 'State Bank of India', bankAccount: '123456789012', ifsc: 'SBIN0001234' });
  });

  it('refuses a phone or an e-mail address the domain does not accept', () => {
    expect(Object.keys(problems(bankCardFormSchema.safeParse({ ...card, phone: '12345', email: 'nope' })))).toEqual(['phone', 'email']);
    expect(Object.keys(problems(bankCardFormSchema.safeParse({ ...card, bankAccount: '12345678', ifsc: 'SBIN1001234' })))).toEqual(['bankAccount', 'ifsc']);
  });
});

describe('addressFormSchema', () => {
  it('accepts a valid address and sends it in its normal form', () => {
    const result = addressFormSchema.safeParse({ network: 'ethereum', address: ' 0x52908400098527886e0f7030069857d2e4169ee7 ', label: ' cold ' });
    expect(result.data).toEqual({ network: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'cold' });
  });

  it('names the address problem from the domain check', () => {
    const problemOf = (network: string, address: string) => addressProblemOfMessage(problems(addressFormSchema.safeParse({ network, address, label: '' })).address);
    expect(problemOf('bitcoin', 'hello')).toBe('format');
    expect(problemOf('bitcoin', '0x52908400098527886E0F7030069857D2E4169EE7')).toBe('wrong_network');
    expect(problemOf('ethereum', '0x52908400098527886E0F7030069857D2E4169Ee7')).toBe('checksum');
    // Empty is the contract's own "required", not a domain problem.
    expect(problems(addressFormSchema.safeParse({ network: 'bitcoin', address: '', label: '' })).address).toBe('this field is required');
  });

  it('checks the label by the contract', () => {
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(problems(addressFormSchema.safeParse({ network: 'ethereum', address, label: 'x'.repeat(41) })).label).toBeDefined();
    expect(problems(addressFormSchema.safeParse({ network: 'ethereum', address, label: '<script>' })).label).toBe('no control characters or angle brackets');
  });
});

describe('txHashField', () => {
  const hex = 'ab'.repeat(32);
  it('wants a hash shaped for the chosen network', () => {
    const check = (network: 'ethereum' | 'bitcoin' | 'tron' | undefined, text: string) => txHashField(() => network).safeParse(text).error?.issues[0]?.message;
    expect(check('ethereum', '')).toBe('this field is required');
    expect(check('ethereum', `0x${hex}`)).toBeUndefined();
    expect(check('ethereum', hex)).toBe(TX_HASH_FORMAT);
    expect(check('bitcoin', hex)).toBeUndefined();
    expect(check('tron', `0x${hex}`)).toBeUndefined();
    expect(check('tron', 'abc')).toBe(TX_HASH_FORMAT);
    expect(check(undefined, 'abc')).toBeUndefined();
  });
});
