/**
 * Double-entry rules, pure. A journal entry is a list of postings; each moves a signed amount into
 * (positive) or out of (negative) one bucket — available or frozen — of one ledger account. An
 * entry is valid only if its postings sum to zero per asset, so money is never created or lost.
 * A hold is itself an entry: available → frozen on one account; releasing it is frozen → available;
 * capturing it is frozen → another account.
 */

export type Bucket = 'available' | 'frozen';

export interface Posting {
  readonly accountId: bigint;
  readonly asset: string;
  readonly bucket: Bucket;
  readonly amountMinor: bigint;
}

export interface AccountBalance {
  readonly accountId: bigint;
  readonly asset: string;
  readonly availableMinor: bigint;
  readonly frozenMinor: bigint;
  /** Only platform accounts such as the treasury may go below zero. */
  readonly allowNegative: boolean;
}

export type LedgerProblem =
  | { kind: 'empty_entry' }
  | { kind: 'too_many_postings'; count: number }
  | { kind: 'zero_posting'; index: number }
  | { kind: 'unbalanced'; asset: string; sumMinor: bigint }
  | { kind: 'unknown_account'; accountId: bigint }
  | { kind: 'asset_mismatch'; accountId: bigint; accountAsset: string; postingAsset: string }
  | { kind: 'insufficient_balance'; accountId: bigint; bucket: Bucket; shortMinor: bigint };

export class LedgerError extends Error {
  readonly problem: LedgerProblem;
  constructor(problem: LedgerProblem) {
    super(`ledger refused the entry: ${problem.kind}`);
    this.name = 'LedgerError';
    this.problem = problem;
  }
}

/** A bound on every entry (TIGER_STYLE: put a limit on everything). */
export const MAX_POSTINGS_PER_ENTRY = 64;

/** Checks an entry's shape: non-empty, bounded, no zero postings, zero sum per asset. */
export function validateEntry(postings: readonly Posting[]): void {
  if (postings.length === 0) throw new LedgerError({ kind: 'empty_entry' });
  if (postings.length > MAX_POSTINGS_PER_ENTRY) throw new LedgerError({ kind: 'too_many_postings', count: postings.length });
  const sums = new Map<string, bigint>();
  postings.forEach((posting, index) => {
    if (posting.amountMinor === 0n) throw new LedgerError({ kind: 'zero_posting', index });
    sums.set(posting.asset, (sums.get(posting.asset) ?? 0n) + posting.amountMinor);
  });
  for (const [asset, sumMinor] of sums) {
    if (sumMinor !== 0n) throw new LedgerError({ kind: 'unbalanced', asset, sumMinor });
  }
}

/**
 * Applies a valid entry to the balances it touches and answers the new balances. Refuses, without
 * changing anything, when a posting names an unknown account or the wrong asset, or when any
 * bucket of an account that may not go negative would end below zero.
 */
export function applyEntry(
  balances: ReadonlyMap<bigint, AccountBalance>,
  postings: readonly Posting[],
): Map<bigint, AccountBalance> {
  validateEntry(postings);
  const next = new Map<bigint, AccountBalance>();
  for (const posting of postings) {
    const current = next.get(posting.accountId) ?? balances.get(posting.accountId);
    if (!current) throw new LedgerError({ kind: 'unknown_account', accountId: posting.accountId });
    if (current.asset !== posting.asset) {
      throw new LedgerError({ kind: 'asset_mismatch', accountId: posting.accountId, accountAsset: current.asset, postingAsset: posting.asset });
    }
    next.set(
      posting.accountId,
      posting.bucket === 'available'
        ? { ...current, availableMinor: current.availableMinor + posting.amountMinor }
        : { ...current, frozenMinor: current.frozenMinor + posting.amountMinor },
    );
  }
  // Checked after every posting is applied, so an entry may take and give back within itself.
  for (const balance of next.values()) {
    if (balance.frozenMinor < 0n) {
      throw new LedgerError({ kind: 'insufficient_balance', accountId: balance.accountId, bucket: 'frozen', shortMinor: -balance.frozenMinor });
    }
    if (!balance.allowNegative && balance.availableMinor < 0n) {
      throw new LedgerError({ kind: 'insufficient_balance', accountId: balance.accountId, bucket: 'available', shortMinor: -balance.availableMinor });
    }
  }
  return next;
}

function requirePositive(amountMinor: bigint) {
  if (amountMinor <= 0n) throw new RangeError('a movement needs a positive amount');
}

/** Moves available money from one account to another of the same asset. */
export function transferPostings(from: bigint, to: bigint, asset: string, amountMinor: bigint): Posting[] {
  requirePositive(amountMinor);
  return [
    { accountId: from, asset, bucket: 'available', amountMinor: -amountMinor },
    { accountId: to, asset, bucket: 'available', amountMinor },
  ];
}

/** Places a hold: available → frozen on one account. */
export function placeHoldPostings(account: bigint, asset: string, amountMinor: bigint): Posting[] {
  requirePositive(amountMinor);
  return [
    { accountId: account, asset, bucket: 'available', amountMinor: -amountMinor },
    { accountId: account, asset, bucket: 'frozen', amountMinor },
  ];
}

/** Releases a hold back to the owner: frozen → available. */
export function releaseHoldPostings(account: bigint, asset: string, amountMinor: bigint): Posting[] {
  requirePositive(amountMinor);
  return [
    { accountId: account, asset, bucket: 'frozen', amountMinor: -amountMinor },
    { accountId: account, asset, bucket: 'available', amountMinor },
  ];
}

/** Captures a hold: the frozen money leaves to another account's available balance. */
export function captureHoldPostings(account: bigint, to: bigint, asset: string, amountMinor: bigint): Posting[] {
  requirePositive(amountMinor);
  return [
    { accountId: account, asset, bucket: 'frozen', amountMinor: -amountMinor },
    { accountId: to, asset, bucket: 'available', amountMinor },
  ];
}

/** The accounts an entry touches, ascending: the one order in which every writer locks them. */
export function lockOrder(postings: readonly Posting[]): bigint[] {
  return [...new Set(postings.map((posting) => posting.accountId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * One posting per account, asset and bucket: an escrow paid out to several accounts reads as one
 * debit of the frozen part, not one per payee. Order is kept by first appearance; zero sums drop.
 */
export function mergePostings(postings: readonly Posting[]): Posting[] {
  const merged = new Map<string, Posting>();
  for (const posting of postings) {
    const key = `${posting.accountId}:${posting.asset}:${posting.bucket}`;
    const earlier = merged.get(key);
    merged.set(key, earlier ? { ...earlier, amountMinor: earlier.amountMinor + posting.amountMinor } : { ...posting });
  }
  return [...merged.values()].filter((posting) => posting.amountMinor !== 0n);
}
