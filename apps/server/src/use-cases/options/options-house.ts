import type { OptionsHouse } from '@keel/contracts';
import { OPTIONS_ASSET } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { formatUsdt } from './option-views.ts';

const DAY_MS = 86_400_000;

/**
 * The house's running result on contracts, for staff. The balance is the options house ledger
 * account (only settlement entries touch it); the totals are summed from the settled orders, so
 * staff can see the two agree. Reads only.
 */
export async function optionsHouse(db: Queryable, nowMs: number): Promise<OptionsHouse> {
  const [account] = await db.query<{ available_minor: string }>(
    `SELECT available_minor::text AS available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'options_house' AND label = '' AND asset = $1`,
    [OPTIONS_ASSET],
  );
  const [settled] = await db.query<{
    count: number;
    won: number;
    lost: number;
    flat: number;
    void: number;
    staked: string;
    paid: string;
    taken: string;
  }>(
    `SELECT count(*)::int AS count,
            count(*) FILTER (WHERE status = 'won')::int AS won,
            count(*) FILTER (WHERE status = 'lost')::int AS lost,
            count(*) FILTER (WHERE status = 'flat')::int AS flat,
            count(*) FILTER (WHERE status = 'void')::int AS void,
            COALESCE(sum(stake_minor), 0)::text AS staked,
            COALESCE(sum(profit_minor) FILTER (WHERE status = 'won'), 0)::text AS paid,
            COALESCE(-sum(profit_minor) FILTER (WHERE status = 'lost'), 0)::text AS taken
     FROM option_orders WHERE status <> 'open'`,
  );
  const [open] = await db.query<{ count: number; staked: string; max_payout: string }>(
    `SELECT count(*)::int AS count, COALESCE(sum(stake_minor), 0)::text AS staked, COALESCE(sum(expected_profit_minor), 0)::text AS max_payout
     FROM option_orders WHERE status = 'open'`,
  );
  const days = await db.query<{ day: string; count: number; house_result: string }>(
    `SELECT to_char(to_timestamp(settled_at_ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count,
            (-sum(profit_minor))::text AS house_result
     FROM option_orders WHERE status <> 'open' AND settled_at_ms >= $1
     GROUP BY 1 ORDER BY 1 DESC`,
    [Math.floor(nowMs / DAY_MS) * DAY_MS - 29 * DAY_MS],
  );
  const paid = toMinor(settled!.paid);
  const taken = toMinor(settled!.taken);
  return {
    asset: 'USDT',
    houseBalance: formatUsdt(account ? toMinor(account.available_minor) : 0n),
    settled: {
      count: settled!.count,
      won: settled!.won,
      lost: settled!.lost,
      flat: settled!.flat,
      void: settled!.void,
      staked: formatUsdt(toMinor(settled!.staked)),
      paidToWinners: formatUsdt(paid),
      takenFromLosers: formatUsdt(taken),
      houseResult: formatUsdt(taken - paid),
    },
    open: { count: open!.count, staked: formatUsdt(toMinor(open!.staked)), maxPayout: formatUsdt(toMinor(open!.max_payout)) },
    byDay: days.map((row) => ({ day: row.day, count: row.count, houseResult: formatUsdt(toMinor(row.house_result)) })),
  };
}
