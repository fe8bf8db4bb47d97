import { decideLoanContract, getStaffLoanContract, listStaffLoansContract, loanStatuses, type StaffLoanView } from '@keel/contracts';
import { type ReactNode, useState } from 'react';
import { Link, Outlet, useOutletContext } from 'react-router';
import { useStaff } from '../../app/staff.ts';
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
import { RecordRoute, useRecordLinks, useSeedRecord } from '../../shared/record-route.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { useStaffImage } from '../../shared/staff-image.ts';
import { decisionRefusalKey } from './loan-problems.ts';
import { shortPercent } from './loans-shared.tsx';

type LoanStatus = StaffLoanView['status'];

const PAGE_SIZE = 20;
const LIST_PATH = '/loans';
/** The read that opens one loan at /admin/loans/:loanId. */
const loanRead = { contract: getStaffLoanContract, param: 'loanId' };
/** Pending first: the review queue the page opens on (oldest first, as the server lists it). */
const statuses: readonly LoanStatus[] = loanStatuses;

/** What the queue gives the loan opened under it: where a decision is reported, how to close it. */
type LoansOutlet = { decided: (loan: StaffLoanView) => void; close: () => void };

/** The borrower as anyone else sees them (ADR 0023), with the id staff search by. */
const borrowerOf = (loan: StaffLoanView) => `${loan.userName} (#${loan.userId})`;

/** The holding-ID photo, fetched with the staff token as a blob (each view is written to the audit log). */
function HoldingPhoto({ loan }: { loan: StaffLoanView }) {
  const { t, describeError } = useI18n();
  const { url, error } = useStaffImage(loan.holdingPhotoUrl);
  const label = t('admin.loans.photo.holding');
  return (
    <figure className="photo">
      <figcaption>{label}</figcaption>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={label} data-testid="loan-holding-photo" />
        </a>
      ) : error ? (
        <ErrorAlert message={describeError(error)} />
      ) : (
        <p className="muted">{t('admin.loading')}</p>
      )}
    </figure>
  );
}

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

/** The loan-to-value: the loan's own once it runs, and the product's limit for the pledged asset. */
function LtvText({ loan }: { loan: StaffLoanView }) {
  const { t } = useI18n();
  const limit = shortPercent(loan.collateralLtvPercent);
  return <>{loan.ltvPercent === null ? t('admin.loans.ltvLimit', { limit }) : t('admin.loans.ltvValue', { ltv: shortPercent(loan.ltvPercent), limit })}</>;
}

