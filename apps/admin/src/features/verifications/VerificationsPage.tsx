import { type ContractData, decideVerificationContract, listVerificationsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { useStaffImage } from '../../shared/staff-image.ts';
import { usePagedList } from '../../shared/usePagedList.ts';

type Submission = ContractData<typeof listVerificationsContract>['items'][number];
type QueueStatus = Submission['status'];

const PAGE_SIZE = 20;
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

function Detail({ item, onClose, onDecided }: { item: Submission; onClose: () => void; onDecided: () => void }) {
  const { t, describeError } = useI18n();
  const countryName = useCountryName();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function decide(decision: 'approve' | 'reject') {
    setBusy(true);
    setError(null);
    try {
      await api(decideVerificationContract, {
        params: { submissionId: item.id },
        body: decision === 'approve' ? { decision } : { decision, reason: reason.trim() },
      });
      onDecided();
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  }

  function reject(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') return setError(t('admin.verifications.reasonRequired'));
    void decide('reject');
  }

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
      <ErrorAlert message={error} />
      {item.status === 'in_review' && (
        <div className="decision">
          {!rejecting ? (
            <div className="row">
              <button type="button" className="secondary" onClick={() => setRejecting(true)} disabled={busy}>
                {t('admin.verifications.reject')}
              </button>
              <button type="button" onClick={() => void decide('approve')} disabled={busy}>
                {t('admin.verifications.approve')}
              </button>
            </div>
          ) : (
            <form onSubmit={reject}>
              <label>
                {t('admin.verifications.reasonLabel')}
                <textarea name="reason" value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} required />
              </label>
              <p className="muted">{t('admin.verifications.reasonShown')}</p>
              <div className="row">
                <button type="button" className="secondary" onClick={() => setRejecting(false)} disabled={busy}>
                  {t('admin.common.cancel')}
                </button>
                <button type="submit" className="danger" disabled={busy}>
                  {t('admin.verifications.confirmReject')}
                </button>
              </div>
            </form>
          )}
        </div>
      )}
    </DetailCard>
  );
}

/**
 * The compliance review queue (roles admin and compliance): submissions by state, oldest first;
 * a detail with the fields and the photos; approve, or reject with the reason the user will read.
 * A decided submission leaves the "in review" queue; every decision and photo view is audited.
 */
export function VerificationsPage() {
  const { t } = useI18n();
  const [status, setStatus] = useState<QueueStatus>('in_review');
  const [open, setOpen] = useState<Submission | null>(null);

  const fetchPage = useCallback((page: number) => api(listVerificationsContract, { query: { status, page, pageSize: PAGE_SIZE } }), [status]);
  const list = usePagedList(fetchPage, PAGE_SIZE);

  return (
    <section>
      <h2>{t('admin.verifications.title')}</h2>
      <StatusTabs
        label={t('admin.verifications.status')}
        statuses={statuses}
        status={status}
        labelOf={(each) => t(`admin.verifications.status.${each}`)}
        onChange={(each) => {
          setStatus(each);
          list.setPage(1);
          setOpen(null);
        }}
      />
      <ErrorAlert message={list.error} />
      {open && (
        <Detail
          key={open.id}
          item={open}
          onClose={() => setOpen(null)}
          onDecided={() => {
            setOpen(null);
            void list.load();
          }}
        />
      )}
      <PagedTable
        list={list}
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
              <button type="button" onClick={() => setOpen(item)}>
                {t('admin.verifications.open')}
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
