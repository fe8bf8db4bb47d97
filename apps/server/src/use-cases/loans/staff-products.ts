import { AppError, type LoanProductChange, type LoanProductProposal } from '@keel/contracts';
import { formatAmount, LOAN_ASSET_SCALE, loanTermsProblem } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { parsePercentPpm, parseTermsNumber } from '../amount-input.ts';
import { lenderView } from './loans-support.ts';
import {
  collateralJson,
  findLoanProductRow,
  insertLoanProduct,
  LOAN_PRODUCT_COLUMNS,
  type LoanProductRow,
  type LoanProductTerms,
  loanProductTerms,
  loanProductView,
} from './loan-products.ts';

// Loan products in the back-office (issue 18, ADR 0036): proposed by one admin, applied only when
// a different admin approves, as earn's (ADR 0035). No staff call sets a credit limit, a score, a
// price, an amount owed or a liquidation.

/** The proposal as terms the domain judges, or the catalogue's "parameter error" naming the rule broken. */
function termsOf(proposal: LoanProductProposal): LoanProductTerms {
  const terms: LoanProductTerms = {
    name: proposal.name,
    open: proposal.open,
    cycleDays: proposal.cycleDays,
    dailyRatePpm: parsePercentPpm(proposal.dailyRatePercent, 'dailyRatePercent'),
    minAmountMinor: parseTermsNumber(proposal.minAmount, LOAN_ASSET_SCALE, 'minAmount'),
    maxAmountMinor: parseTermsNumber(proposal.maxAmount, LOAN_ASSET_SCALE, 'maxAmount'),
    collateral: proposal.collateral.map((each, index) => ({ asset: each.asset, ltvPpm: parsePercentPpm(each.ltvPercent, `collateral.${index}.ltvPercent`) })),
    marginCallLtvPpm: parsePercentPpm(proposal.marginCallLtvPercent, 'marginCallLtvPercent'),
    liquidationLtvPpm: parsePercentPpm(proposal.liquidationLtvPercent, 'liquidationLtvPercent'),
  };
  const problem = loanTermsProblem(terms);
  if (problem) throw new AppError('PARAMETER_ERROR', { field: 'terms', problem });
  return terms;
}

interface ChangeRow {
  id: bigint;
  product_id: bigint | null;
  proposal: LoanProductProposal;
  proposed_by_name: string;
  proposed_by: bigint;
  proposed_at: Date;
  status: LoanProductChange['status'];
  decided_by_name: string | null;
  decided_at: Date | null;
  decision_note: string | null;
}

const CHANGE_SELECT = `SELECT c.id, c.product_id, c.proposal, p.username AS proposed_by_name, c.proposed_by, c.proposed_at, c.status,
  d.username AS decided_by_name, c.decided_at, c.decision_note
  FROM loan_product_changes c JOIN staff p ON p.id = c.proposed_by LEFT JOIN staff d ON d.id = c.decided_by`;

const proposalOf = (value: unknown): LoanProductProposal => (typeof value === 'string' ? (JSON.parse(value) as LoanProductProposal) : (value as LoanProductProposal));

function changeView(row: ChangeRow): LoanProductChange {
  return {
    id: row.id.toString(),
    productId: row.product_id === null ? null : row.product_id.toString(),
    proposal: proposalOf(row.proposal),
    proposedBy: row.proposed_by_name,
    proposedAtMs: row.proposed_at.getTime(),
    status: row.status,
    decidedBy: row.decided_by_name,
    decidedAtMs: row.decided_at === null ? null : row.decided_at.getTime(),
    decisionNote: row.decision_note,
  };
}

async function readChange(db: Queryable, id: bigint): Promise<LoanProductChange> {
  const [row] = await db.query<ChangeRow>(`${CHANGE_SELECT} WHERE c.id = $1`, [id]);
  return changeView(row!);
}

/** An admin's proposal: checked now (so a broken one is refused at once), applied only on another admin's approval. */
export async function proposeLoanProductChange(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  input: LoanProductProposal & { productId?: string },
): Promise<LoanProductChange> {
  const { productId, ...proposal } = input;
  if (productId !== undefined && !(await findLoanProductRow(deps.db, productId))) throw new AppError('PRODUCT_NOT_FOUND');
  termsOf(proposal);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: bigint }>(
      'INSERT INTO loan_product_changes (product_id, proposal, proposed_by, proposed_at) VALUES ($1, $2::jsonb, $3, $4) RETURNING id',
      [productId ?? null, JSON.stringify(proposal), staff.staff.id, now],
    );
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: 'loans.change.proposed',
      targetType: productId === undefined ? 'loan_product_change' : 'loan_product',
      targetId: productId ?? row!.id.toString(),
      detail: { changeId: row!.id.toString(), proposal },
      at: now,
    });
    return readChange(tx, row!.id);
  });
}

/** The collateral terms in a stable order, to tell a change of them from a reordering. */
const collateralKey = (collateral: readonly { asset: string; ltvPpm: number }[]) =>
  collateralJson([...collateral].sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0)));

