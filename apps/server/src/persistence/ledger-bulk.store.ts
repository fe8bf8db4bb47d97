import { type AccountBalance, applyEntry, lockOrder } from '@keel/domain';
import type { Queryable } from './db.ts';
import { lockBatch, writeEntries } from './ledger-batcher.ts';
import { type EntryInput, IdempotencyConflictError, postingsHash } from './ledger.store.ts';

/**
 * Posts many journal entries inside the caller's transaction, all or none, in three statements
 * whatever their number: lock the union of their accounts in ascending id order (the order every
 * writer uses) and read their idempotency keys, check every entry in memory against the locked
 * balances in turn (LedgerError / IdempotencyConflictError refuse the whole set), then write
 * balances, entries and postings with one ledger_write_batch call. For work that must commit with
 * other rows in one transaction, such as settling a thousand contracts with their status changes.
 * Entries whose key is already in the journal with the same postings are left out and answered as
 * replays (their earlier entry id); callers that key every entry can therefore run again safely.
 */
export async function postEntriesTogether(tx: Queryable, entries: readonly EntryInput[]): Promise<{ entryId: bigint; replayed: boolean }[]> {
  if (entries.length === 0) return [];
  const hashed = entries.map((input) => ({ input, hash: postingsHash(input.postings) }));
  const accountIds = [...new Set(entries.flatMap((entry) => lockOrder(entry.postings)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const keys = [...new Set(entries.flatMap((entry) => (entry.idempotencyKey ? [entry.idempotencyKey] : [])))];
  if (keys.length !== entries.filter((entry) => entry.idempotencyKey).length) throw new Error('one idempotency key used twice in one set of entries');
  const { locked, journal } = await lockBatch(tx, accountIds, keys);
  const current: Map<bigint, AccountBalance> = new Map(locked);
  const changed = new Set<bigint>();
  const answers: { entryId: bigint; replayed: boolean }[] = new Array(entries.length);
  const toWrite: { position: number; input: EntryInput; hash: string }[] = [];
  hashed.forEach(({ input, hash }, position) => {
    const earlier = input.idempotencyKey ? journal.get(input.idempotencyKey) : undefined;
    if (earlier) {
      if (earlier.hash !== hash) throw new IdempotencyConflictError(input.idempotencyKey!);
      answers[position] = { entryId: earlier.id, replayed: true };
      return;
    }
    const next = applyEntry(current, input.postings);
    for (const balance of next.values()) {
      current.set(balance.accountId, balance);
      changed.add(balance.accountId);
    }
    toWrite.push({ position, input, hash });
  });
  if (toWrite.length > 0) {
    const ids = await writeEntries(
      tx,
      toWrite,
      [...changed].map((id) => current.get(id)!),
    );
    toWrite.forEach(({ position }, index) => {
      answers[position] = { entryId: ids[index]!, replayed: false };
    });
  }
  return answers;
}
