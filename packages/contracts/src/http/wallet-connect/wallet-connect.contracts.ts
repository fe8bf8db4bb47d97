import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { secretText, typedText } from '../common.ts';
import { validationMessages } from '../validation.ts';
import { authSessionSchema } from '../auth/auth.contracts.ts';

/**
 * Wallet connect by a signed message (issue 21, ADR 0047): Sign-In-With-Ethereum (EIP-4361). The
 * server issues a single-use nonce inside the message text; the wallet signs the text
 * (`personal_sign`); the server checks the text (its host, its chain, the nonce unused and
 * unexpired) and the signature, then logs in the account the address is bound to, or binds the
 * address to the logged-in account. Keel never asks for a seed phrase, a private key or a token
 * approval. Refusals: `WALLET_CONNECTION_FAILED` with `data.problem` (wrong_chain, nonce_used,
 * nonce_expired, nonce_unknown, wrong_domain, bad_signature, bad_message, bound_elsewhere,
 * already_bound, not_bound).
 */

/** Filled in by the wallet, never typed: a shape check is enough (the checksum is checked by the server). */
const ethereumAddressText = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/** The EIP-4361 text as the wallet signed it (a few hundred characters; control characters other than line breaks are refused by the parser). */
const signedMessageText = z.string().min(1).max(2000);
const signatureText = z.string().max(1000).regex(/^0x[0-9a-fA-F]+$/);

export const walletConnectPurposeSchema = z.enum(['login', 'bind']);

export const walletBindingSchema = z.object({
  address: z.string().nullable().describe('the bound address (EIP-55), or null'),
  chainId: z.number().int().describe('the chain a message must name'),
  boundAt: z.string().nullable(),
});

export const walletNonceContract = defineContract({
  id: 'walletConnect.nonce',
  method: 'POST',
  path: '/home/wallet-connect/nonce',
  summary:
    'Start a wallet connection: a single-use nonce (valid 5 minutes) inside the EIP-4361 message the wallet is to sign for `address` on `chainId` (the configured chain only).',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    purpose: walletConnectPurposeSchema,
    address: ethereumAddressText,
    chainId: z.number().int().min(1).max(2 ** 31 - 1),
  }),
  data: z.object({ nonce: z.string(), message: z.string(), expiresAt: z.string() }),
  errors: ['WALLET_CONNECTION_FAILED', 'TOO_MANY_REQUESTS'],
});

export const walletLoginContract = defineContract({
  id: 'walletConnect.login',
  method: 'POST',
  path: '/home/wallet-connect/login',
  summary:
    'Log in with a signed wallet-connect message (purpose login): answers with a session, as the password login does, for the account the address is bound to ("login failed" when none). Accounts with two-step login also send the authenticator code.',
  caller: 'public',
  rateLimited: true,
  body: z.object({
    message: signedMessageText,
    signature: signatureText,
    totp: typedText(12).optional().describe('the authenticator code, for accounts with two-step login'),
  }),
  data: authSessionSchema,
  errors: ['WALLET_CONNECTION_FAILED', 'LOGIN_FAILED', 'TWO_STEP_CODE_REQUIRED', 'WRONG_VERIFICATION_CODE', 'ACCOUNT_BANNED', 'TOO_MANY_REQUESTS'],
});

export const getWalletBindingContract = defineContract({
  id: 'walletConnect.binding',
  method: 'GET',
  path: '/home/wallet-connect',
  summary: 'The address bound to this account by a signed message, if any.',
  caller: 'user',
  data: walletBindingSchema,
  errors: [],
});

export const bindWalletContract = defineContract({
  id: 'walletConnect.bind',
  method: 'POST',
  path: '/home/wallet-connect/bind',
  summary:
    'Bind the address of a signed wallet-connect message (purpose bind) to this account, with the payment password (its shared attempt lock applies). One address per account; an address bound to another account is refused.',
  caller: 'user',
  rateLimited: true,
  body: z.object({ message: signedMessageText, signature: signatureText, paymentPassword: secretText(12).min(1, validationMessages.required) }),
  data: walletBindingSchema,
  errors: ['WALLET_CONNECTION_FAILED', 'PAYMENT_PASSWORD_NOT_SET', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED', 'TOO_MANY_REQUESTS'],
});

export const unbindWalletContract = defineContract({
  id: 'walletConnect.unbind',
  method: 'POST',
  path: '/home/wallet-connect/unbind',
  summary: 'Unbind the connected address, with the payment password. Addresses already in the withdrawal address book stay there.',
  caller: 'user',
  rateLimited: true,
  body: z.object({ paymentPassword: secretText(12).min(1, validationMessages.required) }),
  data: walletBindingSchema,
  errors: ['WALLET_CONNECTION_FAILED', 'PAYMENT_PASSWORD_NOT_SET', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED', 'TOO_MANY_REQUESTS'],
});

export const walletConnectContracts = [walletNonceContract, walletLoginContract, getWalletBindingContract, bindWalletContract, unbindWalletContract] as const;
