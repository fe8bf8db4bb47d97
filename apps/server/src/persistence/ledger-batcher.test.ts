import { placeHoldPostings, releaseHoldPostings, transferPostings } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { plainBatchAccounts } from './ledger-batcher.ts';

const at = new Date('2026-11-25T00:00:00Z');
const entry = (postings: ReturnType<typeof transferPostings>) => ({ input: { reason: 'test.transfer', postings, at } });

describe('plainBatchAccounts (what ledger_post_batch checks per account)', () => {
  it('keeps the lowest point after each entry, not only the end of the batch', () => {
    // Account 7 gives 5, receives 10, gives 2: it dips to -5 after the first entry and ends at +3.
    const accounts = plainBatchAccounts([
      entry(transferPostings(7n, 9n, 'USDT', 5n)),
      entry(transferPostings(8n, 7n, 'USDT', 10n)),
      entry(transferPostings(7n, 9n, 'USDT', 2n)),
    ])!;
    expect(accounts.map((account) => account.accountId)).toEqual([7n, 8n, 9n]);
    expect(accounts[0]).toEqual({ accountId: 7n, asset: 'USDT', availableChangeMinor: 3n, frozenChangeMinor: 0n, availableLowMinor: -5n, frozenLowMinor: 0n });
    expect(accounts[1]).toMatchObject({ availableChangeMinor: -10n, availableLowMinor: -10n });
    // Only receiving: its low point is its balance before the batch.
    expect(accounts[2]).toMatchObject({ availableChangeMinor: 7n, availableLowMinor: 0n });
  });

  it('follows each part on its own: a hold moves available to frozen, a release back', () => {
    const [account] = plainBatchAccounts([entry(releaseHoldPostings(4n, 'BTC', 6n)), entry(placeHoldPostings(4n, 'BTC', 2n))])!;
    expect(account).toEqual({ accountId: 4n, asset: 'BTC', availableChangeMinor: 4n, frozenChangeMinor: -4n, availableLowMinor: 0n, frozenLowMinor: -6n });
  });

  it('checks an entry after all its postings, as applyEntry does: taking and giving back within one entry is no dip', () => {
    const [account] = plainBatchAccounts([
      entry([
        { accountId: 3n, asset: 'USDT', bucket: 'available', amountMinor: -9n },
        { accountId: 3n, asset: 'USDT', bucket: 'available', amountMinor: 9n },
      ]),
    ])!;
    expect(account).toMatchObject({ availableChangeMinor: 0n, availableLowMinor: 0n });
  });

  it('answers nothing when one account is posted in two assets (one of them is refused; the careful way says which)', () => {
    expect(plainBatchAccounts([entry(transferPostings(1n, 2n, 'USDT', 1n)), entry(transferPostings(1n, 2n, 'BTC', 1n))])).toBeUndefined();
  });
});
