import { describe, expect, it } from 'vitest';
import { type BankDetails, bankDetailsProblems, isValidCardNumber, isValidIban, isValidRoutingNumber, isValidSwift } from './bank-details.ts';

const blank: BankDetails = {
  payeeName: '',
  cardNumber: '',
  routingNumber: '',
  branchNumber: '',
  bankName: '',
  accountName: '',
  accountNumber: '',
  bankCode: '',
  swiftCode: '',
  bankAddress: '',
  branchCode: '',
  remarks: '',
};

describe('bank detail formats', () => {
  it('checks IBANs by country, length and mod 97', () => {
    // The published example IBANs of the UK and Germany.
    expect(isValidIban('GB82 WEST 1234 5698 7654 32', 'GB', 22)).toBe(true);
    expect(isValidIban('DE89370400440532013000', 'DE', 22)).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 33', 'GB', 22)).toBe(false);
    expect(isValidIban('DE89370400440532013000', 'GB', 22)).toBe(false);
    expect(isValidIban('DE8937040044053201300', 'DE', 22)).toBe(false);
  });

  it('checks US routing numbers by their check digit', () => {
    expect(isValidRoutingNumber('021000021')).toBe(true);
    expect(isValidRoutingNumber('021000022')).toBe(false);
    expect(isValidRoutingNumber('02100002')).toBe(false);
  });

  it('checks SWIFT codes and their country letters', () => {
    expect(isValidSwift('DEUTDEFF', 'DE')).toBe(true);
    expect(isValidSwift('deut de ff 500', 'DE')).toBe(true);
    expect(isValidSwift('DEUTDEFF', 'GB')).toBe(false);
    expect(isValidSwift('DEUT1EFF', 'DE')).toBe(false);
  });

  it('checks card numbers by Luhn', () => {
    expect(isValidCardNumber('4111 1111 1111 1111')).toBe(true);
    expect(isValidCardNumber('4111 1111 1111 1112')).toBe(false);
    expect(isValidCardNumber('41111')).toBe(false);
  });
});

describe('bankDetailsProblems', () => {
  it('asks for the payee, the bank and the account everywhere, and a routing number in the US', () => {
    expect(bankDetailsProblems('US', blank)).toEqual({ payeeName: 'required', bankName: 'required', accountNumber: 'required', routingNumber: 'required' });
    expect(bankDetailsProblems('JP', blank)).toEqual({ payeeName: 'required', bankName: 'required', accountNumber: 'required' });
  });

  it('takes valid details of an IBAN country and refuses a wrong IBAN', () => {
    const details = { ...blank, payeeName: 'Ana Lee', bankName: 'Deutsche Bank', accountNumber: 'DE89 3704 0044 0532 0130 00', swiftCode: 'DEUTDEFF' };
    expect(bankDetailsProblems('DE', details)).toEqual({});
    expect(bankDetailsProblems('DE', { ...details, accountNumber: 'DE89 3704 0044 0532 0130 01' })).toEqual({ accountNumber: 'invalid_iban' });
  });

  it('checks the optional fields only when given', () => {
    const details = { ...blank, payeeName: 'Ana Lee', bankName: 'Chase', accountNumber: '12345678', routingNumber: '021000021' };
    expect(bankDetailsProblems('US', details)).toEqual({});
    expect(bankDetailsProblems('US', { ...details, swiftCode: 'CHASGB2L', cardNumber: '4111111111111112' })).toEqual({
      swiftCode: 'invalid_swift',
      cardNumber: 'invalid_card_number',
    });
    expect(bankDetailsProblems('US', { ...details, accountNumber: '12AB', routingNumber: '123456789' })).toEqual({
      accountNumber: 'invalid_account_number',
      routingNumber: 'invalid_routing_number',
    });
  });
});
