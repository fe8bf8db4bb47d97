import {
  ApiError,
  decideEarnProductChangeContract,
  type EarnProductChange,
  listStaffEarnProductsContract,
  pageQuerySchema,
} from '@keel/contracts';
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
import { EarnProposalForm } from './EarnProposalForm.tsx';
import { proposalRefusal } from './earn-problems.ts';
import { ProposalTerms, type StaffEarn, type StaffEarnProduct, shortPercent } from './earn-shared.tsx';

const PAGE_SIZE = 20;
const decisionSchema = bodyOf(decideEarnProductChangeContract);

/** Which form is open: a new product, or a change to one product. */
type Proposing = { product?: StaffEarnProduct } | null;
type Deciding = { change: EarnProductChange; approve: boolean } | null;

/**
 * Earn products (issue 17, ADR 0035; role admin): every product with its terms, limits and what is
 * subscribed now; the earn treasury per asset, which sells a new subscription only while its
 * balance covers what is owed; and the proposals, pending first. A product or a change is proposed
 * here and takes effect only when another admin approves it; a change reaches only new
 * subscriptions. No staff call pays, withholds or sets interest.
 */
export function EarnProductsPage() {
  const { t } = useI18n();
  const { filter, setFilter } = useUrlFilter(pageQuerySchema);
  const earn = useContractQuery(listStaffEarnProductsContract, { query: { page: filter.page, pageSize: PAGE_SIZE } }, { keepPrevious: true, staleTime: 0 });
  const [proposing, setProposing] = useState<Proposing>(null);
  const [proposed, setProposed] = useState<EarnProductChange | null>(null);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const data = earn.data;

  return (
    <section data-testid="earn-page">
      <h2>{t('admin.earn.title')}</h2>
      <p className="muted">{t('admin.earn.intro')}</p>
      <div className="toolbar">
        <button
          type="button"
          onClick={() => {
            setProposed(null);
            setProposing({});
          }}
        >
          {t('admin.earn.proposeProduct')}
        </button>
        <button type="button" className="secondary" onClick={() => void earn.refetch()}>
          {t('admin.earn.refresh')}
        </button>
      </div>
      {proposed && (
        <p className="notice" role="status" data-testid="earn-proposed">
          {t('admin.earn.proposed', { id: proposed.id })}
        </p>
      )}
      {proposing && (
        <EarnProposalForm
          key={proposing.product?.id ?? 'new'}
          product={proposing.product}
          onClose={() => setProposing(null)}
          onProposed={(change) => {
            setProposing(null);
            setProposed(change);
          }}
        />
      )}
      <ErrorAlert error={earn.error} />
      {data && (
        <>
          <Products
            products={data.products}
            onChange={(product) => {
              setProposed(null);
              setProposing({ product });
            }}
          />
          <Treasuries treasuries={data.treasuries} />
          <h3>{t('admin.earn.changes.title')}</h3>
          <p className="muted">{t('admin.earn.changes.intro')}</p>
          <PagedTable<EarnProductChange>
            result={data.changes}
            page={filter.page}
            pageSize={PAGE_SIZE}
            onPage={(page) => setFilter({ page })}
            total="admin.earn.changes.total"
            empty={{ text: 'admin.earn.changes.empty', testId: 'earn-changes-empty' }}
            columns={['admin.earn.changes.col.id', 'admin.earn.changes.col.what', 'admin.earn.changes.col.terms', 'admin.earn.changes.col.proposed', 'admin.earn.changes.col.status']}
            row={(change) => <ChangeRow change={change} products={data.products} onDecide={(approve) => setDeciding({ change, approve })} />}
          />
        </>
      )}
      {deciding && <DecisionDialog {...deciding} products={data?.products ?? []} onClose={() => setDeciding(null)} />}
    </section>
  );
}

