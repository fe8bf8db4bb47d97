import {
  type ContractData,
  completeWithdrawalContract,
  decideWithdrawalContract,
  failWithdrawalContract,
  listStaffWithdrawalsContract,
  withdrawalStatuses,
} from '@keel/contracts';
import { type FormEvent, useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { Pager } from '../../shared/Pager.tsx';
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

type Withdrawal = ContractData<typeof listStaffWithdrawalsContract>['items'][number];
type WithdrawalStatus = Withdrawal['status'];

const PAGE_SIZE = 20;

/**
 * An approved withdrawal: record the hash of the broadcast transaction (completes it), or mark it
 * failed with a reason (the held amount and fee return to the user). Both forms are shown at once.
 */
function BroadcastPanel({
  item,
  busy,
  onComplete,
  onFail,
  onInvalid,
}: {
  item: Withdrawal;
  busy: boolean;
  onComplete: (txHash: string) => void;
  onFail: (reason: string) => void;
  onInvalid: (message: string) => void;
}) {
  const { t } = useI18n();
  const [txHash, setTxHash] = useState('');
  const [failReason, setFailReason] = useState('');

  function complete(event: FormEvent) {
    event.preventDefault();
    if (txHash.trim() === '') return onInvalid(t('admin.finance.withdrawals.txHashRequired'));
    onComplete(txHash.trim());
  }

  function fail(event: FormEvent) {
    event.preventDefault();
    if (failReason.trim().length < 3) return onInvalid(t('admin.finance.reasonTooShort'));
    onFail(failReason.trim());
  }

  return (
    <div className="decision">
      <form onSubmit={complete} data-testid="broadcast-form">
        <label>
          {t('admin.finance.withdrawals.txHashLabel')}
          <input name="txHash" value={txHash} onChange={(event) => setTxHash(event.target.value)} maxLength={100} autoComplete="off" required />
        </label>
        <p className="muted">{t('admin.finance.withdrawals.broadcastNote')}</p>
        <div className="row">
          <button type="submit" disabled={busy}>
            {t('admin.finance.withdrawals.recordBroadcast')}
          </button>
        </div>
      </form>
      <form onSubmit={fail} data-testid="fail-form">
        <label>
          {t('admin.finance.withdrawals.failReasonLabel')}
          <textarea
            name="failReason"
            value={failReason}
            onChange={(event) => setFailReason(event.target.value)}
            minLength={3}
            maxLength={500}
            required
          />
        </label>
        <p className="muted">
          {t('admin.finance.reasonShown')} {t('admin.finance.withdrawals.returnNote', { total: item.totalFrozen, asset: item.asset })}
        </p>
        <div className="row">
          <button type="submit" className="danger" disabled={busy}>
            {t('admin.finance.withdrawals.markFailed')}
          </button>
        </div>
      </form>
    </div>
  );
}

export function WithdrawalDetail({
  item,
  staff,
  onClose,
  onChanged,
}: {
  item: Withdrawal;
  staff: FinanceStaff;
  onClose: () => void;
  onChanged: (updated: Withdrawal) => void;
}) {
  const { t } = useI18n();
  const { busy, error, setError, run } = useStaffAction();
  const params = { withdrawalId: item.id };

  async function act(signature: string, call: (idempotencyKey: string) => Promise<Withdrawal>) {
    const updated = await run(`withdrawal:${item.id}:${signature}`, call);
    if (updated) onChanged(updated);
  }

  function decide(body: { decision: 'approve' } | { decision: 'reject'; reason: string }) {
    void act(`decision:${JSON.stringify(body)}`, (idempotencyKey) => api(decideWithdrawalContract, { params, body, idempotencyKey }));
  }

  const heading = t('admin.finance.withdrawals.detail', { id: item.id });
  return (
    <section className="card detail" aria-label={heading} data-testid="withdrawal-detail">
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
        <Field label={t('admin.finance.field.destination')} testId="field-address">
          <code>{item.address}</code>
        </Field>
        <Field label={t('admin.finance.field.addressLabel')}>{item.addressLabel}</Field>
        <Field label={t('admin.finance.col.amount')} testId="field-amount">
          {item.amount} {item.asset}
        </Field>
        <Field label={t('admin.finance.col.fee')} testId="field-fee">
          {item.fee} {item.asset}
        </Field>
        <Field label={t('admin.finance.col.totalFrozen')} testId="field-totalFrozen">
          {item.totalFrozen} {item.asset}
        </Field>
        <Field label={t('admin.finance.col.usdtValue')} testId="field-usdtValue">
          {item.usdtValue} USDT
        </Field>
        <Field label={t('admin.finance.col.queue')} testId="field-queue">
          {item.queuePosition ?? null}
        </Field>
        <Field label={t('admin.finance.col.approvals')} testId="field-approvals">
          <ApprovalsCell record={item} />
        </Field>
        <Field label={t('admin.finance.col.createdAt')}>{formatDateTime(item.createdAt)}</Field>
        <Field label={t('admin.finance.field.decidedAt')}>{item.decidedAt ? formatDateTime(item.decidedAt) : null}</Field>
        <Field label={t('admin.finance.field.decidedBy')} testId="field-decidedBy">
          {item.decidedBy}
        </Field>
        <Field label={t('admin.finance.col.txHash')} testId="field-txHash">
          {item.txHash ? <code>{item.txHash}</code> : null}
        </Field>
        <Field label={t('admin.finance.field.completedAt')}>{item.completedAt ? formatDateTime(item.completedAt) : null}</Field>
        <Field label={t('admin.finance.field.completedBy')} testId="field-completedBy">
          {item.completedBy}
        </Field>
        <Field label={t('admin.finance.field.reason')} testId="field-reason">
          {item.rejectReason}
        </Field>
        <Field label={t('admin.finance.field.holdEntry')} testId="field-holdEntry">
          {item.holdEntryId}
        </Field>
        <Field label={t('admin.finance.field.closingEntry')} testId="field-closingEntry">
          {item.closingEntryId}
        </Field>
      </dl>
      {item.status === 'cancelled' && <p className="muted">{t('admin.finance.withdrawals.cancelledNote')}</p>}
      <MakerChecker record={item} staff={staff} />
      <ErrorAlert message={error} />
      {item.status === 'pending' && (
        <DecisionPanel
          busy={busy}
          approveBlocked={isOwnFirstApproval(item, staff)}
          approveNote={t('admin.finance.withdrawals.approveNote', { amount: item.amount, asset: item.asset, fee: item.fee })}
          rejectNote={t('admin.finance.withdrawals.returnNote', { total: item.totalFrozen, asset: item.asset })}
          onApprove={() => decide({ decision: 'approve' })}
          onReject={(reason) => decide({ decision: 'reject', reason })}
          onInvalid={setError}
        />
      )}
      {item.status === 'approved' && (
        <BroadcastPanel
          item={item}
          busy={busy}
          onComplete={(txHash) =>
            void act(`complete:${txHash}`, (idempotencyKey) => api(completeWithdrawalContract, { params, body: { txHash }, idempotencyKey }))
          }
          onFail={(reason) => void act(`fail:${reason}`, (idempotencyKey) => api(failWithdrawalContract, { params, body: { reason }, idempotencyKey }))}
          onInvalid={setError}
        />
      )}
    </section>
  );
}

/**
 * The withdrawal queue (roles admin and finance): withdrawals by state, open ones first-in
 * first-out, filtered by channel and user. A pending withdrawal is approved for broadcast (two
 * different staff members above the threshold) or rejected with a reason; an approved one is
 * completed by recording the broadcast transaction's hash, or marked failed (funds return).
 */
export function WithdrawalsPage({ staff }: { staff: FinanceStaff }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<WithdrawalStatus>('pending');
  const [filter, setFilter] = useState<QueueFilter>({ channel: undefined, user: undefined });
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Withdrawal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const fetchPage = useCallback(
    () => api(listStaffWithdrawalsContract, { query: { status, page, pageSize: PAGE_SIZE, channel: filter.channel, user: filter.user } }),
    [status, page, filter],
  );
  const { result, error, load, pages } = usePagedList(fetchPage, PAGE_SIZE);

  function changed(updated: Withdrawal) {
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

  const isOpen = (each: WithdrawalStatus) => each === 'pending' || each === 'approved';
  return (
    <section>
      <h2>{t('admin.finance.withdrawals.title')}</h2>
      <p className="muted">{t('admin.finance.withdrawals.intro')}</p>
      <StatusTabs
        statuses={withdrawalStatuses}
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
      {open && <WithdrawalDetail key={open.id} item={open} staff={staff} onClose={() => setOpen(null)} onChanged={changed} />}
      {result && (
        <>
          <p className="muted">{t('admin.finance.withdrawals.total', { total: result.total })}</p>
          {result.items.length === 0 ? (
            <p className="muted" data-testid="withdrawals-empty">
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
                  <th>{t('admin.finance.col.fee')}</th>
                  <th>{t('admin.finance.col.totalFrozen')}</th>
                  <th>{t('admin.finance.col.address')}</th>
                  <th>{t('admin.finance.col.usdtValue')}</th>
                  <th>{t('admin.finance.col.approvals')}</th>
                  {isOpen(status) && <th>{t('admin.finance.col.queue')}</th>}
                  <th>{t('admin.finance.col.createdAt')}</th>
                  <th>{t('admin.finance.status')}</th>
                  <th>{t('admin.finance.col.actions')}</th>
                </tr>
              </thead>
              {result.items.map((item) => (
                // One <tbody> per row, so the row answers to both test ids (by record and by user).
                <tbody key={item.id} data-testid={`withdrawal-row-user-${item.userName}`}>
                  <tr data-testid={`withdrawal-row-${item.id}`}>
                    <td>{item.id}</td>
                    <td>
                      {item.userName} (#{item.userId})
                    </td>
                    <td>{item.channel}</td>
                    <td>
                      {item.amount} {item.asset}
                    </td>
                    <td>{item.fee}</td>
                    <td>{item.totalFrozen}</td>
                    <td>
                      <Short text={item.address} />
                    </td>
                    <td>{item.usdtValue}</td>
                    <td>
                      <ApprovalsCell record={item} />
                    </td>
                    {isOpen(status) && <td data-testid="queue-position">{item.queuePosition ?? ''}</td>}
                    <td>{formatDateTime(item.createdAt)}</td>
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
