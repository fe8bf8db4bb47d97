import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../persistence/db.ts';
import { assetScales } from './account-balances.ts';

/** A database that answers the asset scales and counts how often it was asked; `failFirst` refuses once. */
function countingDb(options: { failFirst?: boolean } = {}) {
  let failNext = options.failFirst ?? false;
  const db = {
    queries: 0,
    async query<Row>(sql: string): Promise<Row[]> {
      db.queries += 1;
      expect(sql).toContain('ledger_assets');
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      return [
        { code: 'USDT', scale: 6 },
        { code: 'BTC', scale: 8 },
      ] as Row[];
    },
    async exec() {},
  };
  return db satisfies Queryable;
}

describe('assetScales: reference data read once per database (issue 15)', () => {
  it('asks the database once, however many reads need the scales', async () => {
    const db = countingDb();
    const [first, second] = await Promise.all([assetScales(db), assetScales(db)]);
    const third = await assetScales(db);
    expect([...first]).toEqual([
      ['USDT', 6],
      ['BTC', 8],
    ]);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(db.queries).toBe(1);
  });

  it('keeps each database apart', async () => {
    const one = countingDb();
    const other = countingDb();
    await assetScales(one);
    await assetScales(other);
    expect([one.queries, other.queries]).toEqual([1, 1]);
  });

  it('does not keep a failed read: the next call asks again', async () => {
    const db = countingDb({ failFirst: true });
    await expect(assetScales(db)).rejects.toThrow('connection lost');
    expect((await assetScales(db)).get('USDT')).toBe(6);
    expect(db.queries).toBe(2);
  });
});
