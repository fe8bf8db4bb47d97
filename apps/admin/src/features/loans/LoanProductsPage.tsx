import { decideLoanProductChangeContract, type LoanProductChange, listStaffLoanProductsContract, pageQuerySchema } from '@keel/contracts';
import { useState } from 'react';
import { useStaff } from '../../app/staff.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { bodyOf, emptyAsUndefined, FieldErrorText, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation, useContractQuery } from '../../shared/queries.ts';
import { useUrlFilter } from '../../shared/url-filter.ts';
import { LoanProposalForm } from './LoanProposalForm.tsx';
import { collateralText, ProposalTerms, type StaffLoanProduct, type StaffLoanProducts, shortPercent } from './loans-shared.tsx';

const PAGE_SIZE = 20;
const decisionSchema = bodyOf(decideLoanProductChangeContract);

/** Which form is open: a new product, or a change to one product. */
type Proposing = { product?: StaffLoanProduct } | null;
type Deciding = { change: LoanProductChange; approve: boolean } | null;

/**
 * Loan products (issue 18, ADR 0036; role admin): every product with its terms and what is lent
 * under it now; the lending treasury, which pays every loan out; and the proposals, pending first.
 * A product or a change is proposed here and takes effect only when another admin approves it;
 * changed terms get a new terms version, which only later applications accept.
 */
export function LoanProductsPage() {
  const { t } = useI18n();
  const { filter, setFilter } = useUrlFilter(pageQuerySchema);
  const loans = useContractQuery(listStaffLoanProductsContract, { query: { page: filter.page, pageSize: PAGE_SIZE } }, { keepPrevious: true, staleTime: 0 });
  const [proposing, setProposing] = useState<Proposing>(null);
  const [proposed, setProposed] = useState<LoanProductChange | null>(null);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const data = loans.data;

  return (
    <section data-testid="loan-products-page">
      <h2>{t('admin.loans.products.title')}</h2>
      <p className="muted">{t('admin.loans.products.intro')}</p>
      <div className="toolbar">
        <button
          type="button"
          onClick={() => {
            setProposed(null);
            setProposing({});
          }}
        >
          {t('admin.loans.products.proposeProduct')}
        </button>
        <button type="button" className="secondary" onClick={() => void loans.refetch()}>
          {t('admin.loans.refresh')}
        </button>
      </div>
      {proposed && (
        <p className="notice" role="status" data-testid="loan-proposed">
          {t('admin.loans.products.proposed', { id: proposed.id })}
        </p>
      )}
      {proposing && (
        <LoanProposalForm
          key={proposing.product?.id ?? 'new'}
          product={proposing.product}
          onClose={() => setProposing(null)}
          onProposed={(change) => {
            setProposing(null);
            setProposed(change);
          }}
        />
      )}
      <ErrorAlert error={loans.error} />
      {data && (
        <>
          <Products
            products={data.products}
            onChange={(product) => {
              setProposed(null);
              setProposing({ product });
            }}
          />
          <Lender lender={data.lender} />
          <h3>{t('admin.loans.changes.title')}</h3>
          <p className="muted">{t('admin.loans.changes.intro')}</p>
          <PagedTable<LoanProductChange>
            result={data.changes}
            page={filter.page}
            pageSize={PAGE_SIZE}
            onPage={(page) => setFilter({ page })}
            total="admin.loans.changes.total"
            empty={{ text: 'admin.loans.changes.empty', testId: 'loan-changes-empty' }}
            columns={['admin.loans.changes.col.id', 'admin.loans.changes.col.what', 'admin.loans.changes.col.terms', 'admin.loans.changes.col.proposed', 'admin.loans.changes.col.status']}
            row={(change) => <ChangeRow change={change} products={data.products} onDecide={(approve) => setDeciding({ change, approve })} />}
          />
        </>
      )}
      {deciding && <DecisionDialog {...deciding} products={data?.products ?? []} onClose={() => setDeciding(null)} />}
    </section>
  );
}

