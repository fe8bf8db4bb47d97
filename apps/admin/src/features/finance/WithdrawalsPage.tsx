import {
  type ContractData,
  completeWithdrawalContract,
  decideWithdrawalContract,
  failWithdrawalContract,
  listStaffWithdrawalsContract,
  withdrawalStatuses,
} from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import {
  ApprovalsCell,
  DecisionPanel,
  Field,
  type FinanceStaff,
  FinanceQueue,
  isOwnFirstApproval,
  MakerChecker,
  type QueueQuery,
  RecordDetail,
  type RecordDetailProps,
  Short,
  useConfirmation,
  useStaffAction,
} from './finance-shared.tsx';

type Withdrawal = ContractData<typeof listStaffWithdrawalsContract>['items'][number];
type WithdrawalStatus = Withdrawal['status'];

const listWithdrawals = (query: QueueQuery<WithdrawalStatus>) => api(listStaffWithdrawalsContract, { query });

/** Pending and approved withdrawals still wait their turn: their tables show the queue position. */
const isOpen = (status: WithdrawalStatus) => status === 'pending' || status === 'approved';

/** What every confirmation of a step on this withdrawal names: the record, the amounts, the user, the address. */
function namedWithdrawal(item: Withdrawal) {
  return {
    id: item.id,
    amount: item.amount,
    fee: item.fee,
    total: item.totalFrozen,
    asset: item.asset,
    address: item.address,
    user: `${item.userName} (#${item.userId})`,
  };
}

/**
 * An approved withdrawal: record the hash of the broadcast transaction (completes it), or mark it
 * failed with a reason (the held amount and fee return to the user). Both forms are shown at once;
 * each asks in a dialog naming the amounts and the user before it acts.
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
  onComplete: (txHash: string) => Promise<void>;
  onFail: (reason: string) => Promise<void>;
  onInvalid: (message: string) => void;
}) {
  const { t } = useI18n();
  const [txHash, setTxHash] = useState('');
  const [failReason, setFailReason] = useState('');
  const { ask, dialog } = useConfirmation(busy);
  const named = namedWithdrawal(item);

  function complete(event: FormEvent) {
    event.preventDefault();
    const hash = txHash.trim();
    if (hash === '') return onInvalid(t('admin.finance.withdrawals.txHashRequired'));
    ask(
      {
        title: t('admin.confirm.withdrawal.complete.title', named),
        text: t('admin.confirm.withdrawal.complete.text', { ...named, txHash: hash }),
        confirmLabel: t('admin.confirm.payOut', named),
      },
      () => onComplete(hash),
    );
  }

  function fail(event: FormEvent) {
    event.preventDefault();
    const reason = failReason.trim();
    if (reason.length < 3) return onInvalid(t('admin.finance.reasonTooShort'));
    ask(
      {
        title: t('admin.confirm.withdrawal.fail.title', named),
        text: t('admin.confirm.withdrawal.fail.text', { ...named, reason }),
        confirmLabel: t('admin.confirm.returnAmount', named),
        danger: true,
      },
      () => onFail(reason),
    );
  }

  return (
    <div className="decision">
      {dialog}
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

export function WithdrawalDetail({ item, staff, onClose, onChanged }: RecordDetailProps<Withdrawal>) {
  const { t } = useI18n();
  const { busy, error, setError, run } = useStaffAction();
  const params = { withdrawalId: item.id };

  const named = namedWithdrawal(item);

  async function act(signature: string, call: (idempotencyKey: string) => Promise<Withdrawal>): Promise<void> {
    const updated = await run(`withdrawal:${item.id}:${signature}`, call);
    if (updated) onChanged(updated);
  }

  function decide(body: { decision: 'approve' } | { decision: 'reject'; reason: string }) {
    return act(`decision:${JSON.stringify(body)}`, (idempotencyKey) => api(decideWithdrawalContract, { params, body, idempotencyKey }));
  }

  return (
    <RecordDetail
      kind="withdrawal"
      item={item}
      addressLabel={t('admin.finance.field.destination')}
      onClose={onClose}
      fields={
        <>
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
        </>
      }
    >
      {item.status === 'cancelled' && <p className="muted">{t('admin.finance.withdrawals.cancelledNote')}</p>}
      <MakerChecker record={item} staff={staff} />
      <ErrorAlert message={error} />
      {item.status === 'pending' && (
        <DecisionPanel
          busy={busy}
          approveBlocked={isOwnFirstApproval(item, staff)}
          approveNote={t('admin.finance.withdrawals.approveNote', { amount: item.amount, asset: item.asset, fee: item.fee })}
          rejectNote={t('admin.finance.withdrawals.returnNote', { total: item.totalFrozen, asset: item.asset })}
          confirm={{
            approve: {
              title: t('admin.confirm.withdrawal.approve.title', named),
              text: t('admin.confirm.withdrawal.approve.text', named),
              confirmLabel: t('admin.confirm.approveAmount', named),
            },
            reject: (reason) => ({
              title: t('admin.confirm.withdrawal.reject.title', named),
              text: t('admin.confirm.withdrawal.reject.text', { ...named, reason }),
              confirmLabel: t('admin.confirm.returnAmount', named),
              danger: true,
            }),
          }}
          onApprove={() => decide({ decision: 'approve' })}
          onReject={(reason) => decide({ decision: 'reject', reason })}
          onInvalid={setError}
        />
      )}
      {item.status === 'approved' && (
        <BroadcastPanel
          item={item}
          busy={busy}
          onComplete={(txHash) => act(`complete:${txHash}`, (idempotencyKey) => api(completeWithdrawalContract, { params, body: { txHash }, idempotencyKey }))}
          onFail={(reason) => act(`fail:${reason}`, (idempotencyKey) => api(failWithdrawalContract, { params, body: { reason }, idempotencyKey }))}
          onInvalid={setError}
        />
      )}
    </RecordDetail>
  );
}

/**
 * The withdrawal queue (roles admin and finance): withdrawals by state, open ones first-in
 * first-out, filtered by channel and user. A pending withdrawal is approved for broadcast (two
 * different staff members above the threshold) or rejected with a reason; an approved one is
 * completed by recording the broadcast transaction's hash, or marked failed (funds return).
 */
export function WithdrawalsPage({ staff }: { staff: FinanceStaff }) {
  return (
    <FinanceQueue
      kind="withdrawal"
      statuses={withdrawalStatuses}
      staff={staff}
      fetchPage={listWithdrawals}
      columns={(status) => [
        'admin.finance.col.fee',
        'admin.finance.col.totalFrozen',
        'admin.finance.col.address',
        'admin.finance.col.usdtValue',
        'admin.finance.col.approvals',
        ...(isOpen(status) ? ['admin.finance.col.queue' as const] : []),
        'admin.finance.col.createdAt',
      ]}
      cells={(item, status) => (
        <>
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
        </>
      )}
      Detail={WithdrawalDetail}
    />
  );
}
