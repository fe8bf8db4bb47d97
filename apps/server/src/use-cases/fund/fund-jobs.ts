import { formatAmount, LedgerError, liquidationPlan, LOAN_ASSET, LOAN_ASSET_SCALE, type Posting, proRataSplit, releaseSchedule } from '@keel/domain';
import { startPeriodicPass } from '../../jobs/periodic-pass.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { assetScales } from '../assets/account-balances.ts';
import { conversionTreasuryAccount, latestCollateralPrice } from '../loans/loans-support.ts';
import { tellRequestDefaulted, tellRequestRefunded, tellRequestRepaid, tellTrancheReleased } from './fund-messages.ts';
import { fundEscrowAccount } from './fund-support.ts';
import { type FundRequestRow, REQUEST_COLUMNS, REQUEST_FROM, totalDueOf } from './fund-views.ts';
import { pledgeReturnPostings } from './publish-request.ts';

/** How often each node looks for windows ended, tranches due and terms reached. */
export const FUND_SWEEP_INTERVAL_MS = 5_000;
/** Requests settled per transaction at most. */
export const FUND_REQUESTS_PER_BATCH = 20;

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

export interface FundOutcome {
  requestId: bigint;
  status: 'expired' | 'funded' | 'repaid' | 'defaulted';
  kind: 'refunded' | 'released' | 'repaid' | 'defaulted';
  /** Everyone it concerns: the borrower and the investors. */
  userIds: bigint[];
}

interface InvestmentRow {
  id: bigint;
  user_id: bigint;
  account_id: bigint;
  amount_minor: string;
  hold_id: bigint;
}

const investmentsOf = (tx: Queryable, requestId: bigint, status: 'held' | 'invested') =>
  tx.query<InvestmentRow>(
    'SELECT id, user_id, account_id, amount_minor::text AS amount_minor, hold_id FROM fund_investments WHERE request_id = $1 AND status = $2 ORDER BY id',
    [requestId, status],
  );

/** Claims up to a batch of requests `where` (on `r`), oldest `order` first, FOR UPDATE SKIP LOCKED, and works each in the same transaction. */
async function inBatches(
  deps: Pick<Deps, 'db' | 'now'>,
  where: string,
  order: string,
  work: (tx: Queryable, row: FundRequestRow, nowMs: number) => Promise<FundOutcome | null>,
): Promise<FundOutcome[]> {
  const outcomes: FundOutcome[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const nowMs = deps.now().getTime();
      const rows = await tx.query<FundRequestRow>(
        `SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE ${where} ORDER BY ${order} LIMIT $2 FOR UPDATE OF r SKIP LOCKED`,
        [nowMs, FUND_REQUESTS_PER_BATCH],
      );
      const done: FundOutcome[] = [];
      for (const row of rows) {
        const outcome = await work(tx, row, nowMs);
        if (outcome) done.push(outcome);
      }
      return { claimed: rows.length, done };
    });
    outcomes.push(...batch.done);
    if (batch.claimed < FUND_REQUESTS_PER_BATCH || batch.done.length === 0) return outcomes;
  }
}

/**
 * A request whose window ended unfilled: every held investment and the borrower's pledge return,
 * in one entry keyed by the request's close — so it can happen once.
 */
async function refundRequest(tx: Queryable, row: FundRequestRow, nowMs: number): Promise<FundOutcome> {
  const at = new Date(nowMs);
  const investments = await investmentsOf(tx, row.id, 'held');
  const postings: Posting[] = [...pledgeReturnPostings(row)];
  for (const each of investments) {
    const amount = toMinor(each.amount_minor);
    postings.push(
      { accountId: each.account_id, asset: LOAN_ASSET, bucket: 'frozen', amountMinor: -amount },
      { accountId: each.account_id, asset: LOAN_ASSET, bucket: 'available', amountMinor: amount },
    );
  }
  const entry = await postEntry(tx, {
    reason: 'fund.refund',
    referenceType: 'fund_request',
    referenceId: row.id.toString(),
    idempotencyKey: `fund.close:${row.id}`,
    memo: `${row.request_no} not filled within its window: ${investments.length} investments and the collateral returned`,
    postings,
    at,
  });
  await tx.query(`UPDATE ledger_holds SET status = 'released', closed_entry_id = $2, closed_at = $3 WHERE id = ANY($1::bigint[])`, [
    [row.hold_id, ...investments.map((each) => each.hold_id)].map(String),
    entry.entryId,
    at,
  ]);
  await tx.query(`UPDATE fund_investments SET status = 'refunded', paid_minor = amount_minor, paid_entry_id = $2 WHERE request_id = $1 AND status = 'held'`, [
    row.id,
    entry.entryId,
  ]);
  await tx.query(`UPDATE fund_requests SET status = 'expired', closed_at_ms = $2, close_entry_id = $3, paid_out_minor = raised_minor WHERE id = $1`, [
    row.id,
    nowMs,
    entry.entryId,
  ]);
  await tellRequestRefunded(tx, row, investments.map((each) => ({ userId: each.user_id, amountMinor: toMinor(each.amount_minor) })), at);
  return { requestId: row.id, status: 'expired', kind: 'refunded', userIds: [row.user_id, ...investments.map((each) => each.user_id)] };
}

