import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { createTestClient, createWalletClient, HttpRequestError, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEthereumGateway } from '../../../src/integrations/chain/ethereum-gateway.ts';
import type { ChainGateway } from '../../../src/integrations/chain/chain-gateway.ts';
import { startEthereumNode, type TestEthereumNode } from '../../helpers/ethereum-node.ts';

// Addresses nobody holds a key for: deposit addresses, as far as the chain can tell. Letters in
// the deposit address, so comparing it in another case shows whether case matters.
const depositAddress = '0xabcdef0123456789abcdef0123456789abcdef01';
const otherAddress = '0x2222222222222222222222222222222222222222';

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('EthereumGateway against a local node', () => {
  let node: TestEthereumNode;
  let gateway: ChainGateway;

  beforeAll(async () => {
    node = await startEthereumNode();
    gateway = createEthereumGateway({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 });
  });

  afterAll(async () => {
    await node?.close();
  });

  it('observes a native transfer to the address, with the exact wei, and confirmations grow as blocks are mined', async () => {
    const amountWei = 1_234_567_890_123_456_789n;
    const txHash = await node.sendEth({ from: 1, to: depositAddress, amountWei });

    const first = await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'native' } });
    expect(first).toMatchObject({ kind: 'mined', confirmations: 1, amountToAddressBaseUnits: amountWei });

    await node.mine(5);
    // The address is compared without regard to case: EIP-55, lower or upper case, same address.
    const later = await gateway.observeTransfer({ txHash, toAddress: `0x${depositAddress.slice(2).toUpperCase()}`, asset: { kind: 'native' } });
    expect(later).toEqual({ ...first, confirmations: 6 });
  });

  it('gives 0n for a native transfer that went to another address', async () => {
    const txHash = await node.sendEth({ from: 1, to: otherAddress, amountWei: 10n ** 18n });
    const observed = await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'native' } });
    expect(observed).toMatchObject({ kind: 'mined', amountToAddressBaseUnits: 0n });
  });

  it('reports a hash the node does not know as not_found', async () => {
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    expect(await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'native' } })).toEqual({ kind: 'not_found' });
    expect(await gateway.observeTransfer({ txHash: '0x1234', toAddress: depositAddress, asset: { kind: 'native' } })).toEqual({ kind: 'not_found' });
  });

  it('reports a transaction that is known but not in a block yet as pending', async () => {
    // With the miner stopped the node keeps the transaction in its pool, as a real node does
    // between broadcast and the next block. Sent by hand: the helper waits for the receipt.
    const sender = node.accounts[3]!;
    const wallet = createWalletClient({ account: privateKeyToAccount(sender.privateKey), transport: http(node.rpcUrl) });
    const control = createTestClient({ mode: 'ganache', transport: http(node.rpcUrl) });
    await control.setAutomine(false);
    try {
      const txHash = await wallet.sendTransaction({ chain: null, to: depositAddress, value: 1n, gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n });
      expect(await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'native' } })).toEqual({ kind: 'pending' });
    } finally {
      await control.setAutomine(true);
    }
  });

  describe('tokens', () => {
    let token: `0x${string}`;
    let otherToken: `0x${string}`;

    beforeAll(async () => {
      token = await node.deployToken();
      otherToken = await node.deployToken();
    });

    it('observes a token transfer to the address with the exact base units (123.456789 tokens)', async () => {
      const txHash = await node.sendToken({ token, from: 0, to: depositAddress, amountBaseUnits: 123_456_789n });
      const observed = await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'erc20', contract: token.toLowerCase() } });
      expect(observed).toMatchObject({ kind: 'mined', confirmations: 1, amountToAddressBaseUnits: 123_456_789n });
      // The same transaction moved no ETH to the address.
      expect(await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'native' } })).toMatchObject({ amountToAddressBaseUnits: 0n });
    });

    it('gives 0n for a transfer of a different token to the address', async () => {
      const txHash = await node.sendToken({ token: otherToken, from: 0, to: depositAddress, amountBaseUnits: 5_000_000n });
      const observed = await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'erc20', contract: token } });
      expect(observed).toMatchObject({ kind: 'mined', amountToAddressBaseUnits: 0n });
      // …and the token it was counts it.
      const asOtherToken = await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'erc20', contract: otherToken } });
      expect(asOtherToken).toMatchObject({ kind: 'mined', amountToAddressBaseUnits: 5_000_000n });
    });

    it('reports a token transfer that failed on chain as reverted', async () => {
      // Account 2 holds none of the token, so its transfer reverts, yet it is mined (and pays gas).
      const txHash = await node.sendToken({ token, from: 2, to: depositAddress, amountBaseUnits: 1_000_000n });
      const observed = await gateway.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'erc20', contract: token } });
      expect(observed).toEqual({ kind: 'reverted', blockNumber: expect.any(BigInt) });
    });
  });

  it('throws, and does not say not_found, when the node cannot be reached', async () => {
    const unreachable = createEthereumGateway({ rpcUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 1_000 });
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    await expect(unreachable.observeTransfer({ txHash, toAddress: depositAddress, asset: { kind: 'native' } })).rejects.toThrow(HttpRequestError);
  });
});
