import { listC2cRequestsContract } from '@keel/contracts';
import type { C2cKind } from '@keel/domain';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { PagedWalletList } from '../wallet/WalletList.tsx';
import { Time } from '../wallet/WalletParts.tsx';
import { type C2cRequest, c2cOrderPath, isOpen } from './c2c-figures.ts';
import { C2cStateBadge, FiatAmount, UsdtAmount, useCountryName } from './C2cParts.tsx';

/** While an order on the page is open, the list is asked again this often (the merchant and the job move it). */
const LIST_POLL_MS = 10_000;

/** One order: the spec's fields (country, amount, USDT amount, time, order number, status), opening the order. */
function C2cRow({ request }: { request: C2cRequest }) {
  const { t } = useI18n();
  const countryName = useCountryName();
  return (
    <li className="wallet-row" data-testid={`c2c-row-${request.id}`} data-status={request.status}>
      <Link to={c2cOrderPath(request)} className="wallet-row-link" data-testid="c2c-row-link">
        <div className="wallet-row-head">
          <strong data-testid="c2c-row-country">{t('web.c2c.country.option', { country: countryName(request.country), currency: request.currency })}</strong>
          <C2cStateBadge status={request.status} testId="c2c-row-status" />
        </div>
        <div className="wallet-row-main">
          <UsdtAmount value={request.usdt} testId="c2c-row-usdt" />
          <Time iso={new Date(request.createdAtMs).toISOString()} testId="c2c-row-time" />
        </div>
        <dl className="wallet-row-facts">
          <div>
            <dt>{request.kind === 'deposit' ? t('web.c2c.history.amountPaid') : t('web.c2c.history.amountReceived')}</dt>
            <dd data-testid="c2c-row-fiat">{request.fiat !== null ? <FiatAmount value={request.fiat} currency={request.currency} /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.c2c.history.orderNo')}</dt>
            <dd>
              <bdi dir="ltr" className="mono" data-testid="c2c-row-order-no">
                {request.orderNo}
              </bdi>
            </dd>
          </div>
        </dl>
      </Link>
    </li>
  );
}

/**
 * The user's C2C deposits (`/assets/rechargeLog?via=c2c`) or withdrawals (`/assets/C2CWithdrawalList`),
 * newest first, paged in the address; each row opens its order. Polled while an order shown is open.
 */
export function C2cRequestList({ kind }: { kind: C2cKind }) {
  const { t } = useI18n();
  const [anyOpen, setAnyOpen] = useState(false);
  const list = usePagedQuery(listC2cRequestsContract, { kind }, { refetchInterval: anyOpen ? LIST_POLL_MS : false });
  const items = list.data?.items;
  useEffect(() => setAnyOpen(items?.some((each) => isOpen(each.status)) ?? false), [items]);
  return (
    <>
      <PagedWalletList list={list} emptyText={kind === 'deposit' ? t('web.c2c.history.emptyDeposits') : t('web.c2c.history.emptyWithdrawals')} testId={`c2c-${kind}s`}>
        {(request) => <C2cRow key={request.id} request={request} />}
      </PagedWalletList>
      <Link
        to={kind === 'deposit' ? '/assets/recharge?via=c2c' : '/assets/C2CWithdrawal/select'}
        className="btn btn-secondary btn-block"
        data-testid={kind === 'deposit' ? 'c2c-new-deposit' : 'c2c-new-withdrawal'}
      >
        {kind === 'deposit' ? t('web.c2c.history.newDeposit') : t('web.c2c.history.newWithdrawal')}
      </Link>
    </>
  );
}