/** Every tranche of a funded request that has come due and is not released, from the escrow to the borrower, one keyed entry and row each. */
async function releaseDueTranches(tx: Queryable, row: FundRequestRow, nowMs: number): Promise<FundOutcome | null> {
  const at = new Date(nowMs);
  const schedule = releaseSchedule(toMinor(row.amount_minor), row.tranches, row.release_period_days, Number(row.filled_at_ms));
  const due = schedule.filter((tranche) => tranche.number > row.released_tranches && tranche.releaseAtMs <= nowMs);
  if (due.length === 0) return null;
  const escrow = await fundEscrowAccount(tx);
  const coin = await ensureUserAccount(tx, row.user_id, 'coin', LOAN_ASSET);
  let releasedMinor = toMinor(row.released_minor);
  for (const tranche of due) {
    const entry = await postEntry(tx, {
      reason: 'fund.release',
      referenceType: 'fund_request',
      referenceId: row.id.toString(),
      idempotencyKey: `fund.release:${row.id}:${tranche.number}`,
      memo: `${row.request_no} tranche ${tranche.number} of ${row.tranches} released to the borrower`,
      postings: [
        { accountId: escrow, asset: LOAN_ASSET, bucket: 'available', amountMinor: -tranche.amountMinor },
        { accountId: coin, asset: LOAN_ASSET, bucket: 'available', amountMinor: tranche.amountMinor },
      ],
      at,
    });
    await tx.query('INSERT INTO fund_releases (request_id, tranche, amount_minor, due_at_ms, released_at_ms, entry_id) VALUES ($1, $2, $3, $4, $5, $6)', [
      row.id,
      tranche.number,
      tranche.amountMinor.toString(),
      tranche.releaseAtMs,
      nowMs,
      entry.entryId,
    ]);
    await tellTrancheReleased(tx, row, tranche, at);
    releasedMinor += tranche.amountMinor;
  }
  const last = due.at(-1)!.number;
  const next = schedule.find((tranche) => tranche.number === last + 1);
  await tx.query('UPDATE fund_requests SET released_tranches = $2, released_minor = $3, next_release_at_ms = $4 WHERE id = $1', [
    row.id,
    last,
    releasedMinor.toString(),
    next?.releaseAtMs ?? null,
  ]);
  return { requestId: row.id, status: 'funded', kind: 'released', userIds: [row.user_id] };
}

/**
 * A funded request at its term (every tranche released): the total due is taken from the
 * borrower's coin account and paid to every investor pro rata (the remainder to the last), the
 * pledge returned — one entry. If the coin account holds less, the request defaults: the least
 * collateral that covers the total due is sold at the latest recorded price (rounded up to the
 * asset's smallest unit), its proceeds paid out pro rata the same way, the rest returned; collateral
 * worth less is sold whole and the shortfall is the investors' loss, pro rata. Keyed by the
 * request's close: once. A default waits for a recent recorded price.
 */
