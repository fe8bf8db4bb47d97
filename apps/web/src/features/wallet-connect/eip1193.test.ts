import { describe, expect, it } from 'vitest';
import { connectProvider, injectedProvider, signWithProvider, WalletClientError, walletProblemKey } from './eip1193.ts';

const provider = (answers: Record<string, unknown>) => ({
  request: async ({ method }: { method: string }) => {
    const answer = answers[method];
    if (answer instanceof Error) throw answer;
    return answer;
  },
});

describe('EIP-1193 wallet connect (client)', () => {
  it('finds an injected provider, or none', () => {
    expect(injectedProvider({})).toBeNull();
    expect(injectedProvider({ ethereum: {} })).toBeNull();
    expect(injectedProvider({ ethereum: provider({}) })).not.toBeNull();
  });

  it('says "wallet not connected or not installed" without a provider', async () => {
    await expect(connectProvider(null)).rejects.toMatchObject({ msg: 'wallet not connected or not installed', problem: 'no_provider' });
  });

  it('reads the account and the hex chain id', async () => {
    expect(await connectProvider(provider({ eth_requestAccounts: ['0xabc'], eth_chainId: '0x1' }))).toEqual({ address: '0xabc', chainId: 1 });
  });

  it('turns a refusal (4001) into "wallet connection failed" / rejected', async () => {
    const rejected = Object.assign(new Error('User rejected'), { code: 4001 });
    await expect(connectProvider(provider({ eth_requestAccounts: rejected }))).rejects.toMatchObject({ msg: 'wallet connection failed', problem: 'rejected' });
    const error = await signWithProvider(provider({ personal_sign: rejected }), 'hi', '0xabc').catch((each) => each);
    expect(error).toBeInstanceOf(WalletClientError);
    expect(error.problem).toBe('rejected');
  });

  it('signs the message as UTF-8 hex', async () => {
    let seen: unknown[] = [];
    const signer = {
      request: async ({ params }: { method: string; params?: unknown[] }) => {
        seen = params ?? [];
        return '0xsig';
      },
    };
    expect(await signWithProvider(signer, 'hé', '0xabc')).toBe('0xsig');
    expect(seen).toEqual(['0x68c3a9', '0xabc']);
  });

  it('names every problem', () => {
    expect(walletProblemKey('nonce_used')).toBe('web.walletLogin.problem.nonce_used');
    expect(walletProblemKey('something')).toBeUndefined();
  });
});
