import { AppError, type EarnProductChange, type EarnProductProposal } from '@keel/contracts';
import { earnTermsProblem, formatAmount } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { parsePercentPpm, parseTermsNumber } from '../amount-input.ts';
import { assetScales } from '../assets/account-balances.ts';
import { type EarnProductTerms, insertEarnProduct } from './earn-products.ts';
import { EARN_TREASURY_LABEL } from './earn-support.ts';
import { type EarnProductRow, PRODUCT_COLUMNS, productView } from './earn-views.ts';

// Earn products in the back-office (issue 17, ADR 0035): proposed by one admin, approved by another.

/** The proposal as terms the domain judges, or the catalogue's "parameter error" naming the rule broken. */
async function termsOf(db: Queryable, proposal: EarnProductProposal): Promise<EarnProductTerms> {
  const scale = (await assetScales(db)).get(proposal.asset);
  if (scale === undefined) throw new AppError('PARAMETER_ERROR', { field: 'asset', problem: 'unknown' });
  const [hours, minutes] = proposal.payoutTimeUtc.split(':').map(Number) as [number, number];
  const terms: EarnProductTerms = {
    kind: proposal.kind,
    name: proposal.name,
    asset: proposal.asset,
    cycleDays: proposal.cycleDays,
    dailyRatePpm: parsePercentPpm(proposal.dailyRatePercent, 'dailyRatePercent'),
    penaltyRatePpm: parsePercentPpm(proposal.penaltyRatePercent, 'penaltyRatePercent'),
    payoutMinuteUtc: hours * 60 + minutes,
    earlyRedemption: proposal.earlyRedemption,
    minAmountMinor: parseTermsNumber(proposal.minAmount, scale, 'minAmount'),
    maxAmountMinor: parseTermsNumber(proposal.maxAmount, scale, 'maxAmount'),
    userQuotaMinor: parseTermsNumber(proposal.userQuota, scale, 'userQuota'),
    totalQuotaMinor: parseTermsNumber(proposal.totalQuota, scale, 'totalQuota'),
  };
  const problem = earnTermsProblem(terms);
  if (problem) throw new AppError('PARAMETER_ERROR', { field: 'terms', problem });
  return terms;
}

interface ChangeRow {
  id: bigint;
  product_id: bigint | null;
  proposal: EarnProductProposal;
  proposed_by_name: string;
  proposed_by: bigint;
  proposed_at: Date;
  status: EarnProductChange['status'];
  decided_by_name: string | null;
  decided_at: Date | null;
  decision_note: string | null;
}

const CHANGE_SELECT = `SELECT c.id, c.product_id, c.proposal, p.username AS proposed_by_name, c.proposed_by, c.proposed_at, c.status,
  d.username AS decided_by_name, c.decided_at, c.decision_note
  FROM earn_product_changes c JOIN staff p ON p.id = c.proposed_by LEFT JOIN staff d ON d.id = c.decided_by`;

function changeView(row: ChangeRow): EarnProductChange {
  return {
    id: row.id.toString(),
    productId: row.product_id === null ? null : row.product_id.toString(),
    proposal: row.proposal,
    proposedBy: row.proposed_by_name,
    proposedAtMs: row.proposed_at.getTime(),
    status: row.status,
    decidedBy: row.decided_by_name,
    decidedAtMs: row.decided_at === null ? null : row.decided_at.getTime(),
    decisionNote: row.decision_note,
  };
}

async function readChange(db: Queryable, id: bigint): Promise<EarnProductChange> {
  const [row] = await db.query<ChangeRow>(`${CHANGE_SELECT} WHERE c.id = $1`, [id]);
  return changeView(row!);
}

/** A staff member's proposal: checked now (so a broken one is refused at once), applied only on another member's approval. */
export async function proposeEarnProductChange(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  input: EarnProductProposal & { productId?: string },
): Promise<EarnProductChange> {
  const { productId, ...proposal } = input;
  if (productId !== undefined) {
    const [product] = await deps.db.query<{ kind: string; asset: string }>('SELECT kind, asset FROM earn_products WHERE id = $1', [productId]);
    if (!product) throw new AppError('PRODUCT_NOT_FOUND');
    if (product.kind !== proposal.kind) throw new AppError('PARAMETER_ERROR', { field: 'kind', problem: 'fixed' });
    if (product.asset !== proposal.asset) throw new AppError('PARAMETER_ERROR', { field: 'asset', problem: 'fixed' });
  }
  await termsOf(deps.db, proposal);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: bigint }>(
      'INSERT INTO earn_product_changes (product_id, proposal, proposed_by, proposed_at) VALUES ($1, $2, $3, $4) RETURNING id',
      [productId ?? null, JSON.stringify(proposal), staff.staff.id, now],
    );
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: 'earn.change.proposed',
      targetType: productId === undefined ? 'earn_product_change' : 'earn_product',
      targetId: productId ?? row!.id.toString(),
      detail: { changeId: row!.id.toString(), proposal },
      at: now,
    });
    return readChange(tx, row!.id);
  });
}

/** The fields whose change reaches users: a change of any of them gives the product a new terms version. */
const TERM_COLUMNS = ['cycle_days', 'daily_rate_ppm', 'penalty_rate_ppm', 'payout_minute_utc', 'early_redemption', 'min_amount_minor', 'max_amount_minor', 'user_quota_minor', 'total_quota_minor', 'name'] as const;

/**
 * A second admin's decision. Approved, a new product is written, or the product's terms are
 * replaced (a new terms version when anything users read changed: existing subscriptions keep
 * theirs; a subscription naming the old version is refused). A total quota below what is active
 * now is refused. The proposer cannot decide their own proposal.
 */