async function settleRequest(deps: Pick<Deps, 'market' | 'config'>, tx: Queryable, row: FundRequestRow, nowMs: number, scale: number): Promise<FundOutcome | null> {
  const at = new Date(nowMs);
  const totalDueMinor = totalDueOf(row);
  const investments = await investmentsOf(tx, row.id, 'invested');
  const shares = investments.map((each) => toMinor(each.amount_minor));
  const coin = await ensureUserAccount(tx, row.user_id, 'coin', LOAN_ASSET);
  const userIds = [row.user_id, ...investments.map((each) => each.user_id)];
  const payout = (totalMinor: bigint): Posting[] =>
    totalMinor === 0n
      ? []
      : proRataSplit(totalMinor, shares)
          .map((part, index) => ({ accountId: investments[index]!.account_id, asset: LOAN_ASSET, bucket: 'available' as const, amountMinor: part }))
          .filter((posting) => posting.amountMinor > 0n);
  const parts = (totalMinor: bigint) => (totalMinor === 0n ? shares.map(() => 0n) : proRataSplit(totalMinor, shares));

  // The borrower's coin account pays if its available part holds the total due (a USDT pledge
  // returned in the same entry must not pay for itself). Should it have changed since this read, the
  // ledger refuses the entry under its locks before anything is written, and the request defaults.
  const [available] = await tx.query<{ available_minor: string }>('SELECT available_minor::text AS available_minor FROM ledger_accounts WHERE id = $1', [coin]);
  if (toMinor(available!.available_minor) >= totalDueMinor) {
    try {
      const entry = await postEntry(tx, {
        reason: 'fund.repay',
        referenceType: 'fund_request',
        referenceId: row.id.toString(),
        idempotencyKey: `fund.close:${row.id}`,
        memo: `${row.request_no} repaid at term: ${usdt(totalDueMinor)} USDT to ${investments.length} investments pro rata, collateral returned`,
        postings: [{ accountId: coin, asset: LOAN_ASSET, bucket: 'available', amountMinor: -totalDueMinor }, ...payout(totalDueMinor), ...pledgeReturnPostings(row)],
        at,
      });
      await closeRequest(tx, row, investments, parts(totalDueMinor), entry.entryId, nowMs, { status: 'repaid', paidOutMinor: totalDueMinor, holdStatus: 'released' });
      await tellRequestRepaid(tx, row, sharesOf(investments, parts(totalDueMinor)), totalDueMinor, at);
      return { requestId: row.id, status: 'repaid', kind: 'repaid', userIds };
    } catch (error) {
      if (!(error instanceof LedgerError && error.problem.kind === 'insufficient_balance')) throw error;
    }
  }

  const price = latestCollateralPrice(deps, row.collateral_asset, nowMs);
  if (!price) return null;
  const collateral = toMinor(row.collateral_minor);
  const plan = liquidationPlan({ asset: row.collateral_asset, owedMinor: totalDueMinor, collateralMinor: collateral, assetScale: scale, priceMinor: price.priceMinor });
  const postings: Posting[] = [{ accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'frozen', amountMinor: -collateral }];
  if (plan.releasedMinor > 0n) postings.push({ accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'available', amountMinor: plan.releasedMinor });
  if (row.collateral_asset !== LOAN_ASSET) {
    const buyer = await conversionTreasuryAccount(tx, row.collateral_asset);
    postings.push({ accountId: buyer, asset: row.collateral_asset, bucket: 'available', amountMinor: plan.soldMinor });
    if (plan.repaidMinor > 0n) {
      const payer = await conversionTreasuryAccount(tx, LOAN_ASSET);
      postings.push({ accountId: payer, asset: LOAN_ASSET, bucket: 'available', amountMinor: -plan.repaidMinor });
    }
  }
  postings.push(...payout(plan.repaidMinor));
  const priceText = price.view.price ?? '1';
  const entry = await postEntry(tx, {
    reason: 'fund.default',
    referenceType: 'fund_request',
    referenceId: row.id.toString(),
    idempotencyKey: `fund.close:${row.id}`,
    memo: `${row.request_no} not repaid at term: ${formatAmount(plan.soldMinor, scale)} ${row.collateral_asset} sold at ${priceText}${price.tickId === null ? '' : ` (tick ${price.tickId})`}, ${usdt(plan.repaidMinor)} USDT to ${investments.length} investments pro rata`,
    postings,
    at,
  });
  await closeRequest(tx, row, investments, parts(plan.repaidMinor), entry.entryId, nowMs, {
    status: 'defaulted',
    paidOutMinor: plan.repaidMinor,
    holdStatus: 'posted',
    defaultTickId: price.tickId,
    defaultPrice: priceText,
    soldMinor: plan.soldMinor,
    shortfallMinor: plan.shortfallMinor,
  });
  await tellRequestDefaulted(tx, row, sharesOf(investments, parts(plan.repaidMinor)), { totalDueMinor, sold: formatAmount(plan.soldMinor, scale), price: priceText }, at);
  return { requestId: row.id, status: 'defaulted', kind: 'defaulted', userIds };
}

