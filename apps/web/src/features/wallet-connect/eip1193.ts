import { errorCatalogue, type walletConnectPurposeSchema } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { z } from 'zod';

/**
 * The browser half of wallet connect (issue 21, ADR 0047): an injected EIP-1193 provider
 * (`window.ethereum`) gives the address and chain, and signs the server's EIP-4361 message with
 * `personal_sign`. Nothing else is ever asked of the wallet: no transaction, no approval, no key.
 */

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export type WalletConnectPurpose = z.infer<typeof walletConnectPurposeSchema>;

/** A refusal found in the browser, before or instead of the server's. */
export class WalletClientError extends Error {
  constructor(
    /** The catalogue message it is shown as. */
    readonly msg: string,
    readonly problem: 'no_provider' | 'rejected' | 'no_account' | 'wallet_error',
  ) {
    super(msg);
  }
}

export function injectedProvider(scope: { ethereum?: unknown } = globalThis as { ethereum?: unknown }): Eip1193Provider | null {
  const candidate = scope.ethereum as Partial<Eip1193Provider> | undefined;
  return candidate && typeof candidate.request === 'function' ? (candidate as Eip1193Provider) : null;
}

/** EIP-1193's "user rejected the request". */
const USER_REJECTED = 4001;

function walletFailure(error: unknown): WalletClientError {
  const code = (error as { code?: unknown } | null)?.code;
  return code === USER_REJECTED
    ? new WalletClientError(errorCatalogue.WALLET_CONNECTION_FAILED.msg, 'rejected')
    : new WalletClientError(errorCatalogue.WALLET_CONNECTION_FAILED.msg, 'wallet_error');
}

/** Asks the wallet for its account and chain (the user may refuse: 4001). */
export async function connectProvider(provider: Eip1193Provider | null): Promise<{ address: string; chainId: number }> {
  if (!provider) throw new WalletClientError(errorCatalogue.WALLET_NOT_CONNECTED.msg, 'no_provider');
  let accounts: unknown;
  let chain: unknown;
  try {
    accounts = await provider.request({ method: 'eth_requestAccounts' });
    chain = await provider.request({ method: 'eth_chainId' });
  } catch (error) {
    throw walletFailure(error);
  }
  const address = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : undefined;
  if (!address) throw new WalletClientError(errorCatalogue.WALLET_NOT_CONNECTED.msg, 'no_account');
  const chainId = typeof chain === 'string' ? Number.parseInt(chain, 16) : typeof chain === 'number' ? chain : Number.NaN;
  return { address, chainId: Number.isSafeInteger(chainId) && chainId > 0 ? chainId : 0 };
}

/** `personal_sign` of the message as UTF-8 text, hex-encoded as wallets expect. */
export async function signWithProvider(provider: Eip1193Provider, message: string, address: string): Promise<string> {
  const hex = `0x${Array.from(new TextEncoder().encode(message), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  try {
    const signature = await provider.request({ method: 'personal_sign', params: [hex, address] });
    if (typeof signature !== 'string') throw new Error('no signature');
    return signature;
  } catch (error) {
    throw walletFailure(error);
  }
}

const problemKeys = {
  rejected: 'web.walletLogin.problem.rejected',
  wrong_chain: 'web.walletLogin.problem.wrong_chain',
  nonce_used: 'web.walletLogin.problem.nonce_used',
  nonce_expired: 'web.walletLogin.problem.nonce_expired',
  nonce_unknown: 'web.walletLogin.problem.nonce_expired',
  wrong_domain: 'web.walletLogin.problem.wrong_domain',
  bad_signature: 'web.walletLogin.problem.bad_signature',
  bad_message: 'web.walletLogin.problem.bad_signature',
  bound_elsewhere: 'web.walletLogin.problem.bound_elsewhere',
  already_bound: 'web.walletLogin.problem.already_bound',
  not_bound: 'web.walletLogin.problem.not_bound',
  wallet_error: 'web.walletLogin.problem.wallet_error',
  no_provider: 'web.walletLogin.problem.no_provider',
  no_account: 'web.walletLogin.problem.no_provider',
} as const satisfies Record<string, MessageKey>;

/** The words for a `data.problem` (server) or a client problem; undefined for anything unknown. */
export function walletProblemKey(problem: unknown): MessageKey | undefined {
  return typeof problem === 'string' && problem in problemKeys ? problemKeys[problem as keyof typeof problemKeys] : undefined;
}