export async function decideEarnProductChange(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  input: { changeId: bigint; approve: boolean; note?: string },
): Promise<EarnProductChange> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [change] = await tx.query<{ id: bigint; product_id: bigint | null; proposal: EarnProductProposal; proposed_by: bigint; status: string }>(
      'SELECT id, product_id, proposal, proposed_by, status FROM earn_product_changes WHERE id = $1 FOR UPDATE',
      [input.changeId],
    );
    if (!change) throw new AppError('RECORD_NOT_FOUND');
    if (change.status !== 'pending') throw new AppError('NOT_PENDING_REVIEW', { status: change.status });
    if (change.proposed_by === staff.staff.id) throw new AppError('SECOND_APPROVER_REQUIRED', { rule: 'proposer_cannot_decide' });
    let productId = change.product_id;
    if (input.approve) {
      const terms = await termsOf(tx, change.proposal);
      if (productId === null) {
        productId = await insertEarnProduct(tx, terms, now);
        if (!change.proposal.open) await tx.query('UPDATE earn_products SET open = false WHERE id = $1', [productId]);
      } else {
        const [current] = await tx.query<EarnProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM earn_products WHERE id = $1 FOR UPDATE`, [productId]);
        if (toMinor(current!.active_minor) > terms.totalQuotaMinor) throw new AppError('PARAMETER_ERROR', { field: 'totalQuota', problem: 'below_active' });
        const next = {
          cycle_days: terms.cycleDays,
          daily_rate_ppm: terms.dailyRatePpm,
          penalty_rate_ppm: terms.penaltyRatePpm,
          payout_minute_utc: terms.payoutMinuteUtc,
          early_redemption: terms.earlyRedemption,
          min_amount_minor: terms.minAmountMinor.toString(),
          max_amount_minor: terms.maxAmountMinor.toString(),
          user_quota_minor: terms.userQuotaMinor.toString(),
          total_quota_minor: terms.totalQuotaMinor.toString(),
          name: terms.name,
        };
        const termsChanged = TERM_COLUMNS.some((column) => String(next[column]) !== String(current![column]));
        await tx.query(
          `UPDATE earn_products SET name = $2, cycle_days = $3, daily_rate_ppm = $4, penalty_rate_ppm = $5, payout_minute_utc = $6, early_redemption = $7,
             min_amount_minor = $8, max_amount_minor = $9, user_quota_minor = $10, total_quota_minor = $11, open = $12,
             terms_version = terms_version + $13, updated_at = $14
           WHERE id = $1`,
          [
            productId,
            next.name,
            next.cycle_days,
            next.daily_rate_ppm,
            next.penalty_rate_ppm,
            next.payout_minute_utc,
            next.early_redemption,
            next.min_amount_minor,
            next.max_amount_minor,
            next.user_quota_minor,
            next.total_quota_minor,
            change.proposal.open,
            termsChanged ? 1 : 0,
            now,
          ],
        );
      }
    }
    await tx.query('UPDATE earn_product_changes SET status = $2, decided_by = $3, decided_at = $4, decision_note = $5, product_id = $6 WHERE id = $1', [
      change.id,
      input.approve ? 'approved' : 'rejected',
      staff.staff.id,
      now,
      input.note ?? null,
      productId,
    ]);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: input.approve ? 'earn.change.approved' : 'earn.change.rejected',
      targetType: 'earn_product',
      targetId: productId?.toString() ?? change.id.toString(),
      detail: { changeId: change.id.toString(), note: input.note ?? null },
      at: now,
    });
    return readChange(tx, change.id);
  });
}

/** Every product with its active principal, the earn treasuries, and a page of proposals (pending first). */
export async function listStaffEarnProducts(deps: Pick<Deps, 'db'>, page: { page: number; pageSize: number }) {
  const products = await deps.db.query<EarnProductRow & { subscriptions: number }>(
    `SELECT ${PRODUCT_COLUMNS}, (SELECT count(*)::int FROM earn_subscriptions s WHERE s.product_id = earn_products.id AND s.status = 'active') AS subscriptions
     FROM earn_products ORDER BY id`,
  );
  const scales = await assetScales(deps.db);
  const treasuries = await deps.db.query<{ asset: string; id: bigint; balance: string; owed: string | null }>(
    `SELECT a.asset, a.id, a.available_minor::text AS balance, o.owed_minor::text AS owed FROM ledger_accounts a
     LEFT JOIN earn_obligations o ON o.asset = a.asset
     WHERE a.user_id IS NULL AND a.kind = 'treasury' AND a.label = $1 ORDER BY a.asset`,
    [EARN_TREASURY_LABEL],
  );
  const changes = await deps.db.query<ChangeRow>(`${CHANGE_SELECT} ORDER BY (c.status = 'pending') DESC, c.id DESC LIMIT $1 OFFSET $2`, [
    page.pageSize,
    (page.page - 1) * page.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM earn_product_changes');
  return {
    products: products.map((row) => {
      const scale = scales.get(row.asset)!;
      const { userActive: _userActive, ...view } = productView(row, scale, 0n);
      return { ...view, activeSubscriptions: row.subscriptions, activePrincipal: formatAmount(toMinor(row.active_minor), scale) };
    }),
    treasuries: treasuries.map((row) => ({
      asset: row.asset,
      accountId: row.id.toString(),
      balance: formatAmount(toMinor(row.balance), scales.get(row.asset)!),
      owed: formatAmount(toMinor(row.owed ?? '0'), scales.get(row.asset)!),
    })),
    changes: { items: changes.map(changeView), total: count!.total, page: page.page, pageSize: page.pageSize },
  };
}
