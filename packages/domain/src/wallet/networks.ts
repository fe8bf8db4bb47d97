/**
 * The chains the platform holds deposits on. Every wallet rule (address checks, deposit address
 * derivation, transaction hashes) is written per network, so adding a chain here makes the type
 * checker point at each rule that must learn about it.
 */
export const walletNetworks = ['bitcoin', 'ethereum', 'tron'] as const;

export type WalletNetwork = (typeof walletNetworks)[number];
