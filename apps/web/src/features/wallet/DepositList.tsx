import { type ContractData, listDepositsContract } from '@keel/contracts';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { ChannelName, DepositStatusBadge, Pager, Time, usePagedList } from './WalletParts.tsx';
import { isRecordId, shortenMiddle } from './wallet-paths.ts';

type Deposit = ContractData<typeof listDepositsContract>['items'][number];

function DepositRow({ deposit, isNew }: { deposit: Deposit; isNew: boolean }) {
  const { t } = useI18n();
  return (
    <li className={isNew ? 'wallet-row is-new' : 'wallet-row'} data-testid={`deposit-row-${deposit.id}`} data-status={deposit.status} data-new={isNew || undefined}>
      <div className="wallet-row-head">
        <strong data-testid="deposit-row-channel">
          <ChannelName channel={deposit.channel} />
        </strong>
        <DepositStatusBadge status={deposit.status} testId="deposit-row-status" />
      </div>
      <div className="wallet-row-main">
        <Amount value={deposit.amount} unit={deposit.asset} testId="deposit-row-amount" />
        <Time iso={deposit.createdAt} testId="deposit-row-time" />
      </div>
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
  const list = usePagedList((page, pageSize) => api(listDepositsContract, { query: { page, pageSize } }), 'deposits');
  return (
    <>
      {isRecordId(created) && (
        <Notice title={t('web.deposit.createdTitle')} testId="deposit-created">
          {t('web.deposit.createdBody')}
        </Notice>
      )}
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      <Card>
        {list.data === null ? (
          <p className="muted">{t('web.common.loading')}</p>
        ) : list.data.items.length === 0 ? (
          <p className="muted" data-testid="deposits-empty">
            {t('web.deposit.empty')}
          </p>
        ) : (
          <ul className="wallet-rows" aria-busy={list.loading || undefined} data-testid="deposits">
            {list.data.items.map((deposit) => (
              <DepositRow key={deposit.id} deposit={deposit} isNew={deposit.id === created} />
            ))}
          </ul>
        )}
        {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="deposits" />}
        {list.data && (
          <p className="field-hint" data-testid="deposits-total">
            {t('web.records.total', { count: list.data.total })}
          </p>
        )}
      </Card>
      <Link to="/assets/recharge" className="btn btn-secondary btn-block" data-testid="to-recharge">
        {t('web.deposit.newDeposit')}
      </Link>
    </>
  );
}
