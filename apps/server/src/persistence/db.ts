import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Something SQL can run on: the database itself or an open transaction. */
export interface Queryable {
  /**
   * `statementName` keeps the statement prepared on each PostgreSQL connection under that name, so
   * it is parsed and planned once per connection, not per call: for a hot statement whose planning
   * costs as much as running it (the ledger's one-statement batch). One name, one SQL text.
   * Embedded PGlite ignores it.
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: { statementName?: string }): Promise<Row[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** One connection abstraction over embedded PGlite and a PostgreSQL server; same SQL dialect. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8_OID = 20;

// bigint columns (ids, money) come back as JS bigint, never as a lossy number.
const parseInt8 = (text: string) => BigInt(text);

function toDriverParams(params: readonly unknown[] | undefined): unknown[] {
  return (params ?? []).map((value) => (typeof value === 'bigint' ? value.toString() : value));
}

/** The embedded database's page cache in MB unless configured (PGLITE_SHARED_BUFFERS_MB's default). */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32;

/**
 * Embedded PGlite in `dataDir` (or `memory://`). Its page cache is `sharedBuffersMb` (config
 * PGLITE_SHARED_BUFFERS_MB), not PostgreSQL's 128 MB default: it is allocated in the WebAssembly
 * memory, which never shrinks (issue 15, ADR 0031).
 */
export async function openPglite(dataDir: string, options: { sharedBuffersMb?: number } = {}): Promise<Db> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir,
    parsers: { [INT8_OID]: parseInt8 },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB}MB`],
  });
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await target.query<Row>(sql, toDriverParams(params));
      return result.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pglite),
    // PGlite is one session: its transaction() queues every other statement until it ends.
    transaction: (work) => pglite.transaction((tx) => work(wrap(tx))),
    close: () => pglite.close(),
  };
}

export async function openPostgres(connectionString: string, poolSize: number, searchPath?: string): Promise<Db> {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: types as pg.CustomTypesConfig,
    options: searchPath ? `-c search_path=${searchPath}` : undefined,
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[], options?: { statementName?: string }) {
      const values = toDriverParams(params);
      const result = options?.statementName ? await target.query({ name: options.statementName, text: sql, values }) : await target.query(sql, values);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
