import { type AccountBalance, applyEntry, lockOrder, validateEntry } from '@keel/domain';
import type { Db, Queryable } from './db.ts';
import { type EntryInput, IdempotencyConflictError, type PostedEntry, postEntry, postingsHash, toMinor } from './ledger.store.ts';

/**
 * Group commit for the ledger (ADR 0010). Callers submit ledger work concurrently; one flusher per
 * Db takes everything queued (at most `maxBatchItems`), runs it in ONE transaction and settles each
 * caller only after that transaction's COMMIT. A commit waits for the WAL flush; sharing it between
 * all transfers that arrived while the previous one ran is what buys throughput.
 *
 * - Locks: the batch first locks the union of every account its items touch, in ascending id order,
 *   with one `SELECT … ORDER BY id FOR UPDATE` (in ledger_lock_batch): the order `postEntry` uses,
 *   so batches, other batchers' batches and ordinary transactions cannot deadlock.
 * - Failure of one item: a plain entry is checked against the locked balances in memory before
 *   anything is written, so a refused one (insufficient balance, idempotency conflict) writes
 *   nothing and is refused alone; the accepted ones are written together (one call of
 *   ledger_write_batch: balances, entries, postings). A
 *   callback item (`submit`) runs in its own SAVEPOINT: if it throws, only its writes are rolled back.
 *   If the combined write itself fails (a constraint the memory check did not foresee, a key taken
 *   by a concurrent writer), the batch is rolled back and run again with every item in its own
 *   savepoint, so the failure lands on the item that caused it.
 * - One round trip for plain batches (ADR 0033): a batch made only of entries without a
 *   `beforeCommit`, each well formed and under its own idempotency key (or none), is sent as ONE
 *   statement outside any transaction (ledger_post_batch: lock, check, write, commit). The
 *   database checks it against the same rules as `applyEntry` and writes it only if every entry
 *   passes; otherwise it writes nothing and the batch runs the careful way below, where each entry
 *   gets its own answer. A statement error also sends it the careful way (a failed statement rolled
 *   back); a broken connection leaves its outcome unknown, as at COMMIT, and every caller hears so.
 * - Failure of the batch (lost connection, a failing COMMIT): every caller of the batch gets a
 *   LedgerBatchError, including those whose item was refused, since a refusal may have depended on
 *   an earlier item of the batch that never committed. Nothing is ever reported done before COMMIT.
 */

export interface BucketBalances {
  availableMinor: bigint;
  frozenMinor: bigint;
}

export interface BatchedEntry extends PostedEntry {
  /** Each account of the entry right after it, inside its batch (for a replay: as it stood then). */
  balances: ReadonlyMap<bigint, BucketBalances>;
}

export interface LedgerWork<T> {
  /**
   * Every ledger account `run` will lock or write. They are locked with the rest of the batch before
   * any item runs; an account left out is locked late, out of order, and may deadlock the batch
   * (PostgreSQL then aborts it and every caller of the batch gets a LedgerBatchError).
   */
  accountIds: readonly bigint[];
  /** Runs inside the batch transaction, in the item's own savepoint. Use only `tx`: on PGlite any other statement waits for the batch to end. */
  run: (tx: Queryable) => Promise<T>;
}

export interface PostOptions {
  /**
   * Runs inside the batch transaction right after the entry is written (or found, for a replay),
   * with what `post` will answer; whatever it writes commits with the entry. The request layer
   * commits the request's answer here (ADR 0019). Use only `tx`. If it throws, the entry is not
   * posted and `post` rejects with its error; the rest of the batch still commits (the batch is
   * then run again with each item in its own savepoint).
   */
  beforeCommit?: (tx: Queryable, posted: BatchedEntry) => Promise<void>;
}

/** The queue is at its bound: the ledger is behind, the caller should back off. Nothing was posted. */
export class LedgerQueueFullError extends Error {
  constructor(queued: number) {
    super(`ledger queue is full (${queued} items waiting)`);
    this.name = 'LedgerQueueFullError';
  }
}

/**
 * The batch transaction itself failed. `rolled_back`: nothing of the batch was committed.
 * `unknown`: the connection broke during COMMIT, so the server may or may not have committed; an
 * entry with an idempotency key can be submitted again safely to find out.
 */
