/**
 * Wallet connect by a signed message (issue 21, ADR 0047): Sign-In-With-Ethereum (EIP-4361).
 * Keel proves that a user holds an Ethereum address by asking their wallet to sign a plain-text
 * message naming Keel's host, a single-use nonce and a short validity. Nothing here asks for a
 * seed phrase, a private key or a token approval, and the message says so.
 *
 * Pure: the text of the message and the checks of its fields against what the server expects.
 * Parsing and the signature (secp256k1 recovery) are viem's, on the server.
 */

/** How long an issued nonce, and so the message built around it, can be signed and sent back. */
export const WALLET_NONCE_TTL_MS = 5 * 60_000;

/** The sentence the user signs (ASCII, one line, as EIP-4361 requires of the statement). */
export const SIWE_STATEMENT =
  'Prove that you own this address to Keel. Keel never asks for your seed phrase, your private key or a token approval.';

/**
 * Why a wallet connection failed (`WALLET_CONNECTION_FAILED` `data.problem`):
 * - `rejected`: the user refused to sign (the wallet's code 4001; found by the client);
 * - `wrong_chain`: the wallet is on another chain than the one Keel accepts;
 * - `nonce_used` / `nonce_expired` / `nonce_unknown`: a replayed, stale or invented nonce;
 * - `wrong_domain`: a message written for another site;
 * - `bad_signature`: the signature is not the address's signature of this text;
 * - `bad_message`: not an EIP-4361 message of ours (a field missing, or not what was issued);
 * - `bound_elsewhere`: the address is bound to another account; `already_bound`: this account
 *   already has an address (one per account); `not_bound`: an unbind with nothing bound.
 */
export const walletConnectProblems = [
  'rejected',
  'wrong_chain',
  'nonce_used',
  'nonce_expired',
  'nonce_unknown',
  'wrong_domain',
  'bad_signature',
  'bad_message',
  'bound_elsewhere',
  'already_bound',
  'not_bound',
] as const;
export type WalletConnectProblem = (typeof walletConnectProblems)[number];

/** What the message carries (EIP-4361's fields that Keel uses). */
export interface SiweFields {
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}

/**
 * The EIP-4361 text of a message, line for line as the EIP's ABNF gives it (and as viem's
 * `createSiweMessage` writes it; a unit test compares the two).
 */
export function buildSiweMessage(fields: SiweFields): string {
  const lines = [`${fields.domain} wants you to sign in with your Ethereum account:`, fields.address, ''];
  if (fields.statement) lines.push(fields.statement, '');
  lines.push(
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expirationTime.toISOString()}`,
  );
  return lines.join('\n');
}

/** The fields of a received message, as a parser found them (any may be missing). */
export interface ReceivedSiweFields {
  domain?: string | undefined;
  address?: string | undefined;
  uri?: string | undefined;
  version?: string | undefined;
  chainId?: number | undefined;
  nonce?: string | undefined;
  issuedAt?: Date | undefined;
  expirationTime?: Date | undefined;
  notBefore?: Date | undefined;
}

export interface SiweExpectation {
  /** The host (with its port when not the scheme's default) of Keel's public origin. */
  domain: string;
  /** Keel's public origin: the message's URI must be on it. */
  origin: string;
  chainId: number;
  nowMs: number;
}

/**
 * Checks a received message's fields against what Keel expects, in the order a user can act on:
 * a message that is not ours at all, then another site's, then another chain's, then a stale one.
 * The nonce's single use and the signature are the server's (they need the database and viem).
 */
export function checkSiweFields(received: ReceivedSiweFields, expected: SiweExpectation): WalletConnectProblem | null {
  const { domain, address, uri, chainId, nonce, version } = received;
  if (!domain || !address || !uri || chainId === undefined || !nonce || (version !== undefined && version !== '1')) return 'bad_message';
  if (domain.toLowerCase() !== expected.domain.toLowerCase()) return 'wrong_domain';
  if (!uriIsOnOrigin(uri, expected.origin)) return 'wrong_domain';
  if (chainId !== expected.chainId) return 'wrong_chain';
  if (received.expirationTime && received.expirationTime.getTime() <= expected.nowMs) return 'nonce_expired';
  if (received.notBefore && received.notBefore.getTime() > expected.nowMs) return 'bad_message';
  return null;
}

function uriIsOnOrigin(uri: string, origin: string): boolean {
  try {
    return new URL(uri).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** The host part EIP-4361 calls the domain: the origin's host, with a port only when not the default. */
export function siweDomainOf(origin: string): string {
  return new URL(origin).host;
}

/** An address shortened for display: `0x1234…abcd`. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
