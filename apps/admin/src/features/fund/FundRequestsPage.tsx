import { decideFundRequestContract, listStaffFundRequestsContract } from '@keel/contracts';
import { type ReactNode, useState } from 'react';
import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { bodyOf, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { ReasonForm } from '../../shared/ReasonForm.tsx';
import { useRecordLinks } from '../../shared/record-route.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { shortPercent } from '../loans/loans-shared.tsx';
import { borrowerOf, type FundStatus, fundDecisionRefusalKey, fundTabs, requestIn, type StaffFundRequest, trancheState } from './fund-review.ts';

const PAGE_SIZE = 20;
const LIST_PATH = '/fund/requests';

/**
 * What the list gives the request opened under it: the requests it shows (there is no staff read
 * of one request: a request opens from the page of the list it is on), whether that page is still
 * loading, where a decision is reported, and how to close the request.
 */
type FundOutlet = {
  items: readonly StaffFundRequest[] | undefined;
  loading: boolean;
  decided: (request: StaffFundRequest) => void;
  close: () => void;
};

/** A field of the detail: a label and its value (skipped when there is no value). */
function Field({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <div className="contents">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** The borrower's public name, user id and type: "Acme Ltd (#40) · Institution". */
function BorrowerText({ request }: { request: StaffFundRequest }) {
  const { t } = useI18n();
  return (
    <>
      {borrowerOf(request)} · {t(`admin.fund.borrowerType.${request.borrowerType}`)}
    </>
  );
}

/** Tranches and their period: "3 · every 10 d", or "1" for a single release at the fill. */
function TranchesText({ request }: { request: StaffFundRequest }) {
  const { t } = useI18n();
  return <>{request.tranches > 1 ? t('admin.fund.tranchesEvery', { tranches: request.tranches, days: request.releasePeriodDays }) : t('admin.fund.tranchesSingle')}</>;
}

/** The two ratings with the inputs they come from (computed by the published bands, never set by staff). */
function RatingsText({ request, separator }: { request: StaffFundRequest; separator: ReactNode }) {
  const { t } = useI18n();
  return (
    <>
      <span data-testid="fund-credit-rating">{t('admin.fund.creditRating', { rating: request.creditRating, score: request.creditScore })}</span>
      {separator}
      <span data-testid="fund-investment-rating">
        {t('admin.fund.investmentRating', { rating: request.investmentRating, cover: shortPercent(request.collateralCoverPercent) })}
      </span>
    </>
  );
}

/** The collateral's price the limit and the cover were computed at, with its recorded tick. */
function PriceText({ request }: { request: StaffFundRequest }) {
  const { t } = useI18n();
  const price = request.publishedPrice;
  const market = price.symbol ?? price.asset;
  const value =
    price.price === null
      ? t('admin.loans.unpriced')
      : price.tickId === null
        ? t('admin.loans.priceFixed', { price: price.price })
        : t('admin.loans.price', { price: price.price, tick: price.tickId });
  return (
    <>
      {market} · {value}
      {price.atMs !== null && <span className="muted"> · {formatEpochMs(price.atMs)}</span>}
    </>
  );
}

/** The release schedule: each tranche, when it is (or was) due, and its ledger entry once released. */
function Schedule({ request }: { request: StaffFundRequest }) {
  const { t } = useI18n();
  return (
    <table data-testid="fund-schedule">
      <thead>
        <tr>
          <th>{t('admin.fund.schedule.col.number')}</th>
          <th>{t('admin.loans.col.amount')}</th>
          <th>{t('admin.fund.schedule.col.due')}</th>
          <th>{t('admin.fund.schedule.col.released')}</th>
        </tr>
      </thead>
      <tbody>
        {request.schedule.map((tranche) => {
          const state = trancheState(tranche);
          return (
            <tr key={tranche.number} data-testid={`fund-tranche-${tranche.number}`}>
              <td>{tranche.number}</td>
              <td>
                {tranche.amount} {request.asset}
              </td>
              <td>{tranche.releaseAtMs === null ? t('admin.fund.schedule.afterFill') : formatEpochMs(tranche.releaseAtMs)}</td>
              <td data-testid="fund-tranche-state">
                {state === 'released' && tranche.releasedAtMs !== null
                  ? t('admin.fund.schedule.releasedAt', { time: formatEpochMs(tranche.releasedAtMs), entry: tranche.entryId ?? '—' })
                  : t('admin.fund.schedule.notYet')}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** How the request ended for its investors: repaid, the collateral sold at a recorded price, or refunded. */
function Settlement({ request }: { request: StaffFundRequest }) {
  const { t } = useI18n();
  const settlement = request.settlement;
  if (!settlement) {
    return (
      <p className="muted" data-testid="fund-settlement-none">
        {t('admin.fund.settlement.none')}
      </p>
    );
  }
  return (
    <dl className="fields" data-testid="fund-settlement">
      <Field label={t('admin.fund.settlement.kindLabel')} testId="fund-settlement-kind">
        {t(`admin.fund.settlement.kind.${settlement.kind}`)}
      </Field>
      <Field label={t('admin.fund.settlement.paidOut')} testId="fund-settlement-paid">
        {settlement.paidOut} {request.asset}
      </Field>
      <Field label={t('admin.fund.settlement.price')} testId="fund-settlement-price">
        {settlement.price === null
          ? null
          : settlement.tickId === null
            ? t('admin.loans.priceFixed', { price: settlement.price })
            : t('admin.loans.price', { price: settlement.price, tick: settlement.tickId })}
      </Field>
      <Field label={t('admin.fund.settlement.sold')} testId="fund-settlement-sold">
        {settlement.sold === null ? null : `${settlement.sold} ${request.collateralAsset}`}
      </Field>
      <Field label={t('admin.fund.settlement.shortfall')} testId="fund-settlement-shortfall">
        {settlement.shortfall === null ? null : `${settlement.shortfall} ${request.asset}`}
      </Field>
      <Field label={t('admin.fund.entry')} testId="fund-settlement-entry">
        #{settlement.entryId}
      </Field>
    </dl>
  );
}

/**
 * Approve (asked first: the request enters the pool for its window) or reject with the reason the
 * borrower reads (the contract's rule: a rejection needs one; the collateral returns). Nothing else:
 * no number of the request is staff's to set. Refusals are the catalogue's message in the member's
 * language, with what it means here.
 */
function DecisionPanel({ request, onDecided }: { request: StaffFundRequest; onDecided: (request: StaffFundRequest) => void }) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const decide = useContractMutation(decideFundRequestContract, {
    invalidates: [listStaffFundRequestsContract],
    onSuccess: (updated) => {
      setConfirming(false);
      setRejecting(false);
      onDecided(updated);
    },
  });
  const form = useContractForm(bodyOf(decideFundRequestContract), {
    defaultValues: { decision: 'reject', reason: '' },
    messages: { reason: { custom: fieldMessage('admin.loans.reasonRequired') } },
  });
  const params = { requestId: request.id };
  const busy = decide.isPending;
  const refusal = fundDecisionRefusalKey(decide.error);
  const named = { requestNo: request.requestNo, windowHours: request.windowHours };

  return (
    <div className="decision" data-testid="fund-decision">
      <ErrorAlert error={decide.error} />
      {refusal && (
        <p className="notice" data-testid="fund-refusal">
          {t(refusal)}
        </p>
      )}
      {!rejecting ? (
        <div className="row">
          <button type="button" className="secondary" onClick={() => setRejecting(true)} disabled={busy}>
            {t('admin.loans.reject')}
          </button>
          <button type="button" onClick={() => setConfirming(true)} disabled={busy}>
            {t('admin.loans.approve')}
          </button>
        </div>
      ) : (
        <ReasonForm
          label={t('admin.loans.reasonLabel')}
          field={form.register('reason')}
          error={form.formState.errors.reason}
          notes={<p className="muted">{t('admin.loans.reasonShown')}</p>}
          submitLabel={t('admin.loans.confirmReject')}
          busy={busy}
          onSubmit={form.handleSubmit((body) => decide.mutate({ params, body: { decision: 'reject', reason: body.reason } }))}
          onCancel={() => setRejecting(false)}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={t('admin.fund.confirm.approveTitle', named)}
          text={t('admin.fund.confirm.approveText', named)}
          confirmLabel={t('admin.fund.confirm.approveLabel', named)}
          busy={busy}
          error={null}
          onCancel={() => setConfirming(false)}
          onConfirm={() => decide.mutate({ params, body: { decision: 'approve' } }, { onSettled: () => setConfirming(false) })}
        />
      )}
    </div>
  );
}

/** One request: every field of it, its ratings with their inputs, its schedule and settlement, and the decision while in review. */
function FundRequestDetail({ request, onClose, onDecided }: { request: StaffFundRequest; onClose: () => void; onDecided: (request: StaffFundRequest) => void }) {
  const { t } = useI18n();
  const title = t('admin.fund.detail', { requestNo: request.requestNo });
  const asset = request.asset;
  return (
    <DetailCard label={title} title={title} closeLabel={t('admin.loans.close')} onClose={onClose} testId="fund-request-detail">
      <dl className="fields">
        <Field label={t('admin.loans.statusLabel')} testId="fund-field-status">
          {t(`admin.fund.status.${request.status}`)}
        </Field>
        <Field label={t('admin.loans.col.user')} testId="fund-field-borrower">
          <BorrowerText request={request} />
        </Field>
        <Field label={t('admin.fund.col.title')} testId="fund-field-title">
          {request.title}
        </Field>
        <Field label={t('admin.fund.field.purpose')} testId="fund-field-purpose">
          <span className="prewrap">{request.purpose}</span>
        </Field>
        <Field label={t('admin.loans.col.amount')} testId="fund-field-amount">
          {request.amount} {asset}
        </Field>
        <Field label={t('admin.fund.col.rate')} testId="fund-field-rate">
          {t('admin.loans.percentPerDay', { percent: shortPercent(request.dailyRatePercent) })}
        </Field>
        <Field label={t('admin.fund.col.term')} testId="fund-field-term">
          {t('admin.loans.days', { days: request.termDays })}
        </Field>
        <Field label={t('admin.loans.field.totalDue')} testId="fund-field-totalDue">
          {t('admin.loans.totalDue', { total: request.totalDue, interest: request.interest })}
        </Field>
        <Field label={t('admin.fund.col.tranches')} testId="fund-field-tranches">
          <TranchesText request={request} />
        </Field>
        <Field label={t('admin.fund.field.window')} testId="fund-field-window">
          {t('admin.fund.hours', { hours: request.windowHours })}
        </Field>
        <Field label={t('admin.loans.col.collateral')} testId="fund-field-collateral">
          {t('admin.fund.collateralLine', {
            amount: request.collateralAmount,
            asset: request.collateralAsset,
            ltv: shortPercent(request.collateralLtvPercent),
          })}
        </Field>
        <Field label={t('admin.fund.field.publishedPrice')} testId="fund-field-price">
          <PriceText request={request} />
        </Field>
        <Field label={t('admin.fund.col.limit')} testId="fund-field-limit">
          {t('admin.fund.creditLimit', { limit: request.creditLimit, ltv: shortPercent(request.collateralLtvPercent) })}
        </Field>
        <Field label={t('admin.fund.col.ratings')} testId="fund-field-ratings">
          <RatingsText request={request} separator={<br />} />
        </Field>
        <Field label={t('admin.fund.col.published')}>{formatEpochMs(request.publishedAtMs)}</Field>
        <Field label={t('admin.fund.field.reviewedAt')}>{request.reviewedAtMs === null ? null : formatEpochMs(request.reviewedAtMs)}</Field>
        <Field label={t('admin.loans.field.rejectReason')} testId="fund-field-reason">
          {request.rejectReason}
        </Field>
        <Field label={t('admin.fund.field.pool')} testId="fund-field-pool">
          {request.openedAtMs === null
            ? null
            : t('admin.fund.poolLine', {
                opened: formatEpochMs(request.openedAtMs),
                ends: request.windowEndsAtMs === null ? '—' : formatEpochMs(request.windowEndsAtMs),
              })}
        </Field>
        <Field label={t('admin.fund.field.raised')} testId="fund-field-raised">
          {request.openedAtMs === null
            ? null
            : t('admin.fund.raisedLine', { raised: request.raised, amount: request.amount, remaining: request.remaining, investors: request.investors })}
        </Field>
        <Field label={t('admin.fund.field.filledAt')}>{request.filledAtMs === null ? null : formatEpochMs(request.filledAtMs)}</Field>
        <Field label={t('admin.fund.field.released')} testId="fund-field-released">
          {request.filledAtMs === null ? null : `${request.released} ${asset}`}
        </Field>
        <Field label={t('admin.loans.field.dueAt')}>{request.dueAtMs === null ? null : formatEpochMs(request.dueAtMs)}</Field>
        <Field label={t('admin.fund.field.closedAt')}>{request.closedAtMs === null ? null : formatEpochMs(request.closedAtMs)}</Field>
      </dl>
      <h4>{t('admin.fund.schedule.title')}</h4>
      <Schedule request={request} />
      <h4>{t('admin.fund.settlement.title')}</h4>
      <Settlement request={request} />
      {request.status === 'review' && <DecisionPanel request={request} onDecided={onDecided} />}
    </DetailCard>
  );
}

/**
 * /admin/fund/requests/:requestId — one request above the list it was opened from. Staff read
 * requests only through the list, so a request opens from the page of the list that shows it; a
 * link to one the list does not show says so, with a way back.
 */
export function FundRequestDetailRoute() {
  const { t } = useI18n();
  const { requestId = '' } = useParams();
  const { items, loading, decided, close } = useOutletContext<FundOutlet>();
  const request = requestIn(items, requestId);
  if (request) return <FundRequestDetail key={request.id} request={request} onClose={close} onDecided={decided} />;
  return (
    <section className="card detail" data-testid="record-state" aria-busy={loading}>
      <p className="muted" data-testid={loading ? undefined : 'fund-request-missing'}>
        {t(loading ? 'admin.loading' : 'admin.fund.missing')}
      </p>
      <div className="row">
        <button type="button" className="secondary" onClick={close}>
          {t('admin.loans.close')}
        </button>
      </div>
    </section>
  );
}

/**
 * Funding requests for compliance review (issue 18, ADR 0037; role compliance): requests by state,
 * the review queue first and oldest first, each with its terms, its collateral and the credit limit,
 * and the two ratings with the inputs they come from; a request opens at its own URL
 * (/admin/fund/requests/12) with its purpose, the published price and its tick, the schedule and
 * the settlement; a request in review is approved (it enters the pool for its window) or rejected
 * with the reason the borrower reads. No staff action sets a rating, a limit, an amount or an outcome.
 */
export function FundRequestsPage() {
  const { t } = useI18n();
  const { filter, searchFor, list, table } = useListQuery(listStaffFundRequestsContract, PAGE_SIZE);
  const status = filter.status as FundStatus;
  const { recordTo, close } = useRecordLinks(LIST_PATH);
  // A notice belongs to the tab it was given in.
  const [notice, setNotice] = useState<{ status: FundStatus; text: string } | null>(null);

  function decided(request: StaffFundRequest) {
    setNotice({ status, text: t('admin.fund.notice.decided', { requestNo: request.requestNo, status: t(`admin.fund.status.${request.status}`) }) });
    close();
  }

  return (
    <section data-testid="fund-requests-page">
      <h2>{t('admin.fund.title')}</h2>
      <p className="muted">{t('admin.fund.intro')}</p>
      <StatusTabs
        label={t('admin.loans.statusLabel')}
        statuses={fundTabs}
        status={status}
        labelOf={(each) => t(`admin.fund.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.loans.refresh')}
        </button>
      </div>
      <ErrorAlert error={list.error} />
      {notice?.status === status && (
        <p className="notice" role="status" data-testid="fund-requests-notice">
          {notice.text}
        </p>
      )}
      <Outlet context={{ items: list.data?.items, loading: list.isPending || list.isPlaceholderData, decided, close } satisfies FundOutlet} />
      <PagedTable<StaffFundRequest>
        {...table}
        total="admin.fund.total"
        empty={{ text: 'admin.fund.empty', testId: 'fund-requests-empty' }}
        columns={[
          'admin.fund.col.requestNo',
          'admin.loans.col.user',
          'admin.fund.col.title',
          'admin.loans.col.amount',
          'admin.fund.col.rate',
          'admin.fund.col.term',
          'admin.fund.col.tranches',
          'admin.loans.col.collateral',
          'admin.fund.col.limit',
          'admin.fund.col.ratings',
          'admin.fund.col.published',
          'admin.loans.col.actions',
        ]}
        row={(request) => (
          <tr data-testid={`fund-request-row-${request.requestNo}`}>
            <td data-testid="fund-request-no">{request.requestNo}</td>
            <td data-testid="fund-request-borrower">
              <BorrowerText request={request} />
            </td>
            <td data-testid="fund-request-title">{request.title}</td>
            <td data-testid="fund-request-amount">
              {request.amount} {request.asset}
            </td>
            <td data-testid="fund-request-rate">{t('admin.loans.percentPerDay', { percent: shortPercent(request.dailyRatePercent) })}</td>
            <td data-testid="fund-request-term">{t('admin.loans.days', { days: request.termDays })}</td>
            <td data-testid="fund-request-tranches">
              <TranchesText request={request} />
            </td>
            <td data-testid="fund-request-collateral">
              {request.collateralAmount} {request.collateralAsset}
            </td>
            <td data-testid="fund-request-limit">
              {request.creditLimit} {request.asset}
            </td>
            <td data-testid="fund-request-ratings">
              <RatingsText request={request} separator=" · " />
            </td>
            <td>{formatEpochMs(request.publishedAtMs)}</td>
            <td>
              <Link to={recordTo(request.id)} onClick={() => setNotice(null)}>
                {t('admin.loans.open')}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
