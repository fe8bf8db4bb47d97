import { type ContractData, decideVerificationContract, getVerificationContract, listVerificationsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useState } from 'react';
import { Link, Outlet } from 'react-router';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { ReasonForm } from '../../shared/ReasonForm.tsx';
import { RecordRoute, useRecordLinks, useSeedRecord } from '../../shared/record-route.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { useStaffImage } from '../../shared/staff-image.ts';

type Submission = ContractData<typeof listVerificationsContract>['items'][number];
type QueueStatus = Submission['status'];

const PAGE_SIZE = 20;
const LIST_PATH = '/verifications';
/** The read that opens one submission at /admin/verifications/:submissionId. */
const submissionRead = { contract: getVerificationContract, param: 'submissionId' };
const statuses: QueueStatus[] = ['in_review', 'verified', 'rejected'];

const fieldKeys: Record<string, MessageKey> = {
  realName: 'admin.verifications.field.realName',
  country: 'admin.verifications.field.country',
  address: 'admin.verifications.field.address',
  idType: 'admin.verifications.field.idType',
  idNumber: 'admin.verifications.field.idNumber',
  occupation: 'admin.verifications.field.occupation',
  income: 'admin.verifications.field.income',
  contactPhone: 'admin.verifications.field.contactPhone',
};

function useCountryName() {
  const { locale } = useI18n();
  return (code: string) => {
    try {
      const tag = locale === 'fr-pro' ? 'fr' : locale === 'it-pro' ? 'it' : locale;
      return `${new Intl.DisplayNames([tag, 'en'], { type: 'region' }).of(code) ?? code} (${code})`;
    } catch {
      return code;
    }
  };
}

/** One verification photo, fetched with the staff token (each view is written to the audit log). */
function StaffPhoto({ uploadId, label }: { uploadId: string; label: string }) {
  const { t, describeError } = useI18n();
  const { url, error } = useStaffImage(`/home/admin/uploads/${uploadId}`);
  return (
    <figure className="photo">
      <figcaption>{label}</figcaption>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={label} data-testid={`staff-photo-${uploadId}`} />
        </a>
      ) : error ? (
        <ErrorAlert message={describeError(error)} />
      ) : (
        <p className="muted">{t('admin.loading')}</p>
      )}
    </figure>
  );
}

/** Approve, or reject with the reason the user reads (the contract's rule: a rejection needs one). */
function DecisionPanel({ item, onDecided }: { item: Submission; onDecided: () => void }) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  // A decided submission leaves the "in review" queue: the queue and the record are read again.
  const decide = useContractMutation(decideVerificationContract, { invalidates: [listVerificationsContract, getVerificationContract], onSuccess: onDecided });
  const form = useContractForm(bodyOf(decideVerificationContract), { defaultValues: { decision: 'reject', reason: '' } });
  const params = { submissionId: item.id };
  const busy = decide.isPending;

  return (
    <div className="decision">
      <ErrorAlert error={decide.error} />
      {!rejecting ? (
        <div className="row">
          <button type="button" className="secondary" onClick={() => setRejecting(true)} disabled={busy}>
            {t('admin.verifications.reject')}
          </button>
          <button type="button" onClick={() => decide.mutate({ params, body: { decision: 'approve' } })} disabled={busy}>
            {t('admin.verifications.approve')}
          </button>
        </div>
      ) : (
        <ReasonForm
          label={t('admin.verifications.reasonLabel')}
          field={form.register('reason')}
          error={form.formState.errors.reason}
          notes={<p className="muted">{t('admin.verifications.reasonShown')}</p>}
          submitLabel={t('admin.verifications.confirmReject')}
          busy={busy}
          onSubmit={form.handleSubmit((body) => decide.mutate({ params, body }))}
          onCancel={() => setRejecting(false)}
        />
      )}
    </div>
  );
}