export class LedgerBatchError extends Error {
  readonly outcome: 'rolled_back' | 'unknown';
  constructor(outcome: 'rolled_back' | 'unknown', cause: unknown) {
    super(`ledger batch failed (${outcome === 'rolled_back' ? 'nothing was committed' : 'commit outcome unknown'}): ${String((cause as Error)?.message ?? cause)}`, {
      cause,
    });
    this.name = 'LedgerBatchError';
    this.outcome = outcome;
  }
}

export interface LedgerBatcherOptions {
  /** Items per transaction at most (default 256): bounds the statement sizes and lock lists. */
  maxBatchItems?: number;
  /** Items waiting at most (default 10,000); beyond it `post`/`submit` refuse with LedgerQueueFullError. */
  maxQueuedItems?: number;
}

export interface LedgerBatcherStats {
  batches: number;
  items: number;
  largestBatchItems: number;
  /** Batches written by one statement (ledger_post_batch), counted in `batches` too. */
  oneStatementBatches: number;
  /** Plain batches the one statement declined (a refusal, a known key): run the careful way. */
  declinedOneStatementBatches: number;
  /** Batches whose combined write failed and were run again item by item in savepoints. */
  savepointReruns: number;
  /** Batches that failed as a whole (every caller got a LedgerBatchError). */
  failedBatches: number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface QueuedBase {
  accountIds: readonly bigint[];
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}
interface QueuedEntry extends QueuedBase {
  kind: 'entry';
  input: EntryInput;
  hash: string;
  beforeCommit?: PostOptions['beforeCommit'];
  /** No beforeCommit and a well-formed entry: may go in a one-statement batch. */
  plain: boolean;
}
interface QueuedWork extends QueuedBase {
  kind: 'work';
  work: LedgerWork<unknown>;
}
type Queued = QueuedEntry | QueuedWork;

/** The combined write of a batch failed; the batch is rolled back and run again item by item. */
class CombinedWriteFailed extends Error {
  constructor(cause: unknown) {
    super('combined ledger write failed', { cause });
  }
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

function ascending(ids: Iterable<bigint>): bigint[] {
  return [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export class LedgerBatcher {
  readonly #db: Db;
  readonly #maxBatchItems: number;
  readonly #maxQueuedItems: number;
  #queue: Queued[] = [];
  #flushing = false;
  #idleWaiters: (() => void)[] = [];
  readonly #stats: LedgerBatcherStats = {
    batches: 0,
    items: 0,
    largestBatchItems: 0,
    oneStatementBatches: 0,
    declinedOneStatementBatches: 0,
    savepointReruns: 0,
    failedBatches: 0,
  };

  constructor(db: Db, options: LedgerBatcherOptions = {}) {
    this.#db = db;
    this.#maxBatchItems = options.maxBatchItems ?? 256;
    this.#maxQueuedItems = options.maxQueuedItems ?? 10_000;
    if (this.#maxBatchItems < 1 || this.#maxQueuedItems < 1) throw new RangeError('ledger batcher bounds must be positive');
  }

  /**
   * Posts one journal entry in the next batch: the same rules and answers as `postEntry`
   * (LedgerError, IdempotencyConflictError, a replay), settled after the batch commits.
   */
  post(input: EntryInput, options: PostOptions = {}): Promise<BatchedEntry> {
    return this.#enqueue<BatchedEntry>((resolve, reject) => ({
      kind: 'entry',
      input,
      beforeCommit: options.beforeCommit,
      hash: postingsHash(input.postings),
      accountIds: lockOrder(input.postings),
      plain: !options.beforeCommit && isWellFormed(input),
      resolve,
      reject,
    }));
  }

  /** Runs `work.run` in the next batch, in its own savepoint; answers its result after the batch commits. */
  submit<T>(work: LedgerWork<T>): Promise<T> {
    return this.#enqueue<T>((resolve, reject) => ({ kind: 'work', work: work as LedgerWork<unknown>, accountIds: work.accountIds, resolve, reject }));
  }

