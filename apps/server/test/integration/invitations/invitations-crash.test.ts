import { afterAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { seedInvitations } from '../../helpers/invite-seed.ts';
import { testDbKind } from '../../helpers/test-db.ts';

// Issue 20, "invite rewards paid once per day after a restart mid-run": 300 invitees of 20 inviters,
// each paying a swap fee on each of the last three complete UTC days, and a reward job that was down
// for all three. A reward process credits them in batches of 50 invitees and dies by SIGKILL inside
// the third batch's transaction (test/helpers/invite-reward-crash.ts): two batches committed, the
// third lost. Then the real server starts on the same database and must credit every (invitee, day)
// exactly once — one day row and one keyed entry each, the day it belongs to — and the ledger check
// must pass. PGlite (a data folder the process owns) and PostgreSQL (a fresh schema).

const INVITERS = 20;
const PER_INVITER = 15;
const INVITEES = INVITERS * PER_INVITER;
const DAYS = 3;
const FEE = 1_000_000n; // 1 USDT a day each: 0.2 USDT reward.
const CREDITED_LINE = 'invitations: rewards credited';
const DAY = 86_400_000;
const world = crashWorld('invite-crash');

afterAll(() => world.dispose());

const settledDays = async (db: Awaited<ReturnType<typeof world.openDb>>) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM invite_reward_days'))[0]!.n;

describe('a crash in the middle of a reward run', () => {
  it('credits each (invitee, day) exactly once after SIGKILL and a restart', { timeout: 240_000 }, async () => {
    const nowMs = Date.now();
    const todayStart = Math.floor(nowMs / DAY) * DAY;
    // Registered four days ago (a 365-day period), a fee at noon on each of the last three complete days.
    const registeredAtMs = todayStart - 4 * DAY + 6 * 3_600_000;
    const feeTimesMs = [3, 2, 1].map((back) => todayStart - back * DAY + 12 * 3_600_000);

    const setupDb = await world.openDb();
    await migrate(setupDb);
    const { inviterIds } = await seedInvitations(setupDb, { inviters: INVITERS, perInviter: PER_INVITER, registeredAtMs, feeTimesMs, feeMinor: FEE, sharePercent: 20, periodDays: 365 });
    expect((await checkLedger(setupDb)).problems).toEqual([]);
    await setupDb.close();

    const crashing = world.spawnScript('apps/server/test/helpers/invite-reward-crash.ts');
    await whenExited(crashing.child);
    expect(crashing.child.signalCode, crashing.output.join('')).toBe('SIGKILL');
    expect(crashing.output.join('')).toContain('killing myself inside the third batch');

    // Killed mid-run: two batches of 50 invitees credited their three days, the third's writes lost.
    const midway = await world.openDb();
    expect(await settledDays(midway)).toBe(100 * DAYS);
    expect((await midway.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal_entries WHERE reason = 'invite.reward'`))[0]!.n).toBe(100 * DAYS);
    expect((await checkLedger(midway)).problems).toEqual([]);
    await midway.close();

    const server = await world.startServer({ INVITE_REWARD_INTERVAL_MS: '1000' }, CREDITED_LINE);
    const doneBy = Date.now() + 120_000;
    if (testDbKind === 'postgres') {
      const watch = await world.openDb();
      try {
        while ((await settledDays(watch)) !== INVITEES * DAYS) {
          if (Date.now() > doneBy) throw new Error(`rewards still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
          await sleep(250);
        }
      } finally {
        await watch.close();
      }
    } else {
      // PGlite has one owner: count what the server reports crediting.
      const creditedSoFar = () =>
        server.output
          .join('')
          .split('\n')
          .filter((line) => line.includes(CREDITED_LINE))
          .reduce((sum, line) => sum + (JSON.parse(line) as { days: number }).days, 0);
      while (creditedSoFar() < (INVITEES - 100) * DAYS) {
        if (Date.now() > doneBy) throw new Error(`rewards still due 120 s after the restart:\n${server.output.join('').slice(-3000)}`);
        await sleep(250);
      }
    }
    server.child.kill('SIGTERM');
    await whenExited(server.child);

    const db = await world.openDb();
    try {
      // One day row and one keyed entry per (invitee, day), on the day the fee was paid.
      const days = await db.query<{ day: string; n: number }>('SELECT day::text AS day, count(*)::int AS n FROM invite_reward_days GROUP BY day ORDER BY day');
      expect(days).toEqual(feeTimesMs.map((ms) => ({ day: new Date(ms).toISOString().slice(0, 10), n: INVITEES })));
      const entries = await db.query<{ n: number; keyed: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keyed FROM journal_entries WHERE reason = 'invite.reward'`,
      );
      expect(entries).toEqual([{ n: INVITEES * DAYS, keyed: INVITEES * DAYS }]);
      // Each inviter: 15 invitees × 3 days × 0.2 USDT = 9 USDT, and one message per day.
      const balances = await db.query<{ user_id: bigint; available: string }>(
        `SELECT user_id, available_minor::text AS available FROM ledger_accounts WHERE kind = 'coin' AND asset = 'USDT' AND user_id = ANY($1::bigint[]) ORDER BY user_id`,
        [inviterIds.map(String)],
      );
      expect(balances.map((row) => row.available)).toEqual(inviterIds.map(() => String(BigInt(PER_INVITER * DAYS) * ((FEE * 20n) / 100n))));
      const messages = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE user_id = ANY($1::bigint[]) GROUP BY user_id', [inviterIds.map(String)]);
      expect(messages.map((row) => row.n)).toEqual(inviterIds.map(() => DAYS));
      // Nothing left to settle but today.
      const [next] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM invitations WHERE next_day <> $1::date`, [new Date(todayStart).toISOString().slice(0, 10)]);
      expect(next!.n).toBe(0);
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
