import { type ContractData, decideDepositContract, depositStatuses, getStaffDepositContract, listStaffDepositsContract } from '@keel/contracts';
import { useStaff } from '../../app/staff.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { bodyOf } from '../../shared/forms.tsx';
import { useMoneyAction } from '../../shared/money-action.ts';
import { useStaffImage } from '../../shared/staff-image.ts';
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
} from './finance-shared.tsx';

type Deposit = ContractData<typeof listStaffDepositsContract>['items'][number];

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

function DepositDetail({ item, onClose, onChanged }: { item: Deposit; onClose: () => void; onChanged: (updated: Deposit) => void }) {
  const { t } = useI18n();
  const staff = useStaff();
  // A decision changes the queue and the record: both are read again.
  const decision = useMoneyAction(decideDepositContract, { invalidates: [listStaffDepositsContract, getStaffDepositContract] });

  async function decide(body: { decision: 'approve' } | { decision: 'reject'; reason: string }): Promise<void> {
    const updated = await decision.run({ params: { depositId: item.id }, body });
    if (updated) onChanged(updated);
  }

  const staffDecides = item.review === 'staff';
  const named = { id: item.id, amount: item.amount, asset: item.asset, usdt: item.usdtValue, user: `${item.userName} (#${item.userId})` };
  return (
    <RecordDetail
      kind="deposit"
      item={item}
      addressLabel={t('admin.finance.field.depositAddress')}
      onClose={onClose}
      fields={
        <>
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
        </>
      }
    >
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
      <ErrorAlert error={decision.error} />
      {staffDecides && item.status === 'pending' && (
        <DecisionPanel
          kind="deposit"
          named={named}
          rejectLabel="admin.confirm.rejectAmount"
          decide={decide}
          schema={bodyOf(decideDepositContract)}
          busy={decision.busy}
          approveBlocked={isOwnFirstApproval(item, staff)}
          approveNote={t('admin.finance.deposits.approveNote', { amount: item.amount, asset: item.asset })}
        />
      )}
    </RecordDetail>
  );
}

/** The read that opens one deposit at /admin/deposits/:depositId. */
const record = { contract: getStaffDepositContract, param: 'depositId' };

/** /admin/deposits/:depositId — one deposit, in any state, above the queue it was opened from. */
export const DepositDetailRoute = financeRecordRoute<Deposit>(record, DepositDetail);

/**
 * The deposit queue (roles admin and finance): deposit requests by state, pending ones first-in
 * first-out, filtered by channel and user. Staff approve (crediting exactly what the user reported,
 * through the ledger) or reject with a reason the user reads; above the two-person threshold a
 * second staff member approves. On-chain-checked deposits are credited without a staff step.
 */
export function DepositsPage() {
  return (
    <FinanceQueue<Deposit['status'], Deposit>
      kind="deposit"
      statuses={depositStatuses}
      list={listStaffDepositsContract}
      record={record}
      columns={() => [
        'admin.finance.col.usdtValue',
        'admin.finance.col.txHash',
        'admin.finance.col.review',
        'admin.finance.col.createdAt',
        'admin.finance.col.approvals',
      ]}
      cells={(item) => (
        <>
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
        </>
      )}
    />
  );
}
