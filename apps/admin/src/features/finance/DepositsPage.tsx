import { type ContractData, decideDepositContract, depositStatuses, listStaffDepositsContract } from '@keel/contracts';
import { useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { Pager } from '../../shared/Pager.tsx';
import { useStaffImage } from '../../shared/staff-image.ts';
import { usePagedList } from '../../shared/usePagedList.ts';
import {
  ApprovalsCell,
  DecisionPanel,
  Field,
  type FinanceStaff,
  isOwnFirstApproval,
  MakerChecker,
  type QueueFilter,
  QueueFilters,
  Short,
  StatusTabs,
  useStaffAction,
} from './finance-shared.tsx';

type Deposit = ContractData<typeof listStaffDepositsContract>['items'][number];
type DepositStatus = Deposit['status'];

const PAGE_SIZE = 20;

/** How a deposit is checked: by staff, or on chain with its confirmation progress. */
function ReviewMode({ item }: { item: Deposit }) {
  const { t } = useI18n();
  if (item.review === 'staff') return <>{t('admin.finance.review.staff')}</>;
  return <>{t('admin.finance.review.chain', { seen: item.confirmations?.seen ?? 0, required: item.confirmations?.required ?? '—' })}</>;
}

/** The screenshot the user attached, fetched with the staff token (each view is audited). */
function DepositProof({ depositId }: { depositId: string }) {
  const { t, describeError } = useI18n();
  const label = t('admin.finance.field.proof');
  const { url, error } = useStaffImage(`/home/admin/deposits/${encodeURIComponent(depositId)}/proof`);
  return (
    <figure className="photo">
      <figcaption>{label}</figcaption>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={label} data-testid="deposit-proof" />
        </a>
      ) : error ? (
        <ErrorAlert message={describeError(error)} />
      ) : (
        <p className="muted">{t('admin.loading')}</p>
      )}
    </figure>
  );
}

