import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, call, coinBalance, fund, walletUser } from '../../helpers/wallet.ts';

// Issue 5, "must show": 1,000 concurrent withdrawal requests that each ask for the whole balance.
// Exactly one is accepted and the ledger check passes. On PostgreSQL the requests really run side
// by side on a pool of connections (the user's row lock serialises them); on PGlite, one session,
// they interleave between statements.

const REQUESTS = 1_000;

let t: TestApp;
beforeAll(async () => {
  // The daily count is not the rule under test here: raise it out of the way.
  t = await createTestApp({ WITHDRAWAL_DAILY_COUNT: '1000', WALLET_TWO_PERSON_ABOVE_USDT: '1000000' });
});
afterAll(() => t.close());

describe('withdrawal race', () => {
  it(`${REQUESTS} concurrent requests for the whole balance: exactly one is held`, async () => {
    const user = await walletUser(t.app, t.db, 'racer00001', { ready: true });
    await fund(t.db, user.userId, 'USDT', '1001');
    const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });

    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, index) =>
        call(
          t.app,
          'POST',
          '/home/wallet/withdrawals',
          user.token,
          { channel: 'USDT-TRC20', addressId, amount: '1000', paymentPassword: '135790' },
          `race-${index.toString().padStart(6, '0')}`,
        ),
      ),
    );
    const accepted = answers.filter((answer) => answer.code === 200);
    const refusals = new Map<string, number>();
    for (const answer of answers) if (answer.code !== 200) refusals.set(answer.msg, (refusals.get(answer.msg) ?? 0) + 1);
    expect(accepted).toHaveLength(1);
    expect(Object.fromEntries(refusals)).toEqual({ 'insufficient balance': REQUESTS - 1 });
    expect(accepted[0]!.data).toMatchObject({ status: 'pending', totalFrozen: '1001.000000' });

    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 1001_000_000n });
    const [rows] = await t.db.query<{ withdrawals: number; holds: number }>(
      `SELECT (SELECT count(*)::int FROM withdrawals WHERE user_id = $1) AS withdrawals,
              (SELECT count(*)::int FROM ledger_holds WHERE reference_type = 'withdrawal') AS holds`,
      [user.userId],
    );
    expect(rows).toEqual({ withdrawals: 1, holds: 1 });
    const ledger = await checkLedger(t.db);
    expect(ledger.problems).toEqual([]);
  });

  it('50 concurrent small requests against a daily count of 3: exactly 3 are held (the user row lock makes count and hold one step)', async () => {
    const counted = await createTestApp({ WITHDRAWAL_DAILY_COUNT: '3' });
    try {
      const user = await walletUser(counted.app, counted.db, 'racer00002', { ready: true });
      await fund(counted.db, user.userId, 'USDT', '10000');
      const addressId = await bindAddress(counted.app, counted.db, user, 'tron', { usableNow: true });
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call(counted.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '10', paymentPassword: '135790' }),
        ),
      );
      expect(answers.filter((answer) => answer.code === 200)).toHaveLength(3);
      expect(new Set(answers.filter((answer) => answer.code !== 200).map((answer) => answer.msg))).toEqual(new Set(['daily withdrawal count limit reached']));
      expect(await coinBalance(counted.db, user.userId, 'USDT')).toEqual({ availableMinor: 9967_000_000n, frozenMinor: 33_000_000n });
      expect((await checkLedger(counted.db)).problems).toEqual([]);
    } finally {
      await counted.close();
    }
  });
});
