/**
 * The countries C2C serves and the bank details a C2C withdrawal is paid to (spec section 4: country,
 * payee name, card number, routing number, branch number, bank name, account name, account number,
 * bank code, SWIFT code, bank address, branch code, remarks), each checked where a format exists:
 * IBAN (ISO 13616, mod 97) in the countries that use it, the US ABA routing number (its check
 * digit), SWIFT/BIC (ISO 9362, its country letters), card numbers (Luhn). Pure; the server and the
 * form apply the same function.
 */

/** The countries served, each with its currency and, where banks use IBANs, the IBAN's length. */
export const C2C_COUNTRIES = {
  US: { currency: 'USD', ibanLength: null },
  GB: { currency: 'GBP', ibanLength: 22 },
  DE: { currency: 'EUR', ibanLength: 22 },
  FR: { currency: 'EUR', ibanLength: 27 },
  ES: { currency: 'EUR', ibanLength: 24 },
  IT: { currency: 'EUR', ibanLength: 27 },
  NL: { currency: 'EUR', ibanLength: 18 },
  TR: { currency: 'TRY', ibanLength: 26 },
  SA: { currency: 'SAR', ibanLength: 24 },
  AE: { currency: 'AED', ibanLength: 23 },
  BR: { currency: 'BRL', ibanLength: 29 },
  IN: { currency: 'INR', ibanLength: null },
  JP: { currency: 'JPY', ibanLength: null },
  KR: { currency: 'KRW', ibanLength: null },
  VN: { currency: 'VND', ibanLength: null },
  ID: { currency: 'IDR', ibanLength: null },
  TH: { currency: 'THB', ibanLength: null },
  PH: { currency: 'PHP', ibanLength: null },
  MX: { currency: 'MXN', ibanLength: null },
  NG: { currency: 'NGN', ibanLength: null },
} as const satisfies Record<string, { currency: string; ibanLength: number | null }>;

export type C2cCountry = keyof typeof C2C_COUNTRIES;
export const c2cCountryCodes = Object.keys(C2C_COUNTRIES) as C2cCountry[];

export function isC2cCountry(code: string): code is C2cCountry {
  return Object.hasOwn(C2C_COUNTRIES, code);
}

/** The spec's fields of a C2C withdrawal's bank details (all text; empty means not given). */
export interface BankDetails {
  payeeName: string;
  cardNumber: string;
  routingNumber: string;
  branchNumber: string;
  bankName: string;
  accountName: string;
  accountNumber: string;
  bankCode: string;
  swiftCode: string;
  bankAddress: string;
  branchCode: string;
  remarks: string;
}

export const bankDetailFields = [
  'payeeName',
  'cardNumber',
  'routingNumber',
  'branchNumber',
  'bankName',
  'accountName',
  'accountNumber',
  'bankCode',
  'swiftCode',
  'bankAddress',
  'branchCode',
  'remarks',
] as const satisfies readonly (keyof BankDetails)[];

export type BankDetailProblem = 'required' | 'invalid_iban' | 'invalid_routing_number' | 'invalid_swift' | 'invalid_card_number' | 'invalid_account_number';

/** Digits and letters only, upper case: how people type IBANs and BICs with spaces. */
export const compactBankText = (text: string) => text.replace(/[\s-]/g, '').toUpperCase();

/** ISO 13616: the country's length, then (moved to the end, letters as 10..35) mod 97 is 1. */
export function isValidIban(text: string, country: string, length: number): boolean {
  const iban = compactBankText(text);
  if (iban.length !== length || !iban.startsWith(country) || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = character >= 'A' ? character.charCodeAt(0) - 55 : Number(character);
    remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97;
  }
  return remainder === 1;
}

/** An ABA routing number: nine digits whose weighted sum (3, 7, 1, ...) is a multiple of 10. */
export function isValidRoutingNumber(text: string): boolean {
  const digits = compactBankText(text);
  if (!/^\d{9}$/.test(digits)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...digits].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  return sum % 10 === 0;
}

/** ISO 9362: bank (4 letters), country (2 letters, the payee's country), location (2), optional branch (3). */
export function isValidSwift(text: string, country: string): boolean {
  const bic = compactBankText(text);
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic) && bic.slice(4, 6) === country;
}

/** A card number: 12 to 19 digits passing the Luhn check. */
export function isValidCardNumber(text: string): boolean {
  const digits = compactBankText(text);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * What is wrong with bank details for `country`, field by field (empty when nothing is). Always
 * required: the payee's name, the bank's name and the account number. Where the country uses
 * IBANs the account number is the IBAN; in the US a routing number is required and the account
 * number is 4 to 17 digits; elsewhere 4 to 34 letters and digits. The SWIFT code and card number
 * are optional, and checked when given.
 */
export function bankDetailsProblems(country: C2cCountry, details: BankDetails): Partial<Record<keyof BankDetails, BankDetailProblem>> {
  const problems: Partial<Record<keyof BankDetails, BankDetailProblem>> = {};
  for (const field of ['payeeName', 'bankName', 'accountNumber'] as const) {
    if (details[field].trim() === '') problems[field] = 'required';
  }
  const { ibanLength } = C2C_COUNTRIES[country];
  const account = compactBankText(details.accountNumber);
  if (!problems.accountNumber) {
    if (ibanLength !== null) {
      if (!isValidIban(account, country, ibanLength)) problems.accountNumber = 'invalid_iban';
    } else if (country === 'US') {
      if (!/^\d{4,17}$/.test(account)) problems.accountNumber = 'invalid_account_number';
    } else if (!/^[A-Z0-9]{4,34}$/.test(account)) {
      problems.accountNumber = 'invalid_account_number';
    }
  }
  if (country === 'US') {
    if (details.routingNumber.trim() === '') problems.routingNumber = 'required';
    else if (!isValidRoutingNumber(details.routingNumber)) problems.routingNumber = 'invalid_routing_number';
  }
  if (details.swiftCode.trim() !== '' && !isValidSwift(details.swiftCode, country)) problems.swiftCode = 'invalid_swift';
  if (details.cardNumber.trim() !== '' && !isValidCardNumber(details.cardNumber)) problems.cardNumber = 'invalid_card_number';
  return problems;
}