  stats(): LedgerBatcherStats {
    return { ...this.#stats };
  }

  /** Resolves once nothing is queued or running (tests, shutdown). */
  whenIdle(): Promise<void> {
    if (!this.#flushing && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #enqueue<T>(make: (resolve: (value: T) => void, reject: (error: unknown) => void) => Queued): Promise<T> {
    if (this.#queue.length >= this.#maxQueuedItems) return Promise.reject(new LedgerQueueFullError(this.#queue.length));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(make(resolve, reject));
      if (!this.#flushing) {
        this.#flushing = true;
        // A microtask, not a timer: work submitted in the same tick shares the batch, and an idle
        // ledger starts at once.
        queueMicrotask(() => void this.#flushLoop());
      }
    });
  }

  async #flushLoop() {
    try {
      while (this.#queue.length > 0) await this.#runBatch();
    } finally {
      this.#flushing = false;
      for (const wake of this.#idleWaiters.splice(0)) wake();
    }
  }

  /** Takes the waiting items (bounded): called once the transaction is open, so whatever arrived meanwhile joins. */
  #take(): Queued[] {
    return this.#queue.splice(0, this.#maxBatchItems);
  }

  /**
   * The waiting items if they make a plain batch (ADR 0033): entries only, each plain, no
   * idempotency key twice. Taken off the queue; otherwise the queue is left as it is.
   */
  #takePlain(): QueuedEntry[] | undefined {
    const head = this.#queue.length <= this.#maxBatchItems ? this.#queue : this.#queue.slice(0, this.#maxBatchItems);
    const keys = new Set<string>();
    for (const item of head) {
      if (item.kind !== 'entry' || !item.plain) return undefined;
      const key = item.input.idempotencyKey;
      if (key !== undefined) {
        if (keys.has(key)) return undefined;
        keys.add(key);
      }
    }
    return this.#take() as QueuedEntry[];
  }

  async #runBatch() {
    const plain = this.#takePlain();
    if (plain) {
      let outcomes: Outcome[] | 'declined';
      try {
        outcomes = await postPlainBatch(this.#db, plain);
      } catch (error) {
        // The statement was its own transaction. An ERROR from the server means it rolled back, so
        // the careful way may run the batch. A broken connection, or a FATAL sent as the server
        // ends the session (it can come after the commit), leaves the outcome unknown: running the
        // batch again could post twice.
        if (rolledBackByServer(error)) outcomes = 'declined';
        else {
          this.#stats.failedBatches += 1;
          const failure = new LedgerBatchError('unknown', error);
          for (const item of plain) item.reject(failure);
          return;
        }
      }
      if (outcomes !== 'declined') {
        this.#stats.oneStatementBatches += 1;
        this.#settle(plain, outcomes);
        return;
      }
      this.#stats.declinedOneStatementBatches += 1;
      return this.#runCareful(() => plain);
    }
    // Taken once, after the first attempt's BEGIN; a rerun works on the same items.
    let items: Queued[] | undefined;
    return this.#runCareful(() => {
      items ??= this.#take();
      return items;
    });
  }

