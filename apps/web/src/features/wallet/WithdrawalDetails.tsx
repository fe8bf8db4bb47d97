import {
  ApiError,
  cancelWithdrawalContract,
  errorCatalogue,
  getWithdrawalContract,
  listAccountsContract,
  listRecordsContract,
  listWithdrawalsContract,
  walletOverviewContract,
} from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { canCancelWithdrawal, isOpenWithdrawal, type StepId, withdrawalTimeline } from './timeline.ts';
import { useWithdrawal, type WithdrawalView } from './useWithdrawal.ts';
import { ChannelName, ConfirmAction, Fact, MonoText, NetworkName, NothingToPayNotice, RefusalNotice, Time, WithdrawalStatusBadge } from './WalletParts.tsx';

const stepKeys: Record<StepId, MessageKey> = {
  requested: 'web.withdraw.step.requested',
  review: 'web.withdraw.step.review',
  approved: 'web.withdraw.step.approved',
  completed: 'web.withdraw.step.completed',
  rejected: 'web.withdraw.step.rejected',
  failed: 'web.withdraw.step.failed',
  cancelled: 'web.withdraw.step.cancelled',
};

function Timeline({ withdrawal }: { withdrawal: WithdrawalView }) {
  const { t } = useI18n();
  const steps = withdrawalTimeline(withdrawal);
  return (
    <ol className="timeline" data-testid="withdrawal-timeline">
      {steps.map((step) => (
        <li key={step.id} className={`timeline-step timeline-${step.state}`} data-testid={`timeline-step-${step.id}`} data-state={step.state}>
          <span className="timeline-dot" aria-hidden="true" />
          <div className="timeline-body">
            <strong>{t(stepKeys[step.id])}</strong>
            {step.id === 'review' && (
              <span className="muted" data-testid="timeline-approvals">
                {t('web.withdraw.step.approvals', { approvals: withdrawal.approvals, required: withdrawal.approvalsRequired })}
              </span>
            )}
            {step.id === 'requested' && (
              <span className="muted">
                {t('web.withdraw.step.frozen')} <Amount value={withdrawal.totalFrozen} unit={withdrawal.asset} />
              </span>
            )}
            {step.id === 'completed' && step.state === 'done' && withdrawal.txHash && (
              <span className="muted">
                {t('web.withdraw.txHash')} <MonoText value={withdrawal.txHash} testId="timeline-txhash" />
              </span>
            )}
            {(step.id === 'rejected' || step.id === 'failed') && (
              <span className="timeline-reason" data-testid="timeline-reason">
                {withdrawal.rejectReason ?? t('web.deposit.noReason')}
              </span>
            )}
            {(step.id === 'rejected' || step.id === 'failed' || step.id === 'cancelled') && (
              <span className="muted">{t('web.withdraw.step.returned')}</span>
            )}
            {step.at && <Time iso={step.at} />}
          </div>
        </li>
      ))}
    </ol>
  );
}

/**
 * /assets/WithdrawDetails/{id}: every field of one withdrawal, its steps, its place in the queue
 * while open, the journal entries that froze and released the money, and "cancel" while it waits
 * for review with no approval yet (the held amount and fee return at once).
 */
