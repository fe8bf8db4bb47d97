import { type ContractData, decideVerificationContract, listVerificationsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { Pager } from '../../shared/Pager.tsx';
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
    <section className="card detail" aria-label={t('admin.verifications.detail')} data-testid="verification-detail">
      <div className="row spread">
        <h3>
          {t(`admin.verifications.level.${item.level}`)} · {item.userName} (#{item.userId})
        </h3>
        <button type="button" className="secondary" onClick={onClose}>
          {t('admin.verifications.close')}
        </button>
      </div>
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
    </section>
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
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Submission | null>(null);

  const fetchPage = useCallback(() => api(listVerificationsContract, { query: { status, page, pageSize: PAGE_SIZE } }), [status, page]);
  const { result, error, load, pages } = usePagedList(fetchPage, PAGE_SIZE);

  return (
    <section>
      <h2>{t('admin.verifications.title')}</h2>
      <div className="toolbar" role="tablist" aria-label={t('admin.verifications.status')}>
        {statuses.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={each === status}
            className={each === status ? 'tab active' : 'tab'}
            onClick={() => {
              setStatus(each);
              setPage(1);
              setOpen(null);
            }}
          >
            {t(`admin.verifications.status.${each}`)}
          </button>
        ))}
      </div>
      <ErrorAlert message={error} />
      {open && (
        <Detail
          key={open.id}
          item={open}
          onClose={() => setOpen(null)}
          onDecided={() => {
            setOpen(null);
            void load();
          }}
        />
      )}
      {result && (
        <>
          <p className="muted">{t('admin.verifications.total', { total: result.total })}</p>
          {result.items.length === 0 ? (
            <p className="muted" data-testid="verifications-empty">
              {t('admin.verifications.empty')}
            </p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>{t('admin.verifications.submittedAt')}</th>
                  <th>{t('admin.verifications.user')}</th>
                  <th>{t('admin.verifications.levelLabel')}</th>
                  <th>{t('admin.verifications.status')}</th>
                  <th>{t('admin.users.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {result.items.map((item) => (
                  <tr key={item.id} data-testid={`verification-row-${item.userName}`}>
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
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
