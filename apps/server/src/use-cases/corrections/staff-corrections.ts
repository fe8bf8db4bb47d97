import { AppError, type ProposeCorrectionBody, type StaffCorrection } from '@keel/contracts';
import {
  adminCheckerRequired,
  type CorrectionHouseAccount,
  correctionPostings,
  correctionReasonProblem,
  decideCorrection,
  formatAmount,
  LedgerError,
  LOAN_ASSET,
  MARGIN_ASSET,
  parsePriceMinor,
  publicUserName,
  USDT_SCALE,
  usdtSymbolOf,
  usdtValueMinor,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, toMinor, type UserAccountKind } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { parseUserAmount } from '../amount-input.ts';
import { assetScales } from '../assets/account-balances.ts';
import { earnTreasuryAccount } from '../earn/earn-support.ts';
import { lendingTreasuryAccount } from '../loans/loans-support.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { C2C_ASSET, merchantFloatAccount } from '../c2c/c2c-support.ts';

// Staff corrections (issue 22, ADR 0039): the maker proposes, a different member checks; only the
// check posts, as one `staff.correction` entry keyed by the correction, with the decision, the
// audit entry, the user's message and (through the API) the answer in one transaction.

/** The platform account a user correction draws on or returns to: the platform's own money, so it may go negative. */
export const CORRECTIONS_LABEL = 'corrections';

/** The assets each house account holds: the lending treasury lends USDT, the insurance fund covers USDT margin. */
const HOUSE_ASSETS: Record<CorrectionHouseAccount, (asset: string) => boolean> = {
  earn_treasury: () => true,
  lending_treasury: (asset) => asset === LOAN_ASSET,
  insurance_fund: (asset) => asset === MARGIN_ASSET,
  merchant_float: (asset) => asset === C2C_ASSET,
};

function houseAccountId(tx: Queryable, house: CorrectionHouseAccount, asset: string, merchantId: bigint | null): Promise<bigint> {
  if (house === 'merchant_float') return merchantFloatAccount(tx, merchantId!);
  if (house === 'earn_treasury') return earnTreasuryAccount(tx, asset);
  if (house === 'lending_treasury') return lendingTreasuryAccount(tx);
  return ensurePlatformAccount(tx, 'insurance_fund', asset, { allowNegative: true });
}

interface CorrectionRow {
  id: bigint;
  target: 'user' | 'house';
  user_id: bigint | null;
  account_kind: StaffCorrection['account'];
  house_account: StaffCorrection['houseAccount'];
  merchant_id: bigint | null;
  merchant_name: string | null;
  asset: string;
  amount_minor: string;
  reason: string;
  reference: string | null;
  value_usdt_minor: string | null;
  admin_checker_required: boolean;
  proposed_by: bigint;
  proposed_at: Date;
  status: StaffCorrection['status'];
  decided_at: Date | null;
  decision_note: string | null;
  entry_id: bigint | null;
  proposed_by_name: string;
  decided_by_name: string | null;
  username: string | null;
  nickname: string | null;
  email: string | null;
  phone: string | null;
}

const SELECT = `SELECT c.id, c.target, c.user_id, c.account_kind, c.house_account, c.asset, c.amount_minor::text AS amount_minor, c.reason, c.reference,
    c.value_usdt_minor::text AS value_usdt_minor, c.admin_checker_required, c.proposed_by, c.proposed_at, c.status, c.decided_at, c.decision_note,
    c.entry_id, p.username AS proposed_by_name, d.username AS decided_by_name, u.username, u.nickname, u.email, u.phone,
    c.merchant_id, m.display_name AS merchant_name
  FROM staff_corrections c JOIN staff p ON p.id = c.proposed_by LEFT JOIN staff d ON d.id = c.decided_by LEFT JOIN users u ON u.id = c.user_id
    LEFT JOIN c2c_merchants m ON m.staff_id = c.merchant_id`;

function correctionView(row: CorrectionRow, scales: ReadonlyMap<string, number>): StaffCorrection {
  return {
    id: row.id.toString(),
    target: row.target,
    userId: row.user_id?.toString() ?? null,
    userName: row.user_id === null ? null : publicUserName({ id: row.user_id, username: row.username, nickname: row.nickname, email: row.email, phone: row.phone }),
    account: row.account_kind,
    houseAccount: row.house_account,
    merchantId: row.merchant_id?.toString() ?? null,
    merchantName: row.merchant_name,
    asset: row.asset as StaffCorrection['asset'],
    amount: formatAmount(toMinor(row.amount_minor), scales.get(row.asset)!),
    reason: row.reason,
    reference: row.reference,
    valueUsdt: row.value_usdt_minor === null ? null : formatAmount(toMinor(row.value_usdt_minor), USDT_SCALE),
    adminCheckerRequired: row.admin_checker_required,
    proposedBy: row.proposed_by_name,
    proposedAtMs: row.proposed_at.getTime(),
    status: row.status,
    decidedBy: row.decided_by_name,
    decidedAtMs: row.decided_at?.getTime() ?? null,
    decisionNote: row.decision_note,
    entryId: row.entry_id?.toString() ?? null,
  };
}

