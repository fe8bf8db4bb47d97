import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { isOpenWithdrawal } from './timeline.ts';
import { useWithdrawal } from './useWithdrawal.ts';
import { ChannelName, Fact, MonoText, NetworkName, NothingToPayNotice, Time, WithdrawalStatusBadge } from './WalletParts.tsx';

/**
 * /assets/WithdrawPay/{id}: the step after a withdrawal is submitted. It shows what was frozen and
 * where it goes, and says plainly that nothing more is to be paid: Keel never asks for a payment
 * to release a withdrawal. There is no input on this page.
 */
export function WithdrawPay({ id }: { id: string }) {
  const { t } = useI18n();
  const { withdrawal, problem, reload } = useWithdrawal(id);
  if (problem === 'notFound') {
    return (
      <Notice tone="error" testId="withdrawal-not-found">
        {t('web.withdraw.notFound')}
      </Notice>
    );
  }
  return (
    <>
      {problem === 'failed' && <LoadFailedNotice onRetry={reload} />}
      {withdrawal === null ? (
        <p className="muted">{t('web.common.loading')}</p>
      ) : (
        <>
          <Notice title={t('web.withdraw.pay.title')} testId="withdraw-pay-submitted">
            {t('web.withdraw.pay.body')}
          </Notice>
          <Card>
            <dl className="facts" data-testid="withdraw-pay">
              <Fact label={t('web.withdraw.channel')} testId="pay-channel">
                <ChannelName channel={withdrawal.channel} />
              </Fact>
              <Fact label={t('web.withdraw.receive')} testId="pay-amount">
                <Amount value={withdrawal.amount} unit={withdrawal.asset} />
              </Fact>
              <Fact label={t('web.withdraw.fee')} testId="pay-fee">
                <Amount value={withdrawal.fee} unit={withdrawal.asset} />
              </Fact>
              <Fact label={t('web.withdraw.totalFrozen')} testId="pay-total">
                <Amount value={withdrawal.totalFrozen} unit={withdrawal.asset} />
              </Fact>
              <Fact label={t('web.withdraw.network')} testId="pay-network">
                <NetworkName network={withdrawal.network} />
              </Fact>
              <Fact label={t('web.withdraw.status')}>
                <WithdrawalStatusBadge status={withdrawal.status} testId="pay-status" />
              </Fact>
              {withdrawal.queuePosition !== null && isOpenWithdrawal(withdrawal.status) && (
                <Fact label={t('web.withdraw.queue')} testId="pay-queue">
                  <span data-position={withdrawal.queuePosition}>{t('web.withdraw.queuePosition', { position: withdrawal.queuePosition })}</span>
                </Fact>
              )}
              <Fact label={t('web.withdraw.requestedAt')}>
                <Time iso={withdrawal.createdAt} />
              </Fact>
            </dl>
            <div className="address-block">
              <p className="muted">{withdrawal.addressLabel ? t('web.withdraw.toLabelled', { label: withdrawal.addressLabel }) : t('web.withdraw.to')}</p>
              <MonoText value={withdrawal.address} testId="pay-address" />
            </div>
            <p className="muted">{t('web.withdraw.pay.frozenNote')}</p>
          </Card>
          <NothingToPayNotice />
          <nav className="wallet-actions">
            <Link to={`/assets/WithdrawDetails/${withdrawal.id}`} className="btn btn-primary btn-block" data-testid="pay-to-details">
              {t('web.withdraw.pay.details')}
            </Link>
            <Link to="/assets/withdrawLog" className="btn btn-secondary btn-block" data-testid="pay-to-list">
              {t('web.withdraw.logTitle')}
            </Link>
          </nav>
        </>
      )}
    </>
  );
}
