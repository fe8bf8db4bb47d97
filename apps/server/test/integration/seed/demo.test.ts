import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { seedDemoData } from '../../../src/seed/demo.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

describe('demo data', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.dispose());

  it('creates the first staff and a demo user funded by labelled treasury entries, once', async () => {
    const first = await seedDemoData(t.db, new Date('2026-11-22T00:00:00Z'));
    expect(first.staff?.username).toBe('admin');
    expect(first.staff?.password.length).toBeGreaterThanOrEqual(12);
    expect(first.demoUser?.username).toBe('demo01');
    const entries = await t.db.query<{ reason: string; memo: string }>('SELECT reason, memo FROM journal_entries ORDER BY id');
    // Three demo balances, the demo earn products' yield put aside in the earn treasury (ADR 0035)
    // and money to lend in the lending treasury (ADR 0036).
    expect(entries.map((e) => e.reason)).toEqual(['demo.fund', 'demo.fund', 'demo.fund', 'earn.fund', 'loan.fund']);
    expect(entries.every((e) => e.memo.includes('not real money'))).toBe(true);
    const products = await t.db.query<{ kind: string; daily_rate_ppm: number; cycle_days: number }>('SELECT kind, daily_rate_ppm, cycle_days FROM earn_products ORDER BY id');
    expect(products).toEqual([
      { kind: 'lockup', daily_rate_ppm: 3_000, cycle_days: 5 },
      { kind: 'financial', daily_rate_ppm: 500, cycle_days: 30 },
    ]);
    const loanProducts = await t.db.query<{ cycle_days: number; daily_rate_ppm: number }>('SELECT cycle_days, daily_rate_ppm FROM loan_products ORDER BY id');
    expect(loanProducts).toEqual([
      { cycle_days: 7, daily_rate_ppm: 800 },
      { cycle_days: 30, daily_rate_ppm: 1_000 },
    ]);
    const [usdt] = await t.db.query<{ available_minor: string }>(
      `SELECT a.available_minor FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE u.username = 'demo01' AND a.kind = 'coin' AND a.asset = 'USDT'`,
    );
    expect(usdt!.available_minor).toBe('10000000000');
    expect((await checkLedger(t.db)).ok).toBe(true);
    // A second start changes nothing and prints no password.
    expect(await seedDemoData(t.db, new Date())).toEqual({});
    expect(await t.db.query('SELECT 1 FROM journal_entries')).toHaveLength(5);
  });
});