async function readCorrection(db: Queryable, id: bigint): Promise<StaffCorrection> {
  const [row] = await db.query<CorrectionRow>(`${SELECT} WHERE c.id = $1`, [id]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return correctionView(row, await assetScales(db));
}

const usdtMinor = (wholeUsdt: number) => BigInt(wholeUsdt) * 10n ** BigInt(USDT_SCALE);

/** The published amount above which only an admin approves, as the API shows it. */
export function adminCheckerAboveUsdt(deps: Pick<Deps, 'config'>): string {
  return formatAmount(usdtMinor(deps.config.CORRECTION_ADMIN_CHECKER_ABOVE_USDT), USDT_SCALE);
}

export async function listCorrections(
  deps: Pick<Deps, 'db' | 'config'>,
  query: { status: StaffCorrection['status']; page: number; pageSize: number; userId?: string },
) {
  const where = `WHERE c.status = $1 AND ($2::bigint IS NULL OR c.user_id = $2)`;
  const params = [query.status, query.userId ?? null];
  const order = query.status === 'pending' ? 'c.id' : 'c.id DESC';
  const rows = await deps.db.query<CorrectionRow>(`${SELECT} ${where} ORDER BY ${order} LIMIT $3 OFFSET $4`, [
    ...params,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM staff_corrections c ${where}`, params);
  const scales = await assetScales(deps.db);
  return { items: rows.map((row) => correctionView(row, scales)), total: count!.total, adminCheckerAboveUsdt: adminCheckerAboveUsdt(deps) };
}

/**
 * |amount| in USDT at the latest recorded price, or null when there is none fresh enough: then the
 * correction counts as above the published amount (only an admin approves).
 */
function valueInUsdt(deps: Pick<Deps, 'market' | 'config'>, asset: string, scale: number, amountMinor: bigint, nowMs: number): bigint | null {
  const magnitude = amountMinor < 0n ? -amountMinor : amountMinor;
  const symbol = usdtSymbolOf(asset);
  if (symbol === undefined) return magnitude;
  const tick = deps.market.latest(symbol);
  if (!tick || nowMs - tick.atMs > deps.config.MARKET_PRICE_MAX_AGE_MS) return null;
  return usdtValueMinor(magnitude, scale, parsePriceMinor(tick.price));
}

/**
 * The maker's proposal: checked now (the user exists, the house account holds that asset, the
 * amount fits the asset's scale, the reason says something), written as pending. Nothing moves.
 */
export async function proposeCorrection(
  deps: Pick<Deps, 'db' | 'now' | 'market' | 'config'>,
  staff: StaffSession,
  input: ProposeCorrectionBody & { requestId?: string },
): Promise<StaffCorrection> {
  const scales = await assetScales(deps.db);
  const scale = scales.get(input.asset)!;
  const negative = input.amount.startsWith('-');
  const amountMinor = (negative ? -1n : 1n) * parseUserAmount(negative ? input.amount.slice(1) : input.amount, scale, 'amount');
  const reasonProblem = correctionReasonProblem(input.reason);
  if (reasonProblem) throw new AppError('PARAMETER_ERROR', { field: 'reason', problem: reasonProblem });
  if (input.target === 'house' && !HOUSE_ASSETS[input.houseAccount!](input.asset)) {
    throw new AppError('PARAMETER_ERROR', { field: 'asset', problem: 'not_held_by_house_account', houseAccount: input.houseAccount });
  }
  if (input.target === 'user') {
    const [user] = await deps.db.query('SELECT 1 FROM users WHERE id = $1', [input.userId]);
    if (!user) throw new AppError('RECORD_NOT_FOUND', { field: 'userId' });
  }
  if (input.merchantId !== undefined) {
    const [merchant] = await deps.db.query('SELECT 1 FROM c2c_merchants WHERE staff_id = $1', [input.merchantId]);
    if (!merchant) throw new AppError('RECORD_NOT_FOUND', { field: 'merchantId' });
  }
  const now = deps.now();
  const valueUsdtMinor = valueInUsdt(deps, input.asset, scale, amountMinor, now.getTime());
  const needsAdmin = adminCheckerRequired(valueUsdtMinor, usdtMinor(deps.config.CORRECTION_ADMIN_CHECKER_ABOVE_USDT));
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: bigint }>(
      `INSERT INTO staff_corrections (target, user_id, account_kind, house_account, asset, amount_minor, reason, reference, value_usdt_minor,
         admin_checker_required, proposed_by, proposed_at, merchant_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        input.target,
        input.target === 'user' ? input.userId : null,
        input.target === 'user' ? input.account : null,
        input.target === 'house' ? input.houseAccount : null,
        input.asset,
        amountMinor.toString(),
        input.reason.trim(),
        input.reference || null,
        valueUsdtMinor?.toString() ?? null,
        needsAdmin,
        staff.staff.id,
        now,
        input.merchantId ?? null,
      ],
    );
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: 'correction.proposed',
      targetType: 'staff_correction',
      targetId: row!.id.toString(),
      detail: {
        target: input.target,
        ...(input.target === 'user'
          ? { userId: input.userId, account: input.account }
          : { houseAccount: input.houseAccount, ...(input.merchantId !== undefined ? { merchantId: input.merchantId } : {}) }),
        asset: input.asset,
        amount: formatAmount(amountMinor, scale),
        reason: input.reason.trim(),
        reference: input.reference ?? null,
        adminCheckerRequired: needsAdmin,
      },
      requestId: input.requestId,
      at: now,
    });
    return readCorrection(tx, row!.id);
  });
}

