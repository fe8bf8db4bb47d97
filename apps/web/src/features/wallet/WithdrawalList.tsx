import { type ContractData, listWithdrawalsContract } from '@keel/contracts';
import { Link } from 'react-router';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { ChevronIcon } from '../../shared/ui/icons.tsx';
import { PagedWalletList } from './WalletList.tsx';
import { RecordSummary, WithdrawalStatusBadge } from './WalletParts.tsx';
import { shortenMiddle } from './wallet-paths.ts';

type Withdrawal = ContractData<typeof listWithdrawalsContract>['items'][number];

function WithdrawalRow({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useI18n();
  return (
    <li className="wallet-row" data-testid={`withdrawal-row-${withdrawal.id}`} data-status={withdrawal.status}>
      <Link to={`/assets/WithdrawDetails/${withdrawal.id}`} className="wallet-row-link" data-testid="withdrawal-row-link">
        <RecordSummary
          record={withdrawal}
          status={<WithdrawalStatusBadge status={withdrawal.status} testId="withdrawal-row-status" />}
          testIdPrefix="withdrawal-row"
        />
        <dl className="wallet-row-facts">
          <div>
            <dt>{t('web.withdraw.fee')}</dt>
            <dd>
              <Amount value={withdrawal.fee} unit={withdrawal.asset} testId="withdrawal-row-fee" />
            </dd>
          </div>
          <div>
            <dt>{t('web.withdraw.address')}</dt>
            <dd>
              <bdi dir="ltr" className="mono" title={withdrawal.address} data-testid="withdrawal-row-address" data-full={withdrawal.address}>
                {shortenMiddle(withdrawal.address)}
              </bdi>
            </dd>
          </div>
          {withdrawal.queuePosition !== null && (
            <div>
              <dt>{t('web.withdraw.queue')}</dt>
              <dd data-testid="withdrawal-row-queue" data-position={withdrawal.queuePosition}>
                {t('web.withdraw.queuePosition', { position: withdrawal.queuePosition })}
              </dd>
            </div>
          )}
        </dl>
        <span className="wallet-row-more">
          {t('web.withdraw.details')}
          <ChevronIcon />
        </span>
      </Link>
    </li>
  );
}

/**
 * /assets/withdrawLog (`all`): every withdrawal, newest first. /assets/WithdrawList (`open`): the
 * ones still pending or approved, each with its place in the queue.
 */
export function WithdrawalList({ scope }: { scope: 'all' | 'open' }) {
  const { t } = useI18n();
  // States and queue positions change by staff review, announced by a system message.
  const list = usePagedQuery(listWithdrawalsContract, { scope }, { refetchInterval: useFallbackPolling() });
  const prefix = scope === 'open' ? 'withdrawals-open' : 'withdrawals';
  return (
    <>
      <PagedWalletList list={list} emptyText={scope === 'open' ? t('web.withdraw.openEmpty') : t('web.withdraw.empty')} testId={prefix}>
        {(withdrawal) => <WithdrawalRow key={withdrawal.id} withdrawal={withdrawal} />}
      </PagedWalletList>
      <nav className="wallet-links">
        {scope === 'open' ? (
          <Link to="/assets/withdrawLog" data-testid="to-withdraw-log">
            {t('web.withdraw.logTitle')}
          </Link>
        ) : (
          <Link to="/assets/WithdrawList" data-testid="to-withdraw-open">
            {t('web.withdraw.openTitle')}
          </Link>
        )}
        <Link to="/assets/withdraw" data-testid="to-withdraw">
          {t('web.withdraw.newWithdrawal')}
        </Link>
      </nav>
    </>
  );
}
