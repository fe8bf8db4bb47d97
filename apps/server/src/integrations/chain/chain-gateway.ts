/**
 * What Keel asks of a blockchain: did a transaction move an asset to one of our deposit
 * addresses, and how deep is it buried. The gateway only observes; deciding whether a deposit
 * is credited (enough confirmations, the right amount) is the caller's business.
 */

/** The asset a deposit is in: the chain's own coin (ETH), or a token contract (USDT). */
export type ChainAsset = { kind: 'native' } | { kind: 'erc20'; contract: string };

export type TransferObservation =
  /** The node does not know the transaction (yet, or ever: a made-up hash looks the same). */
  | { kind: 'not_found' }
  /** The node knows the transaction, but it is not in a block yet. */
  | { kind: 'pending' }
  /** Mined, but it failed: nothing moved, whatever its value or calldata said. */
  | { kind: 'reverted'; blockNumber: bigint }
  /**
   * Mined and successful. `confirmations` counts the transaction's own block, so a transaction in
   * the latest block has 1. `amountToAddressBaseUnits` is 0n when the transaction moved nothing
   * of this asset to the address.
   */
  | { kind: 'mined'; blockNumber: bigint; confirmations: number; amountToAddressBaseUnits: bigint };

export interface ChainGateway {
  /**
   * What a transaction did for `toAddress`: the native value it sent there, or the sum of the
   * token's Transfer events to it. Throws when the node cannot be asked (network down, timeout,
   * bad answer); the caller retries later, because "could not ask" is never "not found".
   */
  observeTransfer(input: { txHash: string; toAddress: string; asset: ChainAsset }): Promise<TransferObservation>;
}
