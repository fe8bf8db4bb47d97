import { describe, expect, it } from 'vitest';
import { recipientProblem, userTransferCost, userTransferPostings } from './user-transfer.ts';

describe('userTransferCost', () => {
  it('charges 0.10 % on top: 1,000 USDT costs 1,001', () => {
    expect(userTransferCost(1_000_000_000n)).toEqual({ amountMinor: 1_000_000_000n, feeMinor: 1_000_000n, totalMinor: 1_001_000_000n });
  });

  it('rounds the fee up to the next minor unit, so it is never below the rate', () => {
    // 1.234567 USDT × 0.001 = 0.001234567 → 0.001235
    expect(userTransferCost(1_234_567n).feeMinor).toBe(1_235n);
  });

  it('never charges nothing: one minor unit pays one minor unit', () => {
    expect(userTransferCost(1n)).toEqual({ amountMinor: 1n, feeMinor: 1n, totalMinor: 2n });
  });

  it('refuses zero and negative amounts', () => {
    expect(() => userTransferCost(0n)).toThrow(RangeError);
    expect(() => userTransferCost(-5n)).toThrow(RangeError);
  });
});

describe('recipientProblem', () => {
  it('names a missing recipient and oneself', () => {
    expect(recipientProblem(7n, null)).toBe('not_found');
    expect(recipientProblem(7n, 7n)).toBe('self');
    expect(recipientProblem(7n, 8n)).toBeNull();
  });
});

describe('userTransferPostings', () => {
  it('is one balanced entry: sender pays amount and fee, recipient gets the amount, the fee account the fee', () => {
    const postings = userTransferPostings({ senderCoin: 10n, recipientCoin: 20n, fees: 3n }, 'USDT', userTransferCost(500_000_000n));
    expect(postings).toEqual([
      { accountId: 10n, asset: 'USDT', bucket: 'available', amountMinor: -500_500_000n },
      { accountId: 20n, asset: 'USDT', bucket: 'available', amountMinor: 500_000_000n },
      { accountId: 3n, asset: 'USDT', bucket: 'available', amountMinor: 500_000n },
    ]);
    expect(postings.reduce((sum, posting) => sum + posting.amountMinor, 0n)).toBe(0n);
  });

  it('refuses a transfer whose two sides are one account', () => {
    expect(() => userTransferPostings({ senderCoin: 10n, recipientCoin: 10n, fees: 3n }, 'USDT', userTransferCost(1n))).toThrow(RangeError);
  });
});