/** The products with their terms, what is lent under each now, and "propose a change". */
function Products({ products, onChange }: { products: StaffLoanProducts['products']; onChange: (product: StaffLoanProduct) => void }) {
  const { t } = useI18n();
  if (products.length === 0) {
    return (
      <p className="muted" data-testid="loan-products-empty">
        {t('admin.loans.products.empty')}
      </p>
    );
  }
  const columns = [
    'admin.loans.products.col.name',
    'admin.loans.products.col.rate',
    'admin.loans.products.col.cycle',
    'admin.loans.products.col.range',
    'admin.loans.col.collateral',
    'admin.loans.products.col.ratios',
    'admin.loans.products.col.outstanding',
    'admin.loans.products.col.state',
    'admin.loans.products.col.terms',
    'admin.loans.col.actions',
  ] as const;
  return (
    <table data-testid="loan-products">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column}>{t(column)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {products.map((product) => (
          <tr key={product.id} data-testid={`loan-product-${product.id}`}>
            <td data-testid="product-name">
              <strong>{product.name}</strong> <span className="muted">#{product.id}</span>
            </td>
            <td data-testid="product-rate">{t('admin.loans.percentPerDay', { percent: shortPercent(product.dailyRatePercent) })}</td>
            <td data-testid="product-cycle">{t('admin.loans.days', { days: product.cycleDays })}</td>
            <td data-testid="product-range">{t('admin.loans.range', { min: product.minAmount, max: product.maxAmount })}</td>
            <td data-testid="product-collateral">{collateralText(product.collateral, t)}</td>
            <td data-testid="product-ratios">
              {t('admin.loans.thresholds', { marginCall: shortPercent(product.marginCallLtvPercent), liquidation: shortPercent(product.liquidationLtvPercent) })}
            </td>
            <td data-testid="product-outstanding">{t('admin.loans.products.outstanding', { principal: product.outstandingPrincipal, count: product.outstandingLoans })}</td>
            <td>
              <span className={`status status-${product.open ? 'open' : 'cancelled'}`} data-testid="product-state">
                {t(product.open ? 'admin.loans.products.open' : 'admin.loans.products.closed')}
              </span>
            </td>
            <td data-testid="product-terms-version">{t('admin.loans.termsVersion', { version: product.termsVersion })}</td>
            <td className="actions">
              <button type="button" className="secondary" onClick={() => onChange(product)}>
                {t('admin.loans.products.proposeChange')}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The lending treasury: the account every loan is paid from and repaid to, and its balance. */
function Lender({ lender }: { lender: StaffLoanProducts['lender'] }) {
  const { t } = useI18n();
  return (
    <section className="card house" aria-label={t('admin.loans.lender.title')} data-testid="loan-lender">
      <h3>{t('admin.loans.lender.title')}</h3>
      <p>{t('admin.loans.lender.rule')}</p>
      <dl className="fields">
        <dt>{t('admin.loans.lender.balance')}</dt>
        <dd>
          <span data-testid="lender-balance">{lender.balance}</span> USDT
        </dd>
        <dt>{t('admin.loans.lender.account')}</dt>
        <dd data-testid="lender-account">{lender.accountId === null ? t('admin.loans.lender.none') : `#${lender.accountId}`}</dd>
      </dl>
    </section>
  );
}

/**
 * What a proposal is about: a new product, or a change to a product (named as the list names it).
 * An approved new product carries the id of the product it created, so an approved proposal with a
 * product names just the product.
 */
function changeSubject(change: LoanProductChange, products: StaffLoanProducts['products'], t: ReturnType<typeof useI18n>['t']): string {
  if (change.productId === null) return t('admin.loans.changes.newProduct');
  const name = products.find((product) => product.id === change.productId)?.name ?? change.proposal.name;
  return t(change.status === 'approved' ? 'admin.loans.changes.productOf' : 'admin.loans.changes.changeOf', { name, id: change.productId });
}

/** One proposal: what it is about, its terms, who proposed it and when, and its state or the decision. */
function ChangeRow({ change, products, onDecide }: { change: LoanProductChange; products: StaffLoanProducts['products']; onDecide: (approve: boolean) => void }) {
  const { t } = useI18n();
  const me = useStaff();
  const own = change.proposedBy === me.username;
  return (
    <tr data-testid={`loan-change-${change.id}`}>
      <td>#{change.id}</td>
      <td data-testid="change-subject">{changeSubject(change, products, t)}</td>
      <td>
        <ProposalTerms proposal={change.proposal} />
      </td>
      <td data-testid="change-proposed">{t('admin.loans.changes.by', { staff: change.proposedBy, time: formatEpochMs(change.proposedAtMs) })}</td>
      <td>
        <span className={`status status-${change.status}`} data-testid="change-status">
          {t(`admin.loans.changes.status.${change.status}`)}
        </span>
        {change.decidedBy && change.decidedAtMs !== null && (
          <div className="muted" data-testid="change-decided">
            {t('admin.loans.changes.decidedBy', { staff: change.decidedBy, time: formatEpochMs(change.decidedAtMs) })}
          </div>
        )}
        {change.decisionNote && (
          <div className="muted" data-testid="change-note">
            {t('admin.loans.changes.note', { note: change.decisionNote })}
          </div>
        )}
        {change.status === 'pending' && (
          <div className="decision">
            {own && (
              <p className="notice" data-testid="own-proposal">
                {t('admin.loans.changes.ownProposal')}
              </p>
            )}
            <div className="row start">
              <button type="button" onClick={() => onDecide(true)} disabled={own} title={own ? t('admin.loans.changes.ownProposal') : undefined}>
                {t('admin.loans.changes.approve')}
              </button>
              <button type="button" className="secondary" onClick={() => onDecide(false)} disabled={own} title={own ? t('admin.loans.changes.ownProposal') : undefined}>
                {t('admin.loans.changes.reject')}
              </button>
            </div>
          </div>
        )}
      </td>
    </tr>
  );
}

/**
 * Approve or reject a proposal, with an optional note kept with the decision: the dialog says what
 * the decision does. The server refuses the proposer's own decision and one on a decided proposal,
 * in the member's language.
 */
function DecisionDialog({
  change,
  approve,
  products,
  onClose,
}: {
  change: LoanProductChange;
  approve: boolean;
  products: StaffLoanProducts['products'];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const decide = useContractMutation(decideLoanProductChangeContract, { invalidates: [listStaffLoanProductsContract], onSuccess: onClose });
  const form = useContractForm(decisionSchema, { defaultValues: { approve, note: undefined } });
  const subject = changeSubject(change, products, t);
  const effect = !approve ? 'admin.loans.decide.rejectEffect' : change.productId === null ? 'admin.loans.decide.createEffect' : 'admin.loans.decide.changeEffect';
  const title = t(approve ? 'admin.loans.decide.approveTitle' : 'admin.loans.decide.rejectTitle', { id: change.id });

  return (
    <Dialog
      label={title}
      title={title}
      onSubmit={form.handleSubmit((body) => decide.mutate({ params: { changeId: change.id }, body: { ...body, approve } }))}
      onCancel={onClose}
      submitLabel={t(approve ? 'admin.loans.changes.approve' : 'admin.loans.changes.reject')}
      busy={decide.isPending}
      error={decide.error}
    >
      <p data-testid="decision-effect">
        <strong>{subject}</strong> — {t(effect, { name: change.proposal.name })}
      </p>
      <label>
        {t('admin.loans.decide.note')}
        <textarea maxLength={500} aria-describedby="loan-note-error" {...form.register('note', { setValueAs: emptyAsUndefined })} />
      </label>
      <FieldErrorText error={form.formState.errors.note} id="loan-note-error" />
    </Dialog>
  );
}
