import { DEFAULT_VIP_LEVELS, levelByRule, vipDayOf } from '@keel/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { VIP_LEVELS_LINE } from '../../../src/use-cases/vip/vip-levels.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { testDbKind } from '../../helpers/test-db.ts';
import { fund } from '../../helpers/wallet.ts';

// Issue 20, "the daily level job must be durable": 350 users whose level for today was never
// computed (the job was down). A level process computes them in batches of 100 and dies by SIGKILL
// inside the third batch's transaction (test/helpers/vip-levels-crash.ts): two batches committed,
// the third lost. Then the real server starts on the same database and must catch up: every user
// gets exactly one run row for today — never two for one (user, day) — and the level of the
// published rule. PGlite (a data folder the process owns) and PostgreSQL (a fresh schema).

const TOTAL = 350;
const world = crashWorld('vip-crash');
afterAll(() => world.dispose());

/** User i holds (i mod 5) × 15,000 USDT: levels 0, 1, 1, 1 and 2 by the balance rule. */
const holdingOf = (index: number) => (index % 5) * 15_000;

describe('a crash in the middle of the daily VIP level run', () => {
  it('computes each (user, day) exactly once after SIGKILL and a restart', { timeout: 240_000 }, async () => {
    const setupDb = await world.openDb();
    await migrate(setupDb);
    const values = Array.from({ length: TOTAL }, (_, i) => `('vipcrash${String(i).padStart(4, '0')}', 'x', 'VIPC${String(i).padStart(5, '0')}')`);
    const users = await setupDb.query<{ id: bigint; username: string }>(
      `INSERT INTO users (username, password_hash, invite_code) VALUES ${values.join(', ')} RETURNING id, username`,
    );
    const expected = new Map<string, number>();
    for (const user of users) {
      const index = Number(user.username.slice('vipcrash'.length));
      const holding = holdingOf(index);
      if (holding > 0) await fund(setupDb, user.id.toString(), 'USDT', String(holding));
      expected.set(user.id.toString(), levelByRule({ volume30dUsdtMinor: 0n, balanceUsdtMinor: BigInt(holding) * 1_000_000n }, DEFAULT_VIP_LEVELS));
    }
    expect(new Set(expected.values())).toEqual(new Set([0, 1, 2]));
    await setupDb.close();

    const crashing = world.spawnScript('apps/server/test/helpers/vip-levels-crash.ts');
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toContain('killing myself inside the third batch');

    // Killed mid-run: two batches of 100 computed, the third's writes lost (runs and levels alike).
    const midway = await world.openDb();
    expect(await midway.query('SELECT count(*)::int AS n FROM vip_level_runs')).toEqual([{ n: 200 }]);
    expect(await midway.query('SELECT count(*)::int AS n FROM vip_levels')).toEqual([{ n: 200 }]);
    await midway.close();

    const server = await world.startServer({ VIP_LEVEL_INTERVAL_MS: '200' }, VIP_LEVELS_LINE);
    const doneBy = Date.now() + 120_000;
    if (testDbKind === 'postgres') {
      const watch = await world.openDb();
      try {
        for (;;) {
          const [row] = await watch.query<{ n: number }>('SELECT count(*)::int AS n FROM vip_level_runs');
          if (row!.n >= TOTAL) break;
          if (Date.now() > doneBy) throw new Error(`levels still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
          await sleep(250);
        }
      } finally {
        await watch.close();
      }
    } else {
      const computedSoFar = () =>
        server.output
          .join('')
          .split('\n')
          .filter((line) => line.includes(VIP_LEVELS_LINE))
          .reduce((sum, line) => sum + (JSON.parse(line) as { users: number }).users, 0);
      while (computedSoFar() < TOTAL - 200) {
        if (Date.now() > doneBy) throw new Error(`levels still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
        await sleep(250);
      }
      // A few more passes: none may compute anyone again today.
      await sleep(1_000);
      expect(computedSoFar()).toBe(TOTAL - 200);
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);

    const db = await world.openDb();
    try {
      const day = vipDayOf(Date.now());
      const runs = await db.query<{ user_id: bigint; day: string; n: number; level: number }>(
        `SELECT user_id, to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS n, max(level) AS level FROM vip_level_runs GROUP BY user_id, day`,
      );
      expect(runs).toHaveLength(TOTAL);
      expect(runs.every((run) => run.n === 1 && run.day === day)).toBe(true);
      const levels = await db.query<{ user_id: bigint; level: number; source: string }>('SELECT user_id, level, source FROM vip_levels');
      expect(levels).toHaveLength(TOTAL);
      for (const row of levels) {
        expect(row.source).toBe('rule');
        expect(row.level, `user ${row.user_id}`).toBe(expected.get(row.user_id.toString()));
      }
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