export function DepositDetail({
  item,
  staff,
  onClose,
  onChanged,
}: {
  item: Deposit;
  staff: FinanceStaff;
  onClose: () => void;
  onChanged: (updated: Deposit) => void;
}) {
  const { t } = useI18n();
  const { busy, error, setError, run } = useStaffAction();

  async function decide(body: { decision: 'approve' } | { decision: 'reject'; reason: string }) {
    const updated = await run(`deposit:${item.id}:${JSON.stringify(body)}`, (idempotencyKey) =>
      api(decideDepositContract, { params: { depositId: item.id }, body, idempotencyKey }),
    );
    if (updated) onChanged(updated);
  }

  const heading = t('admin.finance.deposits.detail', { id: item.id });
  const staffDecides = item.review === 'staff';
  return (
    <section className="card detail" aria-label={heading} data-testid="deposit-detail">
      <div className="row spread">
        <h3>
          {heading} · {item.userName} (#{item.userId})
        </h3>
        <button type="button" className="secondary" onClick={onClose}>
          {t('admin.finance.close')}
        </button>
      </div>
      <dl className="fields">
        <Field label={t('admin.finance.status')} testId="field-status">
          {t(`admin.finance.status.${item.status}`)}
        </Field>
        <Field label={t('admin.finance.col.user')} testId="field-user">
          {item.userName} (#{item.userId})
        </Field>
        <Field label={t('admin.finance.col.channel')} testId="field-channel">
          {item.channel}
        </Field>
        <Field label={t('admin.finance.field.asset')}>{item.asset}</Field>
        <Field label={t('admin.finance.field.network')}>{item.network}</Field>
        <Field label={t('admin.finance.field.depositAddress')} testId="field-address">
          <code>{item.address}</code>
        </Field>
        <Field label={t('admin.finance.col.amount')} testId="field-amount">
          {item.amount} {item.asset}
        </Field>
        <Field label={t('admin.finance.col.usdtValue')} testId="field-usdtValue">
          {item.usdtValue} USDT
        </Field>
        <Field label={t('admin.finance.col.txHash')} testId="field-txHash">
          <code>{item.txHash}</code>
        </Field>
        <Field label={t('admin.finance.col.review')} testId="field-review">
          <ReviewMode item={item} />
        </Field>
        <Field label={t('admin.finance.col.createdAt')}>{formatDateTime(item.createdAt)}</Field>
        <Field label={t('admin.finance.col.approvals')} testId="field-approvals">
          <ApprovalsCell record={item} />
        </Field>
        <Field label={t('admin.finance.field.decidedAt')}>{item.decidedAt ? formatDateTime(item.decidedAt) : null}</Field>
        <Field label={t('admin.finance.field.decidedBy')} testId="field-decidedBy">
          {item.decidedBy}
        </Field>
        <Field label={t('admin.finance.field.reason')} testId="field-reason">
          {item.rejectReason}
        </Field>
        <Field label={t('admin.finance.field.entry')} testId="field-entry">
          {item.entryId}
        </Field>
      </dl>
      {item.proofUploadId ? (
        <>
          <p className="muted">{t('admin.finance.proofAudited')}</p>
          <div className="photos">
            <DepositProof depositId={item.id} />
          </div>
        </>
      ) : (
        <p className="muted">{t('admin.finance.noProof')}</p>
      )}
      {!staffDecides && (
        <p className="notice" data-testid="chain-review">
          {t('admin.finance.chainReviewed', { seen: item.confirmations?.seen ?? 0, required: item.confirmations?.required ?? '—' })}
        </p>
      )}
      <MakerChecker record={item} staff={staff} />
      <ErrorAlert message={error} />
      {staffDecides && item.status === 'pending' && (
        <DecisionPanel
          busy={busy}
          approveBlocked={isOwnFirstApproval(item, staff)}
          approveNote={t('admin.finance.deposits.approveNote', { amount: item.amount, asset: item.asset })}
          onApprove={() => void decide({ decision: 'approve' })}
          onReject={(reason) => void decide({ decision: 'reject', reason })}
          onInvalid={setError}
        />
      )}
    </section>
  );
}

/**
 * The deposit queue (roles admin and finance): deposit requests by state, pending ones first-in
 * first-out, filtered by channel and user. Staff approve (crediting exactly what the user reported,
 * through the ledger) or reject with a reason the user reads; above the two-person threshold a
 * second staff member approves. On-chain-checked deposits are credited without a staff step.
 */
export function DepositsPage({ staff }: { staff: FinanceStaff }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<DepositStatus>('pending');
  const [filter, setFilter] = useState<QueueFilter>({ channel: undefined, user: undefined });
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Deposit | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const fetchPage = useCallback(
    () => api(listStaffDepositsContract, { query: { status, page, pageSize: PAGE_SIZE, channel: filter.channel, user: filter.user } }),
    [status, page, filter],
  );
  const { result, error, load, pages } = usePagedList(fetchPage, PAGE_SIZE);

  function changed(updated: Deposit) {
    // Still pending after an approval: the first of two was recorded; the detail stays open.
    if (updated.status === status) {
      setOpen(updated);
      setNotice(t('admin.finance.notice.firstApproval', { id: updated.id }));
    } else {
      setOpen(null);
      setNotice(t('admin.finance.notice.decided', { id: updated.id, status: t(`admin.finance.status.${updated.status}`) }));
    }
    void load();
  }

  return (
    <section>
      <h2>{t('admin.finance.deposits.title')}</h2>
      <p className="muted">{t('admin.finance.deposits.intro')}</p>
      <StatusTabs
        statuses={depositStatuses}
        status={status}
        onChange={(each) => {
          setStatus(each);
          setPage(1);
          setOpen(null);
          setNotice(null);
        }}
      />
      <QueueFilters
        onApply={(next) => {
          setFilter(next);
          setPage(1);
        }}
        onRefresh={() => void load()}
      />
      <ErrorAlert message={error} />
      {notice && (
        <p className="notice" role="status" data-testid="finance-notice">
          {notice}
        </p>
      )}
      {open && (
        <DepositDetail
          key={open.id}
          item={open}
          staff={staff}
          onClose={() => setOpen(null)}
          onChanged={changed}
        />
      )}
      {result && (
        <>
          <p className="muted">{t('admin.finance.deposits.total', { total: result.total })}</p>
          {result.items.length === 0 ? (
            <p className="muted" data-testid="deposits-empty">
              {t('admin.finance.empty')}
            </p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>{t('admin.finance.col.id')}</th>
                  <th>{t('admin.finance.col.user')}</th>
                  <th>{t('admin.finance.col.channel')}</th>
                  <th>{t('admin.finance.col.amount')}</th>
                  <th>{t('admin.finance.col.usdtValue')}</th>
                  <th>{t('admin.finance.col.txHash')}</th>
                  <th>{t('admin.finance.col.review')}</th>
                  <th>{t('admin.finance.col.createdAt')}</th>
                  <th>{t('admin.finance.col.approvals')}</th>
                  <th>{t('admin.finance.status')}</th>
                  <th>{t('admin.finance.col.actions')}</th>
                </tr>
              </thead>
              {result.items.map((item) => (
                // One <tbody> per row, so the row answers to both test ids (by record and by user).
                <tbody key={item.id} data-testid={`deposit-row-user-${item.userName}`}>
                  <tr data-testid={`deposit-row-${item.id}`}>
                    <td>{item.id}</td>
                    <td>
                      {item.userName} (#{item.userId})
                    </td>
                    <td>{item.channel}</td>
                    <td>
                      {item.amount} {item.asset}
                    </td>
                    <td>{item.usdtValue}</td>
                    <td>
                      <Short text={item.txHash} />
                    </td>
                    <td>
                      <ReviewMode item={item} />
                    </td>
                    <td>{formatDateTime(item.createdAt)}</td>
                    <td>
                      <ApprovalsCell record={item} />
                    </td>
                    <td>
                      <span className={`status status-${item.status}`}>{t(`admin.finance.status.${item.status}`)}</span>
                    </td>
                    <td>
                      <button
                        type="button"
                        onClick={() => {
                          setOpen(item);
                          setNotice(null);
                        }}
                      >
                        {t('admin.finance.open')}
                      </button>
                    </td>
                  </tr>
                </tbody>
              ))}
            </table>
          )}
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