  /** The batch in one transaction, decided in TypeScript; `take` answers its items (the same on every call). */
  async #runCareful(take: () => Queued[]) {
    let outcomes: Outcome[];
    try {
      try {
        outcomes = await this.#attempt('combined', take);
      } catch (error) {
        if (!(error instanceof CombinedWriteFailed)) throw error;
        this.#stats.savepointReruns += 1;
        outcomes = await this.#attempt('savepoints', take);
      }
    } catch (error) {
      // Failing before it took anything (no connection), the batch takes the waiting items anyway
      // and fails them now, rather than spinning on them.
      const failed = take();
      this.#stats.failedBatches += 1;
      const failure = error instanceof LedgerBatchError ? error : new LedgerBatchError('rolled_back', error);
      for (const item of failed) item.reject(failure);
      return;
    }
    this.#settle(take(), outcomes);
  }

  #settle(done: readonly Queued[], outcomes: readonly Outcome[]) {
    this.#stats.batches += 1;
    this.#stats.items += done.length;
    this.#stats.largestBatchItems = Math.max(this.#stats.largestBatchItems, done.length);
    done.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value as never);
      else item.reject(outcome.error);
    });
  }

  /**
   * One transaction over the batch. Throws CombinedWriteFailed (rolled back, worth a rerun in
   * savepoints) or LedgerBatchError; otherwise answers one outcome per item, all committed.
   */
  async #attempt(mode: 'combined' | 'savepoints', take: () => Queued[]): Promise<Outcome[]> {
    let committing = false;
    try {
      return await this.#db.transaction(async (tx) => {
        const items = take();
        const entries = mode === 'combined' ? items.flatMap((item, index) => (item.kind === 'entry' ? [{ item, index }] : [])) : [];
        const keys = [...new Set(entries.flatMap(({ item }) => (item.input.idempotencyKey ? [item.input.idempotencyKey] : [])))];
        const { locked, journal } = await lockBatch(tx, ascending(items.flatMap((item) => item.accountIds)), keys);
        const outcomes: Outcome[] = new Array(items.length);
        if (entries.length > 0) await postEntriesCombined(tx, locked, journal, entries, outcomes);
        for (const [index, item] of items.entries()) {
          if (outcomes[index]) continue;
          outcomes[index] = await runInSavepoint(tx, item);
        }
        committing = true;
        return outcomes;
      });
    } catch (error) {
      if (error instanceof CombinedWriteFailed || error instanceof LedgerBatchError) throw error;
      // A server error answering COMMIT (e.g. a deferred constraint) means it rolled back; a broken
      // connection during COMMIT leaves the outcome unknown. Before COMMIT, nothing can have committed.
      const code = (error as { code?: unknown }).code;
      const answeredByServer = typeof code === 'string' && SQLSTATE.test(code);
      throw new LedgerBatchError(committing && !answeredByServer ? 'unknown' : 'rolled_back', error);
    }
  }
}

/** The server answered with an error of the statement (not of the session): its transaction rolled back. */
function rolledBackByServer(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && SQLSTATE.test(code) && severity !== 'FATAL' && severity !== 'PANIC';
}

/** Shape rules of the entry (validateEntry) hold; the batch decides the rest. */
function isWellFormed(input: EntryInput): boolean {
  try {
    validateEntry(input.postings);
    return true;
  } catch {
    return false;
  }
}

/**
 * A plain batch as one statement outside any transaction (ledger_post_batch): its own transaction,
 * answered after its COMMIT. Answers one outcome per item, or 'declined' when the database wrote
 * nothing because some entry is not plain after all (it would be refused, or its key is taken).
 */
async function postPlainBatch(db: Db, items: readonly QueuedEntry[]): Promise<Outcome[] | 'declined'> {
  const accounts = plainBatchAccounts(items);
  if (!accounts) return 'declined';
  const [row] = await db.query<{
    entry_ids: readonly (string | bigint)[] | null;
    locked_ids: readonly (string | bigint)[] | null;
    available_minors: readonly string[] | null;
    frozen_minors: readonly string[] | null;
    declined: string | null;
  }>(
    `SELECT * FROM ledger_post_batch($1::bigint[], $2::text[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[],
                                     $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[],
                                     $14::int[], $15::bigint[], $16::text[], $17::text[], $18::numeric[])`,
    [
      accounts.map((account) => account.accountId.toString()),
      accounts.map((account) => account.asset),
      accounts.map((account) => account.availableChangeMinor.toString()),
      accounts.map((account) => account.frozenChangeMinor.toString()),
      accounts.map((account) => account.availableLowMinor.toString()),
      accounts.map((account) => account.frozenLowMinor.toString()),
      ...entryColumns(items),
    ],
    { statementName: 'ledger_post_batch' },
  );
  if (!row || row.declined !== null) return 'declined';
  const entryIds = (row.entry_ids ?? []).map((id) => BigInt(id));
  if (entryIds.length !== items.length) throw new Error(`ledger_post_batch answered ${entryIds.length} ids for ${items.length} entries`);
  // The balances as locked, then each entry's postings in turn: each caller gets its accounts as
  // they stood right after its entry, as the careful way answers.
  const current = new Map<bigint, BucketBalances>();
  (row.locked_ids ?? []).forEach((id, index) => {
    current.set(BigInt(id), { availableMinor: toMinor(row.available_minors![index]!), frozenMinor: toMinor(row.frozen_minors![index]!) });
  });
  return items.map((item, index) => {
    for (const posting of item.input.postings) {
      const balance = current.get(posting.accountId)!;
      current.set(
        posting.accountId,
        posting.bucket === 'available'
          ? { ...balance, availableMinor: balance.availableMinor + posting.amountMinor }
          : { ...balance, frozenMinor: balance.frozenMinor + posting.amountMinor },
      );
    }
    const balances = new Map(item.accountIds.map((id) => [id, current.get(id)!] as const));
    return { ok: true, value: { entryId: entryIds[index]!, replayed: false, balances } satisfies BatchedEntry };
  });
}

