import {
  AppError,
  type InsuranceFundEntry,
  type LeverageExposure,
  type LeverageInsuranceFund,
  positionSides,
  type StaffLeveragePosition,
} from '@keel/contracts';
import { formatAmount, type LeverageProduct, MARGIN_ASSET, mulDiv, publicUserName } from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { exposureLimitMinor, LEVERAGE_FEE_LABEL } from './leverage-support.ts';
import { EVENT_COLUMNS, type EventRow, formatMarginUsdt, LIST_EVENTS, markPricesOf, type PositionRow, positionColumns, toPositionView } from './position-views.ts';

/**
 * What staff read of leveraged and futures positions (issue 16): every user's positions, the
 * house's exposure per market and side against the published limit, and the insurance fund with
 * its journal entries. Reads only: nothing here writes, and no staff input names a price, a tick,
 * a trigger, a liquidation, a PnL or a margin.
 */

interface UserColumns {
  username: string | null;
  email: string | null;
  phone: string | null;
  nickname: string | null;
}

type StaffPositionRow = PositionRow & UserColumns;

const STAFF_POSITION_COLUMNS = `${positionColumns('p')}, u.username, u.email, u.phone, u.nickname`;

function toStaffPositionView(row: StaffPositionRow, events: readonly EventRow[]): StaffLeveragePosition {
  return {
    ...toPositionView(row, events),
    userId: row.user_id.toString(),
    // Staff lists name users without their contacts, whoever reads them (ADR 0023).
    userName: publicUserName({ id: row.user_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
  };
}

export interface StaffPositionFilter {
  status?: 'open' | 'closed' | 'liquidated';
  product?: LeverageProduct;
  symbol?: string;
  userId?: bigint;
  page: number;
  pageSize: number;
}

/** Positions of all users, newest first, filtered; each with its last few events, and the marks of the open ones' markets. */
export async function listStaffPositions(db: Queryable, input: StaffPositionFilter) {
  const where = `($1::text IS NULL OR p.status = $1) AND ($2::text IS NULL OR p.product = $2) AND ($3::text IS NULL OR p.symbol = $3)
    AND ($4::bigint IS NULL OR p.user_id = $4)`;
  const params = [input.status ?? null, input.product ?? null, input.symbol ?? null, input.userId?.toString() ?? null];
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM leverage_positions p WHERE ${where}`, params);
  const rows = await db.query<StaffPositionRow>(
    `SELECT ${STAFF_POSITION_COLUMNS} FROM leverage_positions p JOIN users u ON u.id = p.user_id
     WHERE ${where} ORDER BY p.id DESC LIMIT $5 OFFSET $6`,
    [...params, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const events =
    rows.length === 0
      ? []
      : await db.query<EventRow>(
          `SELECT e.* FROM unnest($1::bigint[]) AS p(id)
           CROSS JOIN LATERAL (SELECT ${EVENT_COLUMNS} FROM leverage_position_events WHERE position_id = p.id ORDER BY id DESC LIMIT ${LIST_EVENTS}) e
           ORDER BY e.id`,
          [rows.map((row) => row.id.toString())],
        );
  const items = rows.map((row) => toStaffPositionView(row, events.filter((event) => event.position_id === row.id)));
  const openSymbols = [...new Set(rows.filter((row) => row.status === 'open').map((row) => row.symbol))].sort();
  return { items, total: count?.total ?? 0, page: input.page, pageSize: input.pageSize, marks: await markPricesOf(db, openSymbols) };
}

/** One position of any user with every event, and its market's mark price while it is open. */
export async function findStaffPosition(db: Queryable, positionId: bigint) {
  const [row] = await db.query<StaffPositionRow>(
    `SELECT ${STAFF_POSITION_COLUMNS} FROM leverage_positions p JOIN users u ON u.id = p.user_id WHERE p.id = $1`,
    [positionId.toString()],
  );
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  const events = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM leverage_position_events WHERE position_id = $1 ORDER BY id`, [positionId.toString()]);
  const [mark] = row.status === 'open' ? await markPricesOf(db, [row.symbol]) : [];
  return { ...toStaffPositionView(row, events), mark: mark ?? null };
}

/** exposure ÷ limit in percent with two decimals, rounded down ("12.34"). */
function usedPercent(exposureMinor: bigint, limitMinor: bigint): string {
  return formatAmount(mulDiv(exposureMinor, 10_000n, limitMinor, 'floor'), 2);
}

/**
 * The house's open exposure per market and side (what the limit is checked against), next to what
 * the open positions sum to, their count and their margin. Every configured market is listed with
 * both sides, and any other market that has had positions.
 */
export async function leverageExposure(db: Queryable, config: Config): Promise<LeverageExposure> {
  const limit = exposureLimitMinor({ config });
  const rows = await db.query<{ symbol: string; side: 'long' | 'short'; exposure: string; positions: number; notional: string; margin: string }>(
    `WITH open AS (
       SELECT symbol, side, count(*)::int AS positions, sum(entry_notional_minor) AS notional, sum(margin_minor) AS margin
       FROM leverage_positions WHERE status = 'open' GROUP BY symbol, side)
     SELECT coalesce(e.symbol, o.symbol) AS symbol, coalesce(e.side, o.side) AS side, coalesce(e.open_notional_minor, 0)::text AS exposure,
            coalesce(o.positions, 0) AS positions, coalesce(o.notional, 0)::text AS notional, coalesce(o.margin, 0)::text AS margin
     FROM leverage_exposures e FULL JOIN open o ON o.symbol = e.symbol AND o.side = e.side`,
  );
  const found = new Map(rows.map((row) => [`${row.symbol}|${row.side}`, row]));
  const symbols = [...new Set([...config.MARKET_SYMBOLS, ...rows.map((row) => row.symbol)])].sort();
  const markets = symbols.flatMap((symbol) =>
    positionSides.map((side) => {
      const row = found.get(`${symbol}|${side}`);
      const exposure = toMinor(row?.exposure ?? '0');
      return {
        symbol,
        side,
        exposure: formatMarginUsdt(exposure),
        remaining: formatMarginUsdt(limit - exposure),
        usedPercent: usedPercent(exposure, limit),
        openPositions: row?.positions ?? 0,
        openNotional: formatMarginUsdt(toMinor(row?.notional ?? '0')),
        openMargin: formatMarginUsdt(toMinor(row?.margin ?? '0')),
      };
    }),
  );
  const sum = (pick: (row: (typeof rows)[number]) => string) => rows.reduce((total, row) => total + toMinor(pick(row)), 0n);
  return {
    asset: 'USDT',
    limit: formatMarginUsdt(limit),
    markets,
    totals: {
      exposure: formatMarginUsdt(sum((row) => row.exposure)),
      openPositions: rows.reduce((total, row) => total + row.positions, 0),
      openMargin: formatMarginUsdt(sum((row) => row.margin)),
    },
  };
}

/**
 * The insurance fund: its ledger balance next to what the positions' events sum to (liquidation
 * fees in, losses beyond margins out), the leverage house and fee accounts' balances, and one page
 * of the fund's journal entries (the postings on it per entry, with the entry's reason and the
 * position it refers to), newest first. A platform account that has not been needed yet reads 0.
 */
export async function leverageInsuranceFund(db: Queryable, input: { page: number; pageSize: number }): Promise<LeverageInsuranceFund> {
  const accounts = await db.query<{ id: bigint; kind: string; available_minor: string }>(
    `SELECT id, kind, available_minor::text AS available_minor FROM ledger_accounts
     WHERE user_id IS NULL AND asset = $1
       AND ((kind = 'insurance_fund' AND label = '') OR (kind = 'leverage_house' AND label = '') OR (kind = 'fees' AND label = $2))`,
    [MARGIN_ASSET, LEVERAGE_FEE_LABEL],
  );
  const account = (kind: string) => accounts.find((row) => row.kind === kind);
  const balance = (kind: string) => toMinor(account(kind)?.available_minor ?? '0');
  const [sums] = await db.query<{ received: string; paid: string; liquidations: number }>(
    `SELECT coalesce(sum(insurance_minor) FILTER (WHERE insurance_minor > 0), 0)::text AS received,
            coalesce(-sum(insurance_minor) FILTER (WHERE insurance_minor < 0), 0)::text AS paid,
            count(*) FILTER (WHERE kind = 'liquidation')::int AS liquidations
     FROM leverage_position_events`,
  );
  const received = toMinor(sums!.received);
  const paid = toMinor(sums!.paid);

  const fund = account('insurance_fund');
  let items: InsuranceFundEntry[] = [];
  let total = 0;
  if (fund) {
    const [count] = await db.query<{ total: number }>('SELECT count(DISTINCT entry_id)::int AS total FROM postings WHERE account_id = $1', [fund.id.toString()]);
    total = count?.total ?? 0;
    const rows = await db.query<{ entry_id: bigint; reason: string; reference_type: string | null; reference_id: string | null; created_at: Date; amount: string }>(
      `SELECT e.id AS entry_id, e.reason, e.reference_type, e.reference_id, e.created_at, f.amount
       FROM (SELECT entry_id, sum(amount_minor)::text AS amount FROM postings WHERE account_id = $1
             GROUP BY entry_id ORDER BY entry_id DESC LIMIT $2 OFFSET $3) f
       JOIN journal_entries e ON e.id = f.entry_id
       ORDER BY e.id DESC`,
      [fund.id.toString(), input.pageSize, (input.page - 1) * input.pageSize],
    );
    // The positions the entries refer to, by id (a reference id is text: only a whole number can name one).
    const positionIds = rows
      .filter((row) => row.reference_type === 'leverage_position' && /^[1-9]\d{0,18}$/.test(row.reference_id ?? ''))
      .map((row) => row.reference_id!);
    const positions =
      positionIds.length === 0
        ? []
        : await db.query<{ id: bigint; position_no: string }>('SELECT id, position_no FROM leverage_positions WHERE id = ANY($1::bigint[])', [positionIds]);
    const positionNo = new Map(positions.map((row) => [row.id.toString(), row.position_no]));
    items = rows.map((row) => ({
      entryId: row.entry_id.toString(),
      reason: row.reason,
      referenceType: row.reference_type,
      referenceId: row.reference_id,
      positionNo: row.reference_type === 'leverage_position' ? (positionNo.get(row.reference_id ?? '') ?? null) : null,
      amount: formatMarginUsdt(toMinor(row.amount)),
      createdAt: row.created_at.toISOString(),
    }));
  }

  return {
    asset: 'USDT',
    insuranceFund: {
      balance: formatMarginUsdt(balance('insurance_fund')),
      received: formatMarginUsdt(received),
      paid: formatMarginUsdt(paid),
      fromEvents: formatMarginUsdt(received - paid),
      liquidations: sums!.liquidations,
    },
    house: { balance: formatMarginUsdt(balance('leverage_house')) },
    fees: { balance: formatMarginUsdt(balance('fees')) },
    entries: { items, total, page: input.page, pageSize: input.pageSize },
  };
}