function Detail({ item, onClose }: { item: Submission; onClose: () => void }) {
  const { t } = useI18n();
  const countryName = useCountryName();
  const fieldValue = (name: string, value: string) => {
    if (name === 'country') return countryName(value);
    if (name === 'idType') return t(`admin.verifications.idType.${value}` as MessageKey);
    return value;
  };
  const photos: { id: string | null; label: MessageKey }[] = [
    { id: item.photos.front, label: 'admin.verifications.photo.front' },
    { id: item.photos.back, label: 'admin.verifications.photo.back' },
    { id: item.photos.holding, label: 'admin.verifications.photo.holding' },
    { id: item.photos.extra, label: 'admin.verifications.photo.extra' },
  ];
  return (
    <DetailCard
      label={t('admin.verifications.detail')}
      title={t(`admin.verifications.level.${item.level}`)}
      record={item}
      closeLabel={t('admin.verifications.close')}
      onClose={onClose}
      testId="verification-detail"
    >
      <dl className="fields">
        <dt>{t('admin.verifications.status')}</dt>
        <dd>{t(`admin.verifications.status.${item.status}`)}</dd>
        <dt>{t('admin.verifications.submittedAt')}</dt>
        <dd>{formatDateTime(item.submittedAt)}</dd>
        {Object.entries(item.fields).map(([name, value]) => (
          <div key={name} className="contents">
            <dt>{fieldKeys[name] ? t(fieldKeys[name]) : name}</dt>
            <dd data-testid={`field-${name}`}>{fieldValue(name, value)}</dd>
          </div>
        ))}
        {item.reviewedAt && (
          <>
            <dt>{t('admin.verifications.reviewedBy')}</dt>
            <dd>
              {item.reviewedBy ?? ''} · {formatDateTime(item.reviewedAt)}
            </dd>
          </>
        )}
        {item.rejectReason && (
          <>
            <dt>{t('admin.verifications.reason')}</dt>
            <dd>{item.rejectReason}</dd>
          </>
        )}
      </dl>
      <p className="muted">{t('admin.verifications.photosAudited')}</p>
      <div className="photos">
        {photos.map((photo) => (photo.id ? <StaffPhoto key={photo.label} uploadId={photo.id} label={t(photo.label)} /> : null))}
      </div>
      {item.status === 'in_review' && <DecisionPanel item={item} onDecided={onClose} />}
    </DetailCard>
  );
}

/** /admin/verifications/:submissionId — one submission, in any state, above the queue it was opened from. */
export function VerificationDetailRoute() {
  const { close } = useRecordLinks(LIST_PATH);
  return (
    <RecordRoute read={submissionRead} onClose={close}>
      {(item) => <Detail key={item.id} item={item} onClose={close} />}
    </RecordRoute>
  );
}

/**
 * The compliance review queue (roles admin and compliance): submissions by state, oldest first;
 * a submission opens at its own URL (/admin/verifications/12) with the fields and the photos;
 * approve, or reject with the reason the user will read. A decided submission leaves the "in
 * review" queue; every decision and photo view is audited. The state and page are the URL's.
 */
export function VerificationsPage() {
  const { t } = useI18n();
  const { filter, searchFor, list, table } = useListQuery(listVerificationsContract, PAGE_SIZE);
  const { recordTo } = useRecordLinks(LIST_PATH);
  const seed = useSeedRecord(submissionRead);

  return (
    <section>
      <h2>{t('admin.verifications.title')}</h2>
      <StatusTabs
        label={t('admin.verifications.status')}
        statuses={statuses}
        status={filter.status}
        labelOf={(each) => t(`admin.verifications.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <ErrorAlert error={list.error} />
      <Outlet />
      <PagedTable
        {...table}
        total="admin.verifications.total"
        empty={{ text: 'admin.verifications.empty', testId: 'verifications-empty' }}
        columns={[
          'admin.verifications.submittedAt',
          'admin.verifications.user',
          'admin.verifications.levelLabel',
          'admin.verifications.status',
          'admin.users.actions',
        ]}
        row={(item) => (
          <tr data-testid={`verification-row-${item.userName}`}>
            <td>{formatDateTime(item.submittedAt)}</td>
            <td>
              {item.userName} (#{item.userId})
            </td>
            <td>{t(`admin.verifications.level.${item.level}`)}</td>
            <td>{t(`admin.verifications.status.${item.status}`)}</td>
            <td>
              <Link to={recordTo(item.id)} onClick={() => seed(item.id, item)}>
                {t('admin.verifications.open')}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