export function WithdrawalDetails({ id }: { id: string }) {
  const { t } = useI18n();
  const toast = useToast();
  const { withdrawal, problem, reload } = useWithdrawal(id);
  const client = useQueryClient();
  // The held amount and fee return to the balance at once; the lists and the day's standing move.
  const cancelCall = useContractMutation(cancelWithdrawalContract, {
    invalidates: [listWithdrawalsContract, listAccountsContract, listRecordsContract, walletOverviewContract],
    // The answer is the withdrawal as it now is: shown without asking again.
    onSuccess: (answer, input) => {
      client.setQueryData(contractKey(getWithdrawalContract, { params: input.params }), answer);
    },
  });
  const actionKey = useActionKey();
  const [refused, setRefused] = useState<{ message: string; data: unknown } | null>(null);

  async function cancel() {
    setRefused(null);
    try {
      await cancelCall.mutateAsync({ params: { withdrawalId: id }, idempotencyKey: actionKey.keyFor(`cancel:${id}`) });
      actionKey.settle();
      toast(t('web.withdraw.cancelled'));
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      setRefused(error instanceof ApiError ? { message: error.message, data: error.data } : { message: errorCatalogue.SYSTEM_ERROR.msg, data: null });
      // Refused (e.g. staff approved it meanwhile): show it as it now is.
      reload();
    }
  }

  if (problem === 'notFound') {
    return (
      <Notice tone="error" testId="withdrawal-not-found">
        {t('web.withdraw.notFound')}
      </Notice>
    );
  }
  if (withdrawal === null) return problem === 'failed' ? <LoadFailedNotice onRetry={reload} /> : <p className="muted">{t('web.common.loading')}</p>;
  const open = isOpenWithdrawal(withdrawal.status);
  return (
    <>
      {problem === 'failed' && <LoadFailedNotice onRetry={reload} />}
      {refused && <RefusalNotice message={refused.message} data={refused.data} asset={withdrawal.asset} />}
      <Card>
        <div className="wallet-row-head">
          <h2 className="card-title">
            <ChannelName channel={withdrawal.channel} />
          </h2>
          <WithdrawalStatusBadge status={withdrawal.status} testId="withdrawal-status" />
        </div>
        {open && withdrawal.queuePosition !== null && (
          <p className="queue-position" data-testid="withdrawal-queue" data-position={withdrawal.queuePosition}>
            {t('web.withdraw.queuePosition', { position: withdrawal.queuePosition })}
          </p>
        )}
        <Timeline withdrawal={withdrawal} />
        {canCancelWithdrawal(withdrawal) && (
          <div className="wallet-cancel">
            <p className="muted">{t('web.withdraw.cancelNote')}</p>
            <ConfirmAction
              label={t('web.withdraw.cancel')}
              question={t('web.withdraw.cancelQuestion')}
              confirmLabel={t('web.withdraw.cancelConfirm')}
              busy={cancelCall.isPending}
              onConfirm={() => void cancel()}
              testId="withdrawal-cancel"
            />
          </div>
        )}
      </Card>
      <Card>
        <h2 className="card-title">{t('web.withdraw.detailsTitle')}</h2>
        <dl className="facts" data-testid="withdrawal-details">
          <Fact label={t('web.withdraw.id')} testId="withdrawal-id">
            <bdi dir="ltr">#{withdrawal.id}</bdi>
          </Fact>
          <Fact label={t('web.withdraw.channel')} testId="withdrawal-channel">
            <ChannelName channel={withdrawal.channel} />
          </Fact>
          <Fact label={t('web.withdraw.network')} testId="withdrawal-network">
            <NetworkName network={withdrawal.network} />
          </Fact>
          <Fact label={t('web.withdraw.receive')} testId="withdrawal-amount">
            <Amount value={withdrawal.amount} unit={withdrawal.asset} />
          </Fact>
          <Fact label={t('web.withdraw.fee')} testId="withdrawal-fee">
            <Amount value={withdrawal.fee} unit={withdrawal.asset} />
          </Fact>
          <Fact label={t('web.withdraw.totalFrozen')} testId="withdrawal-total">
            <Amount value={withdrawal.totalFrozen} unit={withdrawal.asset} />
          </Fact>
          <Fact label={t('web.withdraw.usdtValue')} testId="withdrawal-usdt">
            <span className="approx">
              ≈ <Amount value={withdrawal.usdtValue} unit="USDT" max={2} />
            </span>
          </Fact>
          <Fact label={t('web.withdraw.approvals')} testId="withdrawal-approvals">
            {t('web.withdraw.approvalsValue', { approvals: withdrawal.approvals, required: withdrawal.approvalsRequired })}
          </Fact>
          <Fact label={t('web.withdraw.requestedAt')} testId="withdrawal-created">
            <Time iso={withdrawal.createdAt} />
          </Fact>
          {withdrawal.decidedAt && (
            <Fact label={t('web.withdraw.decidedAt')} testId="withdrawal-decided">
              <Time iso={withdrawal.decidedAt} />
            </Fact>
          )}
          {withdrawal.completedAt && (
            <Fact label={t('web.withdraw.completedAt')} testId="withdrawal-completed">
              <Time iso={withdrawal.completedAt} />
            </Fact>
          )}
          <Fact label={t('web.withdraw.holdEntry')}>
            <Link to="/assets/records?type=hold.place" data-testid="withdrawal-hold-entry" data-entry={withdrawal.holdEntryId}>
              {t('web.records.entry', { id: withdrawal.holdEntryId })}
            </Link>
          </Fact>
          {withdrawal.closingEntryId && (
            <Fact label={withdrawal.status === 'completed' ? t('web.withdraw.paidEntry') : t('web.withdraw.returnEntry')}>
              <Link to={`/assets/records?type=withdrawal.${withdrawal.status}`} data-testid="withdrawal-closing-entry" data-entry={withdrawal.closingEntryId}>
                {t('web.records.entry', { id: withdrawal.closingEntryId })}
              </Link>
            </Fact>
          )}
        </dl>
        <div className="address-block">
          <p className="muted">{withdrawal.addressLabel ? t('web.withdraw.toLabelled', { label: withdrawal.addressLabel }) : t('web.withdraw.to')}</p>
          <MonoText value={withdrawal.address} testId="withdrawal-address" />
        </div>
        {withdrawal.txHash && (
          <div className="address-block">
            <p className="muted">{t('web.withdraw.txHash')}</p>
            <MonoText value={withdrawal.txHash} testId="withdrawal-txhash" />
          </div>
        )}
        {withdrawal.rejectReason && (
          <Notice tone="error" title={withdrawal.status === 'failed' ? t('web.withdraw.failedTitle') : t('web.withdraw.rejectedTitle')} testId="withdrawal-reason">
            {withdrawal.rejectReason}
          </Notice>
        )}
      </Card>
      {open && <NothingToPayNotice />}
      <nav className="wallet-links">
        <Link to="/assets/withdrawLog" data-testid="to-withdraw-log">
          {t('web.withdraw.logTitle')}
        </Link>
        <Link to="/assets/WithdrawList" data-testid="to-withdraw-open">
          {t('web.withdraw.openTitle')}
        </Link>
      </nav>
    </>
  );
}
