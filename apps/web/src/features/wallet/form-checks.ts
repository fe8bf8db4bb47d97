import { checkAddress, normaliseTxHash, normalizeEmail, normalizePhone } from '@keel/domain';
import type { AddressProblemCode } from './refusal.ts';
import type { WalletNetwork } from './wallet-labels.ts';

/**
 * Browser-side checks of the wallet forms, mirroring the server's (contracts and `@keel/domain`),
 * so most mistakes are named before a round trip. The server checks everything again.
 */

/** Text the server refuses in names and labels: control characters and angle brackets. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f<>]/;

export type TxHashProblem = 'required' | 'format';

/** A deposit's transaction hash: required, and shaped like a hash of the channel's network. */
export function txHashProblem(network: WalletNetwork | undefined, text: string): TxHashProblem | undefined {
  if (text.trim() === '') return 'required';
  if (text.trim().length > 100) return 'format';
  if (network && normaliseTxHash(network, text) === null) return 'format';
  return undefined;
}

export type LabelProblem = 'tooLong' | 'characters';

export interface AddressFormInput {
  network: WalletNetwork;
  address: string;
  label: string;
}

export interface AddressFormResult {
  problems: { address?: AddressProblemCode | 'tooLong'; label?: LabelProblem };
  /** The body to send, with the address in its normal form, when there is no problem. */
  body?: { network: WalletNetwork; address: string; label: string };
}

export function checkAddressForm(input: AddressFormInput): AddressFormResult {
  const problems: AddressFormResult['problems'] = {};
  const label = input.label.trim();
  if (label.length > 40) problems.label = 'tooLong';
  else if (UNSAFE_TEXT.test(label)) problems.label = 'characters';
  let address = '';
  if (input.address.trim().length > 120) problems.address = 'tooLong';
  else {
    const checked = checkAddress(input.network, input.address);
    if (checked.ok) address = checked.address;
    else problems.address = checked.problem;
  }
  if (problems.address || problems.label) return { problems };
  return { problems, body: { network: input.network, address, label } };
}

export interface BankCardInput {
  realName: string;
  phone: string;
  bankName: string;
  bankAccount: string;
  ifsc: string;
  email: string;
}

export type BankCardField = keyof BankCardInput;
export type BankCardProblem = 'required' | 'tooShort' | 'tooLong' | 'characters' | 'phoneFormat' | 'accountFormat' | 'ifscFormat' | 'emailFormat';

export interface BankCardResult {
  problems: Partial<Record<BankCardField, BankCardProblem>>;
  body?: BankCardInput;
}

function nameProblem(text: string): BankCardProblem | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length < 2) return 'tooShort';
  if (trimmed.length > 100) return 'tooLong';
  return UNSAFE_TEXT.test(trimmed) ? 'characters' : undefined;
}

/**
 * A bank card as the server takes it: real name and bank name (2–100 plain characters), an
 * international phone number, an account of 9–18 digits, an IFSC code (4 letters, 0, 6 letters or
 * digits, any case), an e-mail address. The body is normalised the way the server stores it.
 */
export function checkBankCard(input: BankCardInput): BankCardResult {
  const problems: BankCardResult['problems'] = {};
  const realName = nameProblem(input.realName);
  if (realName) problems.realName = realName;
  const bankName = nameProblem(input.bankName);
  if (bankName) problems.bankName = bankName;
  const phone = normalizePhone(input.phone);
  if (input.phone.trim() === '') problems.phone = 'required';
  else if (!phone) problems.phone = 'phoneFormat';
  const account = input.bankAccount.replace(/\s/g, '');
  if (account === '') problems.bankAccount = 'required';
  else if (!/^[0-9]{9,18}$/.test(account)) problems.bankAccount = 'accountFormat';
  const ifsc = input.ifsc.trim().toUpperCase();
  if (ifsc === '') problems.ifsc = 'required';
  else if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(ifsc)) problems.ifsc = 'ifscFormat';
  const email = normalizeEmail(input.email);
  if (input.email.trim() === '') problems.email = 'required';
  else if (!email) problems.email = 'emailFormat';
  if (Object.keys(problems).length > 0 || !phone || !email) return { problems };
  return {
    problems,
    body: { realName: input.realName.trim(), phone, bankName: input.bankName.trim(), bankAccount: account, ifsc, email },
  };
}
