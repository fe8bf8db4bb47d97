import { ApiError, walletNonceContract } from '@keel/contracts';
import { useCallback } from 'react';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { connectProvider, injectedProvider, signWithProvider, WalletClientError, type WalletConnectPurpose, walletProblemKey } from './eip1193.ts';

/**
 * Connect, fetch the server's message for the wallet's address and chain, and have the wallet sign
 * it: what a wallet login or a binding sends to the server.
 */
export function useWalletSignature(purpose: WalletConnectPurpose) {
  const nonce = useContractMutation(walletNonceContract);
  return useCallback(async () => {
    const provider = injectedProvider();
    const { address, chainId } = await connectProvider(provider);
    const issued = await nonce.mutateAsync({ body: { purpose, address, chainId } });
    const signature = await signWithProvider(provider!, issued.message, address);
    return { message: issued.message, signature };
  }, [nonce, purpose]);
}

/** A refusal of the wallet or the server, in words: the catalogue message and, when known, the problem. */
export function useWalletErrorText() {
  const { t, tServer } = useI18n();
  return useCallback(
    (error: unknown): string | null => {
      if (error instanceof WalletClientError) {
        const key = walletProblemKey(error.problem);
        return [tServer(error.msg), key ? t(key) : null].filter(Boolean).join(' — ');
      }
      if (error instanceof ApiError) {
        const key = walletProblemKey((error.data as { problem?: unknown } | null)?.problem);
        return [tServer(error.message), key ? t(key) : null].filter(Boolean).join(' — ');
      }
      return null;
    },
    [t, tServer],
  );
}
