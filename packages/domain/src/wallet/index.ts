export * from './addresses.ts';
export * from './derive.ts';
export * from './networks.ts';
export * from './tx-hash.ts';
export * from './siwe.ts';
