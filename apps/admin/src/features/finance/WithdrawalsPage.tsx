import {
  type ContractData,
  completeWithdrawalContract,
  decideWithdrawalContract,
  failWithdrawalContract,
  getStaffWithdrawalContract,
  listStaffWithdrawalsContract,
  withdrawalStatuses,
} from '@keel/contracts';
import { useStaff } from '../../app/staff.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useMoneyAction } from '../../shared/money-action.ts';
import {
  ApprovalsCell,
  DecisionPanel,
  Field,
  financeRecordRoute,
  FinanceQueue,
  isOwnFirstApproval,
  MakerChecker,
  RecordDetail,
  Short,
  useConfirmation,
} from './finance-shared.tsx';

type Withdrawal = ContractData<typeof listStaffWithdrawalsContract>['items'][number];
type WithdrawalStatus = Withdrawal['status'];

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
 * failed with a reason (the held amount and fee return to the user). Both forms are shown at once,
 * each checked by its contract's body; each asks in a dialog naming the amounts and the user
 * before it acts.
 */
function BroadcastPanel({
  item,
  busy,
  onComplete,
  onFail,
}: {
  item: Withdrawal;
  busy: boolean;
  onComplete: (txHash: string) => Promise<void>;
  onFail: (reason: string) => Promise<void>;
}) {
  const { t } = useI18n();
  const { ask, dialog } = useConfirmation(busy);
  const named = namedWithdrawal(item);
  const completeForm = useContractForm(bodyOf(completeWithdrawalContract), {
    defaultValues: { txHash: '' },
    messages: { txHash: { too_small: fieldMessage('admin.finance.withdrawals.txHashRequired') } },
  });
  const failForm = useContractForm(bodyOf(failWithdrawalContract), {
    defaultValues: { reason: '' },
    messages: { reason: { too_small: fieldMessage('admin.finance.reasonTooShort') } },
  });

  const complete = completeForm.handleSubmit(({ txHash }) =>
    ask(
      {
        title: t('admin.confirm.withdrawal.complete.title', named),
        text: t('admin.confirm.withdrawal.complete.text', { ...named, txHash }),
        confirmLabel: t('admin.confirm.payOut', named),
      },
      () => onComplete(txHash),
    ),
  );
  const fail = failForm.handleSubmit(({ reason }) =>
    ask(
      {
        title: t('admin.confirm.withdrawal.fail.title', named),
        text: t('admin.confirm.withdrawal.fail.text', { ...named, reason }),
        confirmLabel: t('admin.confirm.returnAmount', named),
        danger: true,
      },
      () => onFail(reason),
    ),
  );

  return (
    <div className="decision">
      {dialog}
      <form onSubmit={complete} noValidate data-testid="broadcast-form">
        <label>
          {t('admin.finance.withdrawals.txHashLabel')}
          <input maxLength={100} autoComplete="off" required aria-describedby="tx-hash-error" {...completeForm.register('txHash')} />
        </label>
        <FieldErrorText error={completeForm.formState.errors.txHash} id="tx-hash-error" />
        <p className="muted">{t('admin.finance.withdrawals.broadcastNote')}</p>
        <div className="row">
          <button type="submit" disabled={busy}>
            {t('admin.finance.withdrawals.recordBroadcast')}
          </button>
        </div>
      </form>
      <form onSubmit={fail} noValidate data-testid="fail-form">
        <label>
          {t('admin.finance.withdrawals.failReasonLabel')}
          <textarea minLength={3} maxLength={500} required aria-describedby="fail-reason-error" {...failForm.register('reason')} />
        </label>
        <FieldErrorText error={failForm.formState.errors.reason} id="fail-reason-error" />
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

/** Every step on a withdrawal changes the queue and the record: both are read again. */
const changes = { invalidates: [listStaffWithdrawalsContract, getStaffWithdrawalContract] };

function WithdrawalDetail({ item, onClose, onChanged }: { item: Withdrawal; onClose: () => void; onChanged: (updated: Withdrawal) => void }) {
  const { t } = useI18n();
  const staff = useStaff();
  const decision = useMoneyAction(decideWithdrawalContract, changes);
  const completion = useMoneyAction(completeWithdrawalContract, changes);
  const failure = useMoneyAction(failWithdrawalContract, changes);
  const busy = decision.busy || completion.busy || failure.busy;
  const params = { withdrawalId: item.id };
  const named = namedWithdrawal(item);

  async function settled(updated: Withdrawal | undefined) {
    if (updated) onChanged(updated);
  }
  const decide = async (body: { decision: 'approve' } | { decision: 'reject'; reason: string }) => settled(await decision.run({ params, body }));

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
      <ErrorAlert error={decision.error ?? completion.error ?? failure.error} />
      {item.status === 'pending' && (
        <DecisionPanel
          kind="withdrawal"
          named={named}
          rejectLabel="admin.confirm.returnAmount"
          decide={decide}
          schema={bodyOf(decideWithdrawalContract)}
          busy={busy}
          approveBlocked={isOwnFirstApproval(item, staff)}
          approveNote={t('admin.finance.withdrawals.approveNote', { amount: item.amount, asset: item.asset, fee: item.fee })}
          rejectNote={t('admin.finance.withdrawals.returnNote', { total: item.totalFrozen, asset: item.asset })}
        />
      )}
      {item.status === 'approved' && (
        <BroadcastPanel
          item={item}
          busy={busy}
          onComplete={async (txHash) => settled(await completion.run({ params, body: { txHash } }))}
          onFail={async (reason) => settled(await failure.run({ params, body: { reason } }))}
        />
      )}
    </RecordDetail>
  );
}

/** The read that opens one withdrawal at /admin/withdrawals/:withdrawalId. */
const record = { contract: getStaffWithdrawalContract, param: 'withdrawalId' };

/** /admin/withdrawals/:withdrawalId — one withdrawal, in any state, above the queue it was opened from. */
export const WithdrawalDetailRoute = financeRecordRoute<Withdrawal>(record, WithdrawalDetail);

/**
 * The withdrawal queue (roles admin and finance): withdrawals by state, open ones first-in
 * first-out, filtered by channel and user. A pending withdrawal is approved for broadcast (two
 * different staff members above the threshold) or rejected with a reason; an approved one is
 * completed by recording the broadcast transaction's hash, or marked failed (funds return).
 */
export function WithdrawalsPage() {
  return (
    <FinanceQueue<WithdrawalStatus, Withdrawal>
      kind="withdrawal"
      statuses={withdrawalStatuses}
      list={listStaffWithdrawalsContract}
      record={record}
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
    />
  );
}