/** What ledger_post_batch needs to know of one account of a plain batch. */
export interface PlainBatchAccount {
  accountId: bigint;
  /** The asset every posting on the account uses. */
  asset: string;
  /** Net change of each part over the whole batch. */
  availableChangeMinor: bigint;
  frozenChangeMinor: bigint;
  /**
   * The lowest each part reaches, relative to the balance before the batch, after any entry that
   * touches the account (applyEntry's checks: after each entry, on the accounts it touches; at
   * most 0). The batch passes the rules iff balance + low ≥ 0 for each part (available: unless the
   * account may go negative).
   */
  availableLowMinor: bigint;
  frozenLowMinor: bigint;
}

/**
 * The batch's accounts in ascending id order with their changes and low points; undefined when
 * one account's postings use two assets (one of them is refused: the careful way says which).
 */
export function plainBatchAccounts(items: readonly { input: EntryInput }[]): PlainBatchAccount[] | undefined {
  const byId = new Map<bigint, PlainBatchAccount>();
  for (const { input } of items) {
    const touched = new Set<PlainBatchAccount>();
    for (const posting of input.postings) {
      let account = byId.get(posting.accountId);
      if (!account) {
        account = { accountId: posting.accountId, asset: posting.asset, availableChangeMinor: 0n, frozenChangeMinor: 0n, availableLowMinor: 0n, frozenLowMinor: 0n };
        byId.set(posting.accountId, account);
      } else if (account.asset !== posting.asset) return undefined;
      if (posting.bucket === 'available') account.availableChangeMinor += posting.amountMinor;
      else account.frozenChangeMinor += posting.amountMinor;
      touched.add(account);
    }
    for (const account of touched) {
      if (account.availableChangeMinor < account.availableLowMinor) account.availableLowMinor = account.availableChangeMinor;
      if (account.frozenChangeMinor < account.frozenLowMinor) account.frozenLowMinor = account.frozenChangeMinor;
    }
  }
  return [...byId.values()].sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
}

async function runInSavepoint(tx: Queryable, item: Queued): Promise<Outcome> {
  await tx.exec('SAVEPOINT ledger_item');
  try {
    let value: unknown;
    if (item.kind === 'entry') {
      const posted = await postEntryWithBalances(tx, item.input);
      await item.beforeCommit?.(tx, posted);
      value = posted;
    } else {
      value = await item.work.run(tx);
    }
    await tx.exec('RELEASE SAVEPOINT ledger_item');
    return { ok: true, value };
  } catch (error) {
    // Only this item's writes go. If even the rollback fails the transaction is lost, and the
    // error leaves through the batch: every caller hears of it.
    await tx.exec('ROLLBACK TO SAVEPOINT ledger_item; RELEASE SAVEPOINT ledger_item');
    return { ok: false, error };
  }
}

async function postEntryWithBalances(tx: Queryable, input: EntryInput): Promise<BatchedEntry> {
  const posted = await postEntry(tx, input);
  const rows = await tx.query<{ id: bigint; available_minor: string; frozen_minor: string }>(
    'SELECT id, available_minor, frozen_minor FROM ledger_accounts WHERE id = ANY($1::bigint[])',
    [lockOrder(input.postings).map(String)],
  );
  return {
    ...posted,
    balances: new Map(rows.map((row) => [row.id, { availableMinor: toMinor(row.available_minor), frozenMinor: toMinor(row.frozen_minor) }])),
  };
}

