import { type ContractData, listDepositsContract } from '@keel/contracts';
import { Link, useSearchParams } from 'react-router';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Notice } from '../../shared/ui/components.tsx';
import { PagedWalletList } from './WalletList.tsx';
import { DepositStatusBadge, RecordSummary, Time } from './WalletParts.tsx';
import { isRecordId, shortenMiddle } from './wallet-paths.ts';

type Deposit = ContractData<typeof listDepositsContract>['items'][number];

function DepositRow({ deposit, isNew }: { deposit: Deposit; isNew: boolean }) {
  const { t } = useI18n();
  return (
    <li className={isNew ? 'wallet-row is-new' : 'wallet-row'} data-testid={`deposit-row-${deposit.id}`} data-status={deposit.status} data-new={isNew || undefined}>
      <RecordSummary record={deposit} status={<DepositStatusBadge status={deposit.status} testId="deposit-row-status" />} testIdPrefix="deposit-row" />
      <dl className="wallet-row-facts">
        <div>
          <dt>{t('web.deposit.txHash')}</dt>
          <dd>
            <bdi dir="ltr" className="mono" title={deposit.txHash} data-testid="deposit-row-txhash" data-full={deposit.txHash}>
              {shortenMiddle(deposit.txHash, 10, 8)}
            </bdi>
          </dd>
        </div>
        <div>
          <dt>{t('web.deposit.review')}</dt>
          <dd data-testid="deposit-row-review" data-review={deposit.review}>
            {deposit.review === 'chain' ? t('web.deposit.reviewChainShort') : t('web.deposit.reviewStaffShort')}
          </dd>
        </div>
        {deposit.review === 'chain' && deposit.confirmations && (
          <div>
            <dt>{t('web.deposit.confirmations')}</dt>
            <dd data-testid="deposit-row-confirmations">
              {t('web.deposit.confirmationsOf', { seen: deposit.confirmations.seen, required: deposit.confirmations.required })}
            </dd>
          </div>
        )}
        {deposit.decidedAt && (
          <div>
            <dt>{t('web.deposit.decidedAt')}</dt>
            <dd>
              <Time iso={deposit.decidedAt} />
            </dd>
          </div>
        )}
        {deposit.entryId && (
          <div>
            <dt>{t('web.wallet.journalEntry')}</dt>
            <dd>
              <Link to="/assets/records?type=deposit" data-testid="deposit-row-entry" data-entry={deposit.entryId}>
                {t('web.records.entry', { id: deposit.entryId })}
              </Link>
            </dd>
          </div>
        )}
      </dl>
      {deposit.status === 'rejected' && (
        <Notice tone="error" title={t('web.deposit.rejectedTitle')} testId="deposit-row-reason">
          {deposit.rejectReason ?? t('web.deposit.noReason')}
        </Notice>
      )}
    </li>
  );
}

/** /assets/rechargeLog: the user's deposit requests, newest first, paged in the address. */
export function DepositList() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const created = params.get('created');
  // A deposit's state changes by staff review or the chain check, announced by a system message.
  const list = usePagedQuery(listDepositsContract, {}, { refetchInterval: useFallbackPolling() });
  return (
    <>
      {isRecordId(created) && (
        <Notice title={t('web.deposit.createdTitle')} testId="deposit-created">
          {t('web.deposit.createdBody')}
        </Notice>
      )}
      <PagedWalletList list={list} emptyText={t('web.deposit.empty')} testId="deposits">
        {(deposit) => <DepositRow key={deposit.id} deposit={deposit} isNew={deposit.id === created} />}
      </PagedWalletList>
      <Link to="/assets/recharge" className="btn btn-secondary btn-block" data-testid="to-recharge">
        {t('web.deposit.newDeposit')}
      </Link>
    </>
  );
}