/**
 * The checker's decision. Approved: one `staff.correction` entry (key `staff.correction:<id>`, the
 * reason as its memo, the correction as its reference) between the target and the corrections
 * account (a user) or the platform treasury (a house account), the user's message, the audit entry
 * and the answer commit together. A ledger refusal (the target would go below zero) refuses the
 * approval whole: the correction stays pending for someone to reject or for the money to arrive.
 */
export async function decideStaffCorrection(
  deps: Pick<Deps, 'db' | 'now' | 'events' | 'logger'>,
  staff: StaffSession,
  input: { correctionId: bigint; approve: boolean; note?: string; requestId?: string },
  idempotency?: IdempotentRequest<StaffCorrection>,
): Promise<StaffCorrection> {
  const now = deps.now();
  const view = await deps.db.transaction(async (tx) => {
    const [correction] = await tx.query<CorrectionRow>(`${SELECT} WHERE c.id = $1 FOR UPDATE OF c`, [input.correctionId]);
    if (!correction) throw new AppError('RECORD_NOT_FOUND');
    const outcome = decideCorrection(
      { status: correction.status, proposedBy: correction.proposed_by, adminCheckerRequired: correction.admin_checker_required },
      { staffId: staff.staff.id, staffIsAdmin: staff.staff.roles.includes('admin'), approve: input.approve },
    );
    if (!outcome.ok) {
      if (outcome.problem === 'not_pending') throw new AppError('NOT_PENDING_REVIEW', { status: correction.status });
      throw new AppError('SECOND_APPROVER_REQUIRED', { rule: outcome.problem });
    }
    const amountMinor = toMinor(correction.amount_minor);
    let entryId: bigint | null = null;
    if (outcome.status === 'approved') {
      const target =
        correction.target === 'user'
          ? await ensureUserAccount(tx, correction.user_id!, correction.account_kind as UserAccountKind, correction.asset)
          : await houseAccountId(tx, correction.house_account!, correction.asset, correction.merchant_id);
      const counter =
        correction.target === 'user'
          ? await ensurePlatformAccount(tx, 'treasury', correction.asset, { label: CORRECTIONS_LABEL, allowNegative: true })
          : await ensurePlatformAccount(tx, 'treasury', correction.asset, { allowNegative: true });
      try {
        ({ entryId } = await postEntry(tx, {
          reason: 'staff.correction',
          referenceType: 'staff_correction',
          referenceId: correction.id.toString(),
          idempotencyKey: `staff.correction:${correction.id}`,
          memo: correction.reason,
          postings: correctionPostings(target, counter, correction.asset, amountMinor),
          at: now,
        }));
      } catch (error) {
        if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
        throw error;
      }
    }
    await tx.query('UPDATE staff_corrections SET status = $2, decided_by = $3, decided_at = $4, decision_note = $5, entry_id = $6 WHERE id = $1', [
      correction.id,
      outcome.status,
      staff.staff.id,
      now,
      input.note || null,
      entryId,
    ]);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: outcome.status === 'approved' ? 'correction.approved' : 'correction.rejected',
      targetType: 'staff_correction',
      targetId: correction.id.toString(),
      detail: {
        proposedByStaffId: correction.proposed_by.toString(),
        ...(correction.user_id !== null ? { userId: correction.user_id.toString() } : { houseAccount: correction.house_account }),
        note: input.note ?? null,
        ...(entryId !== null ? { entryId: entryId.toString() } : {}),
      },
      requestId: input.requestId,
      at: now,
    });
    if (entryId !== null && correction.user_id !== null) {
      const scale = (await assetScales(tx)).get(correction.asset)!;
      const magnitude = formatAmount(amountMinor < 0n ? -amountMinor : amountMinor, scale);
      await messageUser(
        tx,
        correction.user_id,
        amountMinor > 0n
          ? { title: 'notify.correction.credited.title', body: 'notify.correction.credited.body' }
          : { title: 'notify.correction.debited.title', body: 'notify.correction.debited.body' },
        { amount: magnitude, asset: correction.asset, account: correction.account_kind!, reason: correction.reason, entryId: entryId.toString() },
        now,
      );
    }
    const decided = await readCorrection(tx, correction.id);
    await idempotency?.answerInTransaction(tx, decided);
    return decided;
  });
  if (view.status === 'approved' && view.userId !== null) await publishToUser(deps, BigInt(view.userId), { kind: 'message', unread: true });
  return view;
}