/** The products with their terms, limits, what is subscribed now, and "propose a change". */
function Products({ products, onChange }: { products: StaffEarn['products']; onChange: (product: StaffEarnProduct) => void }) {
  const { t } = useI18n();
  if (products.length === 0) {
    return (
      <p className="muted" data-testid="earn-products-empty">
        {t('admin.earn.products.empty')}
      </p>
    );
  }
  const columns = [
    'admin.earn.col.kind',
    'admin.earn.col.name',
    'admin.earn.col.asset',
    'admin.earn.col.dailyRate',
    'admin.earn.col.cycle',
    'admin.earn.col.penalty',
    'admin.earn.col.payoutTime',
    'admin.earn.col.range',
    'admin.earn.col.quotas',
    'admin.earn.col.remaining',
    'admin.earn.col.active',
    'admin.earn.col.state',
    'admin.earn.col.terms',
    'admin.earn.col.actions',
  ] as const;
  return (
    <table data-testid="earn-products">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column}>{t(column)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {products.map((product) => (
          <tr key={product.id} data-testid={`earn-product-${product.id}`}>
            <td data-testid="product-kind">{t(`admin.earn.kind.${product.kind}`)}</td>
            <td data-testid="product-name">
              <strong>{product.name}</strong> <span className="muted">#{product.id}</span>
            </td>
            <td data-testid="product-asset">{product.asset}</td>
            <td data-testid="product-rate">{t('admin.earn.percentPerDay', { percent: shortPercent(product.dailyRatePercent) })}</td>
            <td data-testid="product-cycle">{t('admin.earn.days', { days: product.cycleDays })}</td>
            <td data-testid="product-penalty">
              {product.earlyRedemption ? t('admin.earn.penaltyPerDay', { percent: shortPercent(product.penaltyRatePercent) }) : t('admin.earn.noEarlyRedemption')}
            </td>
            <td data-testid="product-payout">{t('admin.earn.utc', { time: product.payoutTimeUtc })}</td>
            <td data-testid="product-range">{t('admin.earn.range', { min: product.minAmount, max: product.maxAmount, asset: product.asset })}</td>
            <td data-testid="product-quotas">{t('admin.earn.quotas', { user: product.userQuota, total: product.totalQuota, asset: product.asset })}</td>
            <td data-testid="product-remaining">
              {product.remainingQuota} {product.asset}
            </td>
            <td data-testid="product-active">
              {t('admin.earn.active', { principal: product.activePrincipal, asset: product.asset, count: product.activeSubscriptions })}
            </td>
            <td>
              <span className={`status status-${product.open ? 'open' : 'cancelled'}`} data-testid="product-state">
                {t(product.open ? 'admin.earn.open' : 'admin.earn.closed')}
              </span>
            </td>
            <td data-testid="product-terms-version">{t('admin.earn.termsVersion', { version: product.termsVersion })}</td>
            <td className="actions">
              <button type="button" className="secondary" onClick={() => onChange(product)}>
                {t('admin.earn.proposeChange')}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The earn treasury of each asset: its ledger balance and what active subscriptions are still owed. */
function Treasuries({ treasuries }: { treasuries: StaffEarn['treasuries'] }) {
  const { t } = useI18n();
  return (
    <section className="card house" aria-label={t('admin.earn.treasury.title')} data-testid="earn-treasuries">
      <h3>{t('admin.earn.treasury.title')}</h3>
      <p>{t('admin.earn.treasury.rule')}</p>
      {treasuries.length === 0 ? (
        <p className="muted" data-testid="earn-treasuries-empty">
          {t('admin.earn.treasury.empty')}
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t('admin.earn.col.asset')}</th>
              <th>{t('admin.earn.treasury.balance')}</th>
              <th>{t('admin.earn.treasury.owed')}</th>
              <th>{t('admin.earn.treasury.account')}</th>
            </tr>
          </thead>
          <tbody>
            {treasuries.map((treasury) => (
              <tr key={treasury.asset} data-testid={`earn-treasury-${treasury.asset}`}>
                <td>
                  <strong>{treasury.asset}</strong>
                </td>
                <td>
                  <span data-testid="treasury-balance">{treasury.balance}</span> {treasury.asset}
                </td>
                <td>
                  <span data-testid="treasury-owed">{treasury.owed}</span> {treasury.asset}
                </td>
                <td>#{treasury.accountId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * What a proposal is about: a new product, or a change to a product (named as the list names it).
 * An approved new product carries the id of the product it created, so an approved proposal with a
 * product names just the product: the answer does not say whether it created or changed it.
 */
function changeSubject(change: EarnProductChange, products: StaffEarn['products'], t: ReturnType<typeof useI18n>['t']): string {
  if (change.productId === null) return t('admin.earn.changes.newProduct');
  const name = products.find((product) => product.id === change.productId)?.name ?? change.proposal.name;
  return t(change.status === 'approved' ? 'admin.earn.changes.productOf' : 'admin.earn.changes.changeOf', { name, id: change.productId });
}

/** One proposal: what it is about, its terms, who proposed it and when, and its state or the decision. */
function ChangeRow({ change, products, onDecide }: { change: EarnProductChange; products: StaffEarn['products']; onDecide: (approve: boolean) => void }) {
  const { t } = useI18n();
  const me = useStaff();
  const own = change.proposedBy === me.username;
  return (
    <tr data-testid={`earn-change-${change.id}`}>
      <td>#{change.id}</td>
      <td data-testid="change-subject">{changeSubject(change, products, t)}</td>
      <td>
        <ProposalTerms proposal={change.proposal} />
      </td>
      <td data-testid="change-proposed">{t('admin.earn.changes.by', { staff: change.proposedBy, time: formatEpochMs(change.proposedAtMs) })}</td>
      <td>
        <span className={`status status-${change.status}`} data-testid="change-status">
          {t(`admin.earn.changes.status.${change.status}`)}
        </span>
        {change.decidedBy && change.decidedAtMs !== null && (
          <div className="muted" data-testid="change-decided">
            {t('admin.earn.changes.decidedBy', { staff: change.decidedBy, time: formatEpochMs(change.decidedAtMs) })}
          </div>
        )}
        {change.decisionNote && (
          <div className="muted" data-testid="change-note">
            {t('admin.earn.changes.note', { note: change.decisionNote })}
          </div>
        )}
        {change.status === 'pending' && (
          <div className="decision">
            {own && (
              <p className="notice" data-testid="own-proposal">
                {t('admin.earn.changes.ownProposal')}
              </p>
            )}
            <div className="row start">
              <button type="button" onClick={() => onDecide(true)} disabled={own} title={own ? t('admin.earn.changes.ownProposal') : undefined}>
                {t('admin.earn.changes.approve')}
              </button>
              <button type="button" className="secondary" onClick={() => onDecide(false)} disabled={own} title={own ? t('admin.earn.changes.ownProposal') : undefined}>
                {t('admin.earn.changes.reject')}
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
 * the decision does. The server refuses the proposer's own decision and one on a decided proposal;
 * a change whose total quota is below the principal active now is refused on approval, in words.
 */
function DecisionDialog({ change, approve, products, onClose }: { change: EarnProductChange; approve: boolean; products: StaffEarn['products']; onClose: () => void }) {
  const { t } = useI18n();
  const decide = useContractMutation(decideEarnProductChangeContract, { invalidates: [listStaffEarnProductsContract], onSuccess: onClose });
  const form = useContractForm(decisionSchema, { defaultValues: { approve, note: undefined } });
  const refusal = decide.error instanceof ApiError ? proposalRefusal(decide.error.data) : null;
  const subject = changeSubject(change, products, t);
  const effect = !approve ? 'admin.earn.decide.rejectEffect' : change.productId === null ? 'admin.earn.decide.createEffect' : 'admin.earn.decide.changeEffect';
  const title = t(approve ? 'admin.earn.decide.approveTitle' : 'admin.earn.decide.rejectTitle', { id: change.id });

  return (
    <Dialog
      label={title}
      title={title}
      onSubmit={form.handleSubmit((body) => decide.mutate({ params: { changeId: change.id }, body: { ...body, approve } }))}
      onCancel={onClose}
      submitLabel={t(approve ? 'admin.earn.changes.approve' : 'admin.earn.changes.reject')}
      busy={decide.isPending}
      error={refusal ? null : decide.error}
    >
      <p data-testid="decision-effect">
        <strong>{subject}</strong> — {t(effect, { name: change.proposal.name })}
      </p>
      {refusal && <ErrorAlert message={t(refusal.key)} />}
      <label>
        {t('admin.earn.decide.note')}
        <textarea maxLength={500} aria-describedby="earn-note-error" {...form.register('note', { setValueAs: emptyAsUndefined })} />
      </label>
      <FieldErrorText error={form.formState.errors.note} id="earn-note-error" />
    </Dialog>
  );
}