function snapshot(current: ReadonlyMap<bigint, AccountBalance>, accountIds: readonly bigint[]): Map<bigint, BucketBalances> {
  const balances = new Map<bigint, BucketBalances>();
  for (const id of accountIds) {
    const account = current.get(id);
    if (account) balances.set(id, { availableMinor: account.availableMinor, frozenMinor: account.frozenMinor });
  }
  return balances;
}

export interface LockedBatch {
  locked: Map<bigint, AccountBalance>;
  /** Entries already in the journal under the batch's idempotency keys. */
  journal: Map<string, { id: bigint; hash: string }>;
}

/**
 * Locks the batch's accounts in ascending id order and reads its idempotency keys, in one round
 * trip (ledger_lock_batch: the key query runs after the locks are held, on a fresh snapshot).
 */
export async function lockBatch(tx: Queryable, accountIds: readonly bigint[], keys: readonly string[]): Promise<LockedBatch> {
  const rows = await tx.query<{
    id: bigint;
    asset: string | null;
    available_minor: string | null;
    frozen_minor: string | null;
    allow_negative: boolean | null;
    idempotency_key: string | null;
    postings_hash: string | null;
  }>('SELECT * FROM ledger_lock_batch($1::bigint[], $2::text[])', [accountIds.map(String), keys]);
  const locked = new Map<bigint, AccountBalance>();
  const journal = new Map<string, { id: bigint; hash: string }>();
  for (const row of rows) {
    if (row.idempotency_key !== null) journal.set(row.idempotency_key, { id: row.id, hash: row.postings_hash! });
    else {
      locked.set(row.id, {
        accountId: row.id,
        asset: row.asset!,
        availableMinor: toMinor(row.available_minor),
        frozenMinor: toMinor(row.frozen_minor),
        allowNegative: row.allow_negative!,
      });
    }
  }
  return { locked, journal };
}

/**
 * The plain entries of a batch, against the balances locked for it: each is checked in memory in
 * turn (its idempotency key against the journal and the earlier items, then the domain rules), and
 * the accepted ones are written by one call. A refused entry never wrote anything, so it needs no
 * savepoint. A duplicate on other accounts can still commit after the key was read; the unique
 * index then fails the write and the rerun in savepoints answers it as a replay. Fills `outcomes`.
 */
async function postEntriesCombined(
  tx: Queryable,
  locked: ReadonlyMap<bigint, AccountBalance>,
  journal: ReadonlyMap<string, { id: bigint; hash: string }>,
  entries: readonly { item: QueuedEntry; index: number }[],
  outcomes: Outcome[],
) {
  const current = new Map(locked);
  const accepted: { item: QueuedEntry; index: number; balances: Map<bigint, BucketBalances> }[] = [];
  // Later items under a key an earlier item of this batch posted: replays of it, answered once it has an id.
  const replaysInBatch: { index: number; of: number; balances: Map<bigint, BucketBalances> }[] = [];
  const keptInBatch = new Map<string, { hash: string; acceptedIndex: number }>();
  const changed = new Set<bigint>();

  for (const { item, index } of entries) {
    const key = item.input.idempotencyKey;
    if (key) {
      const earlier = journal.get(key) ?? keptInBatch.get(key);
      if (earlier) {
        if (earlier.hash !== item.hash) outcomes[index] = { ok: false, error: new IdempotencyConflictError(key) };
        else if ('id' in earlier) {
          outcomes[index] = { ok: true, value: { entryId: earlier.id, replayed: true, balances: snapshot(current, item.accountIds) } satisfies BatchedEntry };
        } else replaysInBatch.push({ index, of: earlier.acceptedIndex, balances: snapshot(current, item.accountIds) });
        continue;
      }
    }
    let next: Map<bigint, AccountBalance>;
    try {
      next = applyEntry(current, item.input.postings);
    } catch (error) {
      outcomes[index] = { ok: false, error };
      continue;
    }
    for (const balance of next.values()) {
      current.set(balance.accountId, balance);
      changed.add(balance.accountId);
    }
    if (key) keptInBatch.set(key, { hash: item.hash, acceptedIndex: accepted.length });
    accepted.push({ item, index, balances: snapshot(current, item.accountIds) });
  }
  if (accepted.length === 0) return runBeforeCommits(tx, entries, outcomes);

  let entryIds: bigint[];
  try {
    entryIds = await writeEntries(
      tx,
      accepted.map(({ item }) => item),
      [...changed].map((id) => current.get(id)!),
    );
  } catch (error) {
    throw new CombinedWriteFailed(error);
  }
  accepted.forEach(({ index, balances }, position) => {
    outcomes[index] = { ok: true, value: { entryId: entryIds[position]!, replayed: false, balances } satisfies BatchedEntry };
  });
  for (const { index, of, balances } of replaysInBatch) {
    outcomes[index] = { ok: true, value: { entryId: entryIds[of]!, replayed: true, balances } satisfies BatchedEntry };
  }
  await runBeforeCommits(tx, entries, outcomes);
}