/** Each investment's part of a payout, by investor. */
const sharesOf = (investments: readonly InvestmentRow[], parts: readonly bigint[]) =>
  investments.map((each, index) => ({ userId: each.user_id, amountMinor: parts[index]! }));

async function closeRequest(
  tx: Queryable,
  row: FundRequestRow,
  investments: readonly InvestmentRow[],
  parts: readonly bigint[],
  entryId: bigint,
  nowMs: number,
  end: {
    status: 'repaid' | 'defaulted';
    paidOutMinor: bigint;
    holdStatus: 'released' | 'posted';
    defaultTickId?: bigint | null;
    defaultPrice?: string;
    soldMinor?: bigint;
    shortfallMinor?: bigint;
  },
) {
  await tx.query(
    `UPDATE fund_investments i SET paid_minor = p.paid, paid_entry_id = $2
       FROM unnest($1::bigint[], $3::numeric[]) AS p(id, paid) WHERE i.id = p.id`,
    [investments.map((each) => each.id.toString()), entryId, parts.map(String)],
  );
  await tx.query('UPDATE ledger_holds SET status = $2, closed_entry_id = $3, closed_at = $4 WHERE id = $1', [row.hold_id, end.holdStatus, entryId, new Date(nowMs)]);
  await tx.query(
    `UPDATE fund_requests SET status = $2, closed_at_ms = $3, close_entry_id = $4, paid_out_minor = $5, default_tick_id = $6, default_price = $7,
       sold_minor = $8, shortfall_minor = $9 WHERE id = $1`,
    [
      row.id,
      end.status,
      nowMs,
      entryId,
      end.paidOutMinor.toString(),
      end.defaultTickId ?? null,
      end.defaultPrice ?? null,
      end.soldMinor?.toString() ?? null,
      end.shortfallMinor?.toString() ?? null,
    ],
  );
}

export const expireUnfilledRequests = (deps: Pick<Deps, 'db' | 'now'>) =>
  inBatches(deps, `r.status = 'open' AND r.window_ends_at_ms <= $1`, 'r.window_ends_at_ms, r.id', refundRequest);

export const releaseTranches = (deps: Pick<Deps, 'db' | 'now'>) =>
  inBatches(deps, `r.status = 'funded' AND r.next_release_at_ms <= $1`, 'r.next_release_at_ms, r.id', releaseDueTranches);

export async function settleDueRequests(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config'>): Promise<FundOutcome[]> {
  const scales = await assetScales(deps.db);
  return inBatches(deps, `r.status = 'funded' AND r.due_at_ms <= $1 AND r.released_tranches = r.tranches`, 'r.due_at_ms, r.id', (tx, row, nowMs) =>
    settleRequest(deps, tx, row, nowMs, scales.get(row.collateral_asset)!),
  );
}

/** One pass: windows ended, then tranches due, then terms reached (a term waits for its last tranche). */
export async function sweepFund(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config' | 'events' | 'logger'>): Promise<FundOutcome[]> {
  const outcomes = [...(await expireUnfilledRequests(deps)), ...(await releaseTranches(deps)), ...(await settleDueRequests(deps))];
  for (const outcome of outcomes) {
    for (const userId of new Set(outcome.userIds)) {
      await publishToUser(deps, userId, { kind: 'fund.request', requestId: outcome.requestId.toString(), status: outcome.status });
      // Each of them was sent a message in the step's transaction.
      await publishToUser(deps, userId, { kind: 'message', unread: true });
    }
  }
  return outcomes;
}

/** The fund job of one node: a pass every `intervalMs`; a failed pass is logged and retried, nothing of it committed. */
export function startFundSweeps(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config' | 'events' | 'logger'>, intervalMs = FUND_SWEEP_INTERVAL_MS): { stop: () => Promise<void> } {
  return startPeriodicPass(
    async () => {
      const outcomes = await sweepFund(deps);
      if (outcomes.length > 0) {
        const count = (kind: FundOutcome['kind']) => outcomes.filter((each) => each.kind === kind).length;
        deps.logger.info({ requests: outcomes.length, refunded: count('refunded'), released: count('released'), repaid: count('repaid'), defaulted: count('defaulted') }, 'fund: swept');
      }
    },
    { intervalMs, logger: deps.logger, failure: 'fund: sweep failed' },
  );
}
