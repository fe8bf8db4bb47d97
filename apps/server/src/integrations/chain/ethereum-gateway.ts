import type { Hash, Log, PublicClient } from 'viem';
import type { ChainAsset, ChainGateway, TransferObservation } from './chain-gateway.ts';

type Viem = typeof import('viem');

const ERC20_TRANSFER_EVENT = 'event Transfer(address indexed from, address indexed to, uint256 value)';

const txHashPattern = /^0x[0-9a-fA-F]{64}$/;

/**
 * A ChainGateway over any Ethereum JSON-RPC endpoint (a node of our own or a provider's URL).
 * It reads only: it holds no key and sends nothing.
 */
export function createEthereumGateway(options: { rpcUrl: string; timeoutMs?: number }): ChainGateway {
  // viem loads with the first check, not at start-up (issue 15: it is a third of a second of a
  // start, and most nodes never check a chain).
  let connection: Promise<{ viem: Viem; client: PublicClient }> | undefined;
  const connect = () => {
    connection ??= import('viem').then((viem) => ({
      viem,
      client: viem.createPublicClient({
        // A couple of quick retries ride out a dropped connection; anything longer is the caller's
        // retry, which comes back later instead of holding a deposit check open.
        transport: viem.http(options.rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: 2 }),
      }),
    }));
    return connection;
  };

  return {
    async observeTransfer({ txHash, toAddress, asset }): Promise<TransferObservation> {
      // A hash typed wrong can never be found; asking the node would only earn an
      // "invalid params" error, which reads like an outage and would be retried forever.
      if (!txHashPattern.test(txHash)) return { kind: 'not_found' };
      const hash = txHash as Hash;
      const { viem, client } = await connect();
      const { TransactionNotFoundError, TransactionReceiptNotFoundError } = viem;

      let transaction: Awaited<ReturnType<typeof client.getTransaction>>;
      try {
        transaction = await client.getTransaction({ hash });
      } catch (error) {
        if (error instanceof TransactionNotFoundError) return { kind: 'not_found' };
        throw error;
      }
      if (transaction.blockNumber === null) return { kind: 'pending' };

      let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
      try {
        receipt = await client.getTransactionReceipt({ hash });
      } catch (error) {
        // The transaction said it is in a block but there is no receipt: a node behind a load
        // balancer that has not indexed the block yet, or a reorg in between. Ask again later.
        if (error instanceof TransactionReceiptNotFoundError) return { kind: 'pending' };
        throw error;
      }
      if (receipt.status === 'reverted') return { kind: 'reverted', blockNumber: receipt.blockNumber };

      // viem remembers the block number for its polling interval (4 s) unless told not to; a
      // remembered one would undercount confirmations right after a block.
      const latestBlockNumber = await client.getBlockNumber({ cacheTime: 0 });
      // Behind a load balancer the latest block may come from a node a block or two behind the
      // one that gave the receipt; a mined transaction still counts as at least its own block.
      const confirmations = Math.max(1, Number(latestBlockNumber - receipt.blockNumber + 1n));

      return {
        kind: 'mined',
        blockNumber: receipt.blockNumber,
        confirmations,
        amountToAddressBaseUnits: amountToAddress(viem, { transaction, logs: receipt.logs, toAddress, asset }),
      };
    },
  };
}

function amountToAddress(
  viem: Viem,
  input: {
  transaction: { to: string | null; value: bigint };
  logs: Log[];
  toAddress: string;
  asset: ChainAsset;
  },
): bigint {
  const to = input.toAddress.toLowerCase();
  if (input.asset.kind === 'native') {
    // Only the transaction's own value counts. ETH a contract forwards to the address in an
    // internal call (a smart wallet, a batcher) leaves no trace in the receipt; seeing it would
    // need a tracing node, so such a deposit shows as 0n and goes to staff.
    return input.transaction.to?.toLowerCase() === to ? input.transaction.value : 0n;
  }
  const contract = input.asset.contract.toLowerCase();
  let sumBaseUnits = 0n;
  // Any contract can emit an event called Transfer; only the configured token's own events move
  // that token. Strict decoding also skips ERC721 Transfers (same signature, no data).
  const abi = viem.parseAbi([ERC20_TRANSFER_EVENT]);
  for (const log of viem.parseEventLogs({ abi, eventName: 'Transfer', logs: input.logs })) {
    if (log.address.toLowerCase() === contract && log.args.to.toLowerCase() === to) sumBaseUnits += log.args.value;
  }
  return sumBaseUnits;
}
