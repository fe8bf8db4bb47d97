import { describe, expect, it } from 'vitest';
import {
  type AccountBalance,
  applyEntry,
  captureHoldPostings,
  mergePostings,
  LedgerError,
  lockOrder,
  MAX_POSTINGS_PER_ENTRY,
  placeHoldPostings,
  releaseHoldPostings,
  transferPostings,
  validateEntry,
} from './postings.ts';

const account = (accountId: bigint, availableMinor: bigint, extra: Partial<AccountBalance> = {}): AccountBalance => ({
  accountId,
  asset: 'USDT',
  availableMinor,
  frozenMinor: 0n,
  allowNegative: false,
  ...extra,
});
const book = (...accounts: AccountBalance[]) => new Map(accounts.map((a) => [a.accountId, a]));
const problemOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof LedgerError) return error.problem;
    throw error;
  }
  throw new Error('expected a LedgerError');
};

describe('entry shape', () => {
  it('refuses an empty entry, a zero posting, too many postings, and an unbalanced asset', () => {
    expect(problemOf(() => validateEntry([]))).toEqual({ kind: 'empty_entry' });
    expect(problemOf(() => validateEntry([{ accountId: 1n, asset: 'USDT', bucket: 'available', amountMinor: 0n }]))).toEqual({
      kind: 'zero_posting',
      index: 0,
    });
    const many = Array.from({ length: MAX_POSTINGS_PER_ENTRY / 2 + 1 }, () => transferPostings(1n, 2n, 'USDT', 1n)).flat();
    expect(problemOf(() => validateEntry(many))).toMatchObject({ kind: 'too_many_postings' });
    expect(
      problemOf(() =>
        validateEntry([
          ...transferPostings(1n, 2n, 'USDT', 5n),
          { accountId: 3n, asset: 'BTC', bucket: 'available', amountMinor: 1n },
        ]),
      ),
    ).toEqual({ kind: 'unbalanced', asset: 'BTC', sumMinor: 1n });
  });

  it('balances per asset, not across assets: a swap is two balanced legs', () => {
    expect(() =>
      validateEntry([
        ...transferPostings(1n, 9n, 'USDT', 100n),
        ...transferPostings(8n, 2n, 'BTC', 3n),
      ]),
    ).not.toThrow();
  });
});

describe('applying entries', () => {
  it('a transfer moves available money', () => {
    const next = applyEntry(book(account(1n, 100n), account(2n, 0n)), transferPostings(1n, 2n, 'USDT', 40n));
    expect(next.get(1n)!.availableMinor).toBe(60n);
    expect(next.get(2n)!.availableMinor).toBe(40n);
  });

  it('a user account never goes below zero; the treasury may', () => {
    expect(problemOf(() => applyEntry(book(account(1n, 10n), account(2n, 0n)), transferPostings(1n, 2n, 'USDT', 11n)))).toEqual({
      kind: 'insufficient_balance',
      accountId: 1n,
      bucket: 'available',
      shortMinor: 1n,
    });
    const next = applyEntry(book(account(1n, 0n, { allowNegative: true }), account(2n, 0n)), transferPostings(1n, 2n, 'USDT', 500n));
    expect(next.get(1n)!.availableMinor).toBe(-500n);
  });

  it('a hold freezes, a release unfreezes, a capture pays out of the frozen part', () => {
    const start = book(account(1n, 100n), account(2n, 0n));
    const held = applyEntry(start, placeHoldPostings(1n, 'USDT', 30n));
    expect(held.get(1n)).toMatchObject({ availableMinor: 70n, frozenMinor: 30n });
    const afterHold = new Map([...start, ...held]);
    const released = applyEntry(afterHold, releaseHoldPostings(1n, 'USDT', 10n));
    expect(released.get(1n)).toMatchObject({ availableMinor: 80n, frozenMinor: 20n });
    const captured = applyEntry(new Map([...afterHold, ...released]), captureHoldPostings(1n, 2n, 'USDT', 20n));
    expect(captured.get(1n)).toMatchObject({ availableMinor: 80n, frozenMinor: 0n });
    expect(captured.get(2n)).toMatchObject({ availableMinor: 20n });
  });

  it('frozen money cannot be spent twice, even by a platform account', () => {
    const start = book(account(1n, 0n, { frozenMinor: 5n, allowNegative: true }), account(2n, 0n));
    expect(problemOf(() => applyEntry(start, captureHoldPostings(1n, 2n, 'USDT', 6n)))).toMatchObject({
      kind: 'insufficient_balance',
      bucket: 'frozen',
      shortMinor: 1n,
    });
  });

  it('refuses unknown accounts and a posting in another asset than the account', () => {
    expect(problemOf(() => applyEntry(book(account(1n, 100n)), transferPostings(1n, 2n, 'USDT', 1n)))).toEqual({
      kind: 'unknown_account',
      accountId: 2n,
    });
    expect(problemOf(() => applyEntry(book(account(1n, 100n), account(2n, 0n, { asset: 'BTC' })), transferPostings(1n, 2n, 'USDT', 1n)))).toMatchObject({
      kind: 'asset_mismatch',
      accountId: 2n,
    });
  });

  it('leaves the given balances untouched when it refuses', () => {
    const start = book(account(1n, 10n), account(2n, 0n));
    expect(() => applyEntry(start, transferPostings(1n, 2n, 'USDT', 11n))).toThrow(LedgerError);
    expect(start.get(1n)!.availableMinor).toBe(10n);
  });

  it('builders refuse non-positive amounts', () => {
    expect(() => transferPostings(1n, 2n, 'USDT', 0n)).toThrow(RangeError);
    expect(() => placeHoldPostings(1n, 'USDT', -1n)).toThrow(RangeError);
  });
});

describe('lock order', () => {
  it('is every touched account once, ascending', () => {
    expect(lockOrder([...transferPostings(9n, 2n, 'USDT', 1n), ...transferPostings(2n, 5n, 'USDT', 1n)])).toEqual([2n, 5n, 9n]);
  });
});

describe('mergePostings', () => {
  it('sums postings of one account, asset and bucket, keeps the first order, drops zero sums', () => {
    const merged = mergePostings([
      { accountId: 1n, asset: 'USDT', bucket: 'frozen', amountMinor: -99n },
      { accountId: 2n, asset: 'USDT', bucket: 'available', amountMinor: 99n },
      { accountId: 1n, asset: 'USDT', bucket: 'frozen', amountMinor: -1n },
      { accountId: 3n, asset: 'USDT', bucket: 'available', amountMinor: 1n },
      { accountId: 1n, asset: 'USDT', bucket: 'available', amountMinor: 5n },
      { accountId: 1n, asset: 'USDT', bucket: 'available', amountMinor: -5n },
    ]);
    expect(merged).toEqual([
      { accountId: 1n, asset: 'USDT', bucket: 'frozen', amountMinor: -100n },
      { accountId: 2n, asset: 'USDT', bucket: 'available', amountMinor: 99n },
      { accountId: 3n, asset: 'USDT', bucket: 'available', amountMinor: 1n },
    ]);
  });
});
