// Pure domain rules: no I/O, no clock, no environment.
export * from './accounts/user-status.ts';
export * from './money/amount.ts';
export * from './money/assets.ts';
export * from './ledger/postings.ts';
export * from './market/price.ts';
export * from './swap/quote.ts';
export * from './identity/verification-code.ts';
export * from './identity/login-throttle.ts';
export * from './identity/security-rules.ts';
export * from './identity/tiers.ts';