/** The reviews so far, oldest first: who approved or rejected, when, and a rejection's reason. */
function Reviews({ loan }: { loan: StaffLoanView }) {
  const { t } = useI18n();
  if (loan.reviews.length === 0) {
    return (
      <p className="muted" data-testid="loan-reviews-none">
        {t('admin.loans.reviews.none')}
      </p>
    );
  }
  return (
    <ul data-testid="loan-reviews">
      {loan.reviews.map((review) => (
        <li key={`${review.staff}-${review.atMs}`} data-testid={`loan-review-${review.staff}`}>
          {t(review.decision === 'approve' ? 'admin.loans.reviews.approved' : 'admin.loans.reviews.rejected', {
            staff: review.staff,
            time: formatEpochMs(review.atMs),
          })}
          {review.reason && <span className="muted"> — {review.reason}</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * Approve (asked first: the principal is paid from the lending treasury) or reject with the reason
 * the borrower reads (the contract's rule: a rejection needs one; the collateral returns). A member
 * who gave the first of two approvals cannot give the second. Refusals are the catalogue's message
 * in the member's language, with what it means here.
 */
function DecisionPanel({ loan, onDecided }: { loan: StaffLoanView; onDecided: (loan: StaffLoanView) => void }) {
  const { t } = useI18n();
  const me = useStaff();
  const [rejecting, setRejecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const decide = useContractMutation(decideLoanContract, {
    invalidates: [listStaffLoansContract, getStaffLoanContract],
    onSuccess: (updated) => {
      setConfirming(false);
      setRejecting(false);
      onDecided(updated);
    },
  });
  const form = useContractForm(bodyOf(decideLoanContract), {
    defaultValues: { decision: 'reject', reason: '' },
    messages: { reason: { custom: fieldMessage('admin.loans.reasonRequired') } },
  });
  const params = { loanId: loan.id };
  const busy = decide.isPending;
  const ownApproval = loan.reviews.some((review) => review.staff === me.username && review.decision === 'approve');
  const refusal = decisionRefusalKey(decide.error);
  const named = { loanNo: loan.loanNo, amount: loan.amount, user: borrowerOf(loan) };

  return (
    <div className="decision" data-testid="loan-decision">
      {loan.approvalsRequired === 2 && (
        <p className="notice" data-testid="loan-two-approvals">
          {t('admin.loans.needsTwo', { count: loan.approvals, required: loan.approvalsRequired })}
        </p>
      )}
      {ownApproval && (
        <p className="notice" data-testid="loan-own-approval">
          {t('admin.loans.ownApproval')}
        </p>
      )}
      <ErrorAlert error={decide.error} />
      {refusal && (
        <p className="notice" data-testid="loan-refusal">
          {t(refusal)}
        </p>
      )}
      {!rejecting ? (
        <div className="row">
          <button type="button" className="secondary" onClick={() => setRejecting(true)} disabled={busy}>
            {t('admin.loans.reject')}
          </button>
          <button type="button" onClick={() => setConfirming(true)} disabled={busy || ownApproval} title={ownApproval ? t('admin.loans.ownApproval') : undefined}>
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
          title={t('admin.loans.confirm.approveTitle', named)}
          text={t(loan.approvals + 1 < loan.approvalsRequired ? 'admin.loans.confirm.firstApprovalText' : 'admin.loans.confirm.approveText', named)}
          confirmLabel={t('admin.loans.confirm.approveLabel', named)}
          busy={busy}
          error={null}
          onCancel={() => setConfirming(false)}
          onConfirm={() => decide.mutate({ params, body: { decision: 'approve' } }, { onSettled: () => setConfirming(false) })}
        />
      )}
    </div>
  );
}

/** One loan: the application, the borrower's credit now, the photo, the reviews, and the decision while pending. */
function LoanDetail({ loan, onClose, onDecided }: { loan: StaffLoanView; onClose: () => void; onDecided: (loan: StaffLoanView) => void }) {
  const { t } = useI18n();
  const title = t('admin.loans.detail', { loanNo: loan.loanNo });
  const price = loan.appliedPrice;
  return (
    <DetailCard label={title} title={title} closeLabel={t('admin.loans.close')} onClose={onClose} testId="loan-detail">
      <dl className="fields">
        <Field label={t('admin.loans.statusLabel')} testId="loan-field-status">
          {t(`admin.loans.status.${loan.status}`)}
        </Field>
        <Field label={t('admin.loans.col.user')} testId="loan-field-user">
          {borrowerOf(loan)}
        </Field>
        <Field label={t('admin.loans.col.product')} testId="loan-field-product">
          {loan.productName} · {t('admin.loans.termsVersion', { version: loan.termsVersion })}
        </Field>
        <Field label={t('admin.loans.col.amount')} testId="loan-field-amount">
          {loan.amount} {loan.asset}
        </Field>
        <Field label={t('admin.loans.field.terms')} testId="loan-field-terms">
          {t('admin.loans.termsLine', { days: loan.cycleDays, rate: shortPercent(loan.dailyRatePercent) })}
        </Field>
        <Field label={t('admin.loans.field.totalDue')} testId="loan-field-totalDue">
          {t('admin.loans.totalDue', { total: loan.totalDue, interest: loan.interest })}
        </Field>
        <Field label={t('admin.loans.col.collateral')} testId="loan-field-collateral">
          {loan.collateralAmount} {loan.collateralAsset}
        </Field>
        <Field label={t('admin.loans.field.appliedPrice')} testId="loan-field-price">
          {price.price === null
            ? t('admin.loans.unpriced')
            : price.tickId === null
              ? t('admin.loans.priceFixed', { price: price.price })
              : t('admin.loans.price', { price: price.price, tick: price.tickId })}
        </Field>
        <Field label={t('admin.loans.col.ltv')} testId="loan-field-ltv">
          <LtvText loan={loan} />
        </Field>
        <Field label={t('admin.loans.field.thresholds')}>
          {t('admin.loans.thresholds', { marginCall: shortPercent(loan.marginCallLtvPercent), liquidation: shortPercent(loan.liquidationLtvPercent) })}
        </Field>
        <Field label={t('admin.loans.field.appliedAt')}>{formatEpochMs(loan.appliedAtMs)}</Field>
        <Field label={t('admin.loans.col.credit')} testId="loan-field-credit">
          {t('admin.loans.creditDetail', {
            available: loan.credit.available,
            cap: loan.credit.cap,
            committed: loan.credit.committed,
            score: loan.credit.score,
            tier: loan.credit.tier,
          })}
        </Field>
        <Field label={t('admin.loans.col.approvals')} testId="loan-field-approvals">
          {t('admin.loans.approvalsCount', { count: loan.approvals, required: loan.approvalsRequired })}
        </Field>
        <Field label={t('admin.loans.field.owedNow')} testId="loan-field-owed">
          {loan.owedNow === null ? null : `${loan.owedNow} ${loan.asset}`}
        </Field>
        <Field label={t('admin.loans.field.dueAt')}>{loan.dueAtMs === null ? null : formatEpochMs(loan.dueAtMs)}</Field>
        <Field label={t('admin.loans.field.rejectReason')} testId="loan-field-reason">
          {loan.rejectReason}
        </Field>
      </dl>
      <h4>{t('admin.loans.reviews.title')}</h4>
      <Reviews loan={loan} />
      <p className="muted">{t('admin.loans.photoAudited')}</p>
      <div className="photos">
        <HoldingPhoto loan={loan} />
      </div>
      {loan.status === 'pending' && <DecisionPanel loan={loan} onDecided={onDecided} />}
    </DetailCard>
  );
}

/** /admin/loans/:loanId — one loan, in any state, above the queue it was opened from. */
export function LoanDetailRoute() {
  const { decided, close } = useOutletContext<LoansOutlet>();
  return (
    <RecordRoute read={loanRead} onClose={close}>
      {(loan) => <LoanDetail key={loan.id} loan={loan} onClose={close} onDecided={decided} />}
    </RecordRoute>
  );
}

/**
 * Loan applications for compliance review (issue 18, ADR 0036; role compliance): loans by state,
 * pending first and oldest first, each with the borrower's credit as the published policy computes
 * it now; a loan opens at its own URL (/admin/loans/12) with the holding-ID photo and the reviews;
 * approve (above the published amount, two different members), or reject with the reason the
 * borrower reads. No staff action sets a credit limit, a score, a price or an amount owed.
 */
export function LoansPage() {
  const { t } = useI18n();
  const { filter, searchFor, list, table } = useListQuery(listStaffLoansContract, PAGE_SIZE);
  const status = filter.status as LoanStatus;
  const { recordTo, close } = useRecordLinks(LIST_PATH);
  const seed = useSeedRecord(loanRead);
  // A notice belongs to the tab it was given in.
  const [notice, setNotice] = useState<{ status: LoanStatus; text: string } | null>(null);

  function decided(loan: StaffLoanView) {
    if (loan.status === 'pending') {
      setNotice({ status, text: t('admin.loans.notice.firstApproval', { loanNo: loan.loanNo }) });
    } else {
      setNotice({ status, text: t('admin.loans.notice.decided', { loanNo: loan.loanNo, status: t(`admin.loans.status.${loan.status}`) }) });
      close();
    }
  }

  return (
    <section data-testid="loans-page">
      <h2>{t('admin.loans.title')}</h2>
      <p className="muted">{t('admin.loans.intro')}</p>
      <StatusTabs
        label={t('admin.loans.statusLabel')}
        statuses={statuses}
        status={status}
        labelOf={(each) => t(`admin.loans.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.loans.refresh')}
        </button>
      </div>
      <ErrorAlert error={list.error} />
      {notice?.status === status && (
        <p className="notice" role="status" data-testid="loans-notice">
          {notice.text}
        </p>
      )}
      <Outlet context={{ decided, close } satisfies LoansOutlet} />
      <PagedTable<StaffLoanView>
        {...table}
        total="admin.loans.total"
        empty={{ text: 'admin.loans.empty', testId: 'loans-empty' }}
        columns={[
          'admin.loans.col.loanNo',
          'admin.loans.col.user',
          'admin.loans.col.amount',
          'admin.loans.col.product',
          'admin.loans.col.collateral',
          'admin.loans.col.ltv',
          'admin.loans.col.credit',
          'admin.loans.col.approvals',
          'admin.loans.col.applied',
          'admin.loans.col.actions',
        ]}
        row={(loan) => (
          <tr data-testid={`loan-row-${loan.loanNo}`}>
            <td data-testid="loan-no">{loan.loanNo}</td>
            <td data-testid="loan-user">{borrowerOf(loan)}</td>
            <td data-testid="loan-amount">
              {loan.amount} {loan.asset}
            </td>
            <td data-testid="loan-product">{loan.productName}</td>
            <td data-testid="loan-collateral">
              {loan.collateralAmount} {loan.collateralAsset}
            </td>
            <td data-testid="loan-ltv">
              <LtvText loan={loan} />
            </td>
            <td data-testid="loan-credit">{t('admin.loans.credit', { available: loan.credit.available, score: loan.credit.score })}</td>
            <td data-testid="loan-approvals">{t('admin.loans.approvalsCount', { count: loan.approvals, required: loan.approvalsRequired })}</td>
            <td>{formatEpochMs(loan.appliedAtMs)}</td>
            <td>
              <Link
                to={recordTo(loan.id)}
                onClick={() => {
                  seed(loan.id, loan);
                  setNotice(null);
                }}
              >
                {t('admin.loans.open')}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
