// Pure domain rules: no I/O, no clock, no environment.
export * from './accounts/user-status.ts';
export * from './money/amount.ts';
export * from './money/assets.ts';
export * from './ledger/postings.ts';
export * from './market/price.ts';
export * from './swap/quote.ts';
export * from './market/prng.ts';
export * from './market/random-walk.ts';
export * from './market/candles.ts';
export * from './market/ticker.ts';
export * from './identity/verification-code.ts';
export * from './identity/login-throttle.ts';
export * from './identity/security-rules.ts';
export * from './identity/tiers.ts';
export * from './withdrawals/rules.ts';
export * from './withdrawals/review.ts';
export * from './wallet/index.ts';
