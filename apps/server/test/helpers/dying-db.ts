import type { Db, Queryable } from '../../src/persistence/db.ts';

/**
 * The database a crash script runs its job on (the jobs' "survives a SIGKILL" tests): every
 * statement inside a transaction is shown to `beforeStatement` first, which kills the process at
 * the chosen point (`dieNow`: SIGKILL, so no shutdown code runs and the open transaction is lost);
 * `committed` counts the transactions that did commit, for "let two batches commit, die in the third".
 */
export function dyingDb(
  db: Db,
  beforeStatement: (sql: string, tx: Queryable, committed: number) => void | Promise<void>,
  options: { onTransactionStart?: () => void; onCommit?: (committed: number) => void } = {},
): Db {
  let committed = 0;
  const watched = (tx: Queryable): Queryable => ({
    exec: (sql) => tx.exec(sql),
    async query(sql, params, queryOptions) {
      await beforeStatement(sql.trimStart(), tx, committed);
      return tx.query(sql, params, queryOptions);
    },
  });
  return {
    ...db,
    kind: db.kind,
    close: () => db.close(),
    query: (...args) => db.query(...args),
    exec: (sql) => db.exec(sql),
    transaction: async (work) => {
      options.onTransactionStart?.();
      const result = await db.transaction((tx) => work(watched(tx)));
      committed += 1;
      options.onCommit?.(committed);
      return result;
    },
  };
}

/** Kills this process at once, as a power cut would: nothing after this line runs. */
export function dieNow(reason: string): never {
  console.log(reason);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: the process was killed');
}