/**
 * The `beforeCommit` of each posted (or replayed) entry, in the combined transaction. One that
 * throws fails the combined attempt, like a failed write: the rerun in savepoints then fails only
 * its own item.
 */
async function runBeforeCommits(tx: Queryable, entries: readonly { item: QueuedEntry; index: number }[], outcomes: Outcome[]) {
  for (const { item, index } of entries) {
    const outcome = outcomes[index];
    if (!item.beforeCommit || !outcome?.ok) continue;
    try {
      await item.beforeCommit(tx, outcome.value as BatchedEntry);
    } catch (error) {
      throw new CombinedWriteFailed(error);
    }
  }
}

/** Writes the accepted entries, their postings and the changed balances (ledger_write_batch); answers the entry ids in input order. */
/**
 * The entries of a batch as the twelve column arrays ledger_write_batch and ledger_post_batch both
 * take last, in their order: reasons, reference types and ids, idempotency keys, postings hashes,
 * memos, times; then per posting its entry's 1-based position, account, asset, bucket, amount.
 */
function entryColumns(entries: readonly { input: EntryInput; hash: string }[]): unknown[][] {
  const postingEntry: number[] = [];
  const postingAccount: string[] = [];
  const postingAsset: string[] = [];
  const postingBucket: string[] = [];
  const postingAmount: string[] = [];
  entries.forEach((entry, position) => {
    for (const posting of entry.input.postings) {
      postingEntry.push(position + 1);
      postingAccount.push(posting.accountId.toString());
      postingAsset.push(posting.asset);
      postingBucket.push(posting.bucket);
      postingAmount.push(posting.amountMinor.toString());
    }
  });
  return [
    entries.map((entry) => entry.input.reason),
    entries.map((entry) => entry.input.referenceType ?? null),
    entries.map((entry) => entry.input.referenceId ?? null),
    entries.map((entry) => entry.input.idempotencyKey ?? null),
    entries.map((entry) => entry.hash),
    entries.map((entry) => entry.input.memo ?? null),
    entries.map((entry) => entry.input.at.toISOString()),
    postingEntry,
    postingAccount,
    postingAsset,
    postingBucket,
    postingAmount,
  ];
}

/** Writes the accepted entries, their postings and the changed balances (ledger_write_batch); answers the entry ids in input order. */
export async function writeEntries(
  tx: Queryable,
  entries: readonly { input: EntryInput; hash: string }[],
  balances: readonly AccountBalance[],
): Promise<bigint[]> {
  const [row] = await tx.query<{ ids: readonly (string | bigint)[] }>(
    `SELECT ledger_write_batch($1::bigint[], $2::numeric[], $3::numeric[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                               $9::text[], $10::timestamptz[], $11::int[], $12::bigint[], $13::text[], $14::text[], $15::numeric[]) AS ids`,
    [
      balances.map((balance) => balance.accountId.toString()),
      balances.map((balance) => balance.availableMinor.toString()),
      balances.map((balance) => balance.frozenMinor.toString()),
      ...entryColumns(entries),
    ],
  );
  const ids = (row?.ids ?? []).map((id) => BigInt(id));
  if (ids.length !== entries.length) throw new Error(`ledger_write_batch answered ${ids.length} ids for ${entries.length} entries`);
  return ids;
}

const batchers = new WeakMap<Db, LedgerBatcher>();

/** The one batcher of a Db: one flusher per database, however many apps or scripts share it. */
export function ledgerBatcherFor(db: Db): LedgerBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new LedgerBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}