/** Whether anything a borrower agrees to changed (the name and `open` are not terms). */
function termsChanged(current: LoanProductRow, next: LoanProductTerms): boolean {
  const before = loanProductTerms(current);
  return (
    before.cycleDays !== next.cycleDays ||
    before.dailyRatePpm !== next.dailyRatePpm ||
    before.minAmountMinor !== next.minAmountMinor ||
    before.maxAmountMinor !== next.maxAmountMinor ||
    before.marginCallLtvPpm !== next.marginCallLtvPpm ||
    before.liquidationLtvPpm !== next.liquidationLtvPpm ||
    collateralKey(before.collateral) !== collateralKey(next.collateral)
  );
}

/**
 * A second admin's decision. Approved, a new product is written, or the product's terms are
 * replaced — with a new terms version when anything a borrower agrees to changed (loans keep the
 * terms they were made with; an application naming the old version is refused). The proposer
 * cannot decide their own proposal.
 */
export async function decideLoanProductChange(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  input: { changeId: bigint; approve: boolean; note?: string },
): Promise<LoanProductChange> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [change] = await tx.query<{ id: bigint; product_id: bigint | null; proposal: LoanProductProposal; proposed_by: bigint; status: string }>(
      'SELECT id, product_id, proposal, proposed_by, status FROM loan_product_changes WHERE id = $1 FOR UPDATE',
      [input.changeId],
    );
    if (!change) throw new AppError('RECORD_NOT_FOUND');
    if (change.status !== 'pending') throw new AppError('NOT_PENDING_REVIEW', { status: change.status });
    if (change.proposed_by === staff.staff.id) throw new AppError('SECOND_APPROVER_REQUIRED', { rule: 'proposer_cannot_decide' });
    const proposal = proposalOf(change.proposal);
    let productId = change.product_id;
    let termsVersion: number | null = null;
    if (input.approve) {
      const terms = termsOf(proposal);
      if (productId === null) {
        productId = await insertLoanProduct(tx, terms, now);
        termsVersion = 1;
      } else {
        const current = await findLoanProductRow(tx, productId, { forUpdate: true });
        if (!current) throw new AppError('PRODUCT_NOT_FOUND');
        const raise = termsChanged(current, terms);
        await tx.query(
          `UPDATE loan_products SET name = $2, cycle_days = $3, daily_rate_ppm = $4, min_amount_minor = $5, max_amount_minor = $6, collateral = $7::jsonb,
             margin_call_ltv_ppm = $8, liquidation_ltv_ppm = $9, open = $10, terms_version = terms_version + $11, updated_at = $12
           WHERE id = $1`,
          [
            productId,
            terms.name,
            terms.cycleDays,
            terms.dailyRatePpm,
            terms.minAmountMinor.toString(),
            terms.maxAmountMinor.toString(),
            collateralJson(terms.collateral),
            terms.marginCallLtvPpm,
            terms.liquidationLtvPpm,
            proposal.open,
            raise ? 1 : 0,
            now,
          ],
        );
        termsVersion = current.terms_version + (raise ? 1 : 0);
      }
    }
    await tx.query('UPDATE loan_product_changes SET status = $2, decided_by = $3, decided_at = $4, decision_note = $5, product_id = $6 WHERE id = $1', [
      change.id,
      input.approve ? 'approved' : 'rejected',
      staff.staff.id,
      now,
      input.note ?? null,
      productId,
    ]);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: input.approve ? 'loans.change.approved' : 'loans.change.rejected',
      targetType: productId === null ? 'loan_product_change' : 'loan_product',
      targetId: productId?.toString() ?? change.id.toString(),
      detail: { changeId: change.id.toString(), note: input.note ?? null, termsVersion },
      at: now,
    });
    return readChange(tx, change.id);
  });
}

/**
 * Every product with its outstanding loans and principal, the lending treasury (looked up, never
 * made here: before the first loan is funded it may not exist), and a page of proposals, pending first.
 */
export async function listStaffLoanProducts(deps: Pick<Deps, 'db'>, page: { page: number; pageSize: number }) {
  const products = await deps.db.query<LoanProductRow & { outstanding_loans: number; outstanding_minor: string }>(
    `SELECT ${LOAN_PRODUCT_COLUMNS},
       (SELECT count(*)::int FROM loans l WHERE l.product_id = loan_products.id AND l.status = 'passed') AS outstanding_loans,
       (SELECT coalesce(sum(l.principal_outstanding_minor), 0)::text FROM loans l WHERE l.product_id = loan_products.id AND l.status = 'passed') AS outstanding_minor
     FROM loan_products ORDER BY id`,
  );
  const lender = await lenderView(deps.db);
  const changes = await deps.db.query<ChangeRow>(`${CHANGE_SELECT} ORDER BY (c.status = 'pending') DESC, c.id DESC LIMIT $1 OFFSET $2`, [
    page.pageSize,
    (page.page - 1) * page.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM loan_product_changes');
  return {
    products: products.map((row) => ({
      ...loanProductView(row),
      outstandingLoans: row.outstanding_loans,
      outstandingPrincipal: formatAmount(toMinor(row.outstanding_minor), LOAN_ASSET_SCALE),
    })),
    lender: { accountId: lender.accountId?.toString() ?? null, balance: formatAmount(lender.balanceMinor, LOAN_ASSET_SCALE) },
    changes: { items: changes.map(changeView), total: count!.total, page: page.page, pageSize: page.pageSize },
  };
}
