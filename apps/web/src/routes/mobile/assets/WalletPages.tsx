import { Link, useParams, useSearchParams } from 'react-router';
import { C2cDepositForm } from '../../../features/c2c/C2cDepositForm.tsx';
import { C2cChannelSwitch } from '../../../features/c2c/C2cParts.tsx';
import { C2cRequestList } from '../../../features/c2c/C2cRequestList.tsx';
import { AddressBook } from '../../../features/wallet/AddressBook.tsx';
import { AddCardForm, BankCards } from '../../../features/wallet/BankCards.tsx';
import { DepositForm } from '../../../features/wallet/DepositForm.tsx';
import { DepositList } from '../../../features/wallet/DepositList.tsx';
import { WithdrawalDetails } from '../../../features/wallet/WithdrawalDetails.tsx';
import { WithdrawalList } from '../../../features/wallet/WithdrawalList.tsx';
import { WithdrawForm } from '../../../features/wallet/WithdrawForm.tsx';
import { WithdrawPay } from '../../../features/wallet/WithdrawPay.tsx';
import { isPickerMode, isRecordId } from '../../../features/wallet/wallet-paths.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader, Segmented } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/** `?via=c2c`: the C2C channel (fiat through a merchant, issue 19) of the deposit page and its history. */
const isC2c = (params: URLSearchParams) => params.get('via') === 'c2c';

/** /assets/recharge: deposit, crypto (the default) or C2C (`?via=c2c`). */
export function RechargePage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const c2c = isC2c(params);
  return (
    <div className="page" data-testid="page-recharge" data-via={c2c ? 'c2c' : 'crypto'}>
      <PageHeader title={t('web.deposit.title')} backTo="/assets" />
      <C2cChannelSwitch direction="deposit" current={c2c ? 'c2c' : 'crypto'} />
      {c2c ? (
        <C2cDepositForm />
      ) : (
        <>
          <p className="muted">{t('web.deposit.intro')}</p>
          <DepositForm />
        </>
      )}
    </div>
  );
}

/** /assets/rechargeLog: the user's deposit requests, crypto or C2C (`?via=c2c`). */
export function RechargeLogPage() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const c2c = isC2c(params);
  return (
    <div className="page" data-testid="page-recharge-log" data-via={c2c ? 'c2c' : 'crypto'}>
      <PageHeader title={t('web.deposit.logTitle')} backTo="/assets" />
      <Segmented<'crypto' | 'c2c'>
        label={t('web.c2c.switch.historyLabel')}
        value={c2c ? 'c2c' : 'crypto'}
        options={[
          { value: 'crypto', label: t('web.c2c.switch.crypto'), testId: 'recharge-log-crypto' },
          { value: 'c2c', label: t('web.c2c.switch.c2c'), testId: 'recharge-log-c2c' },
        ]}
        // Each list has its own pages: a switch starts at the first.
        onChange={(next) => setParams(next === 'c2c' ? { via: 'c2c' } : {}, { replace: true })}
      />
      {c2c ? <C2cRequestList kind="deposit" /> : <DepositList />}
    </div>
  );
}

/** /assets/withdraw: the withdrawal form and the published rules. */
export function WithdrawPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-withdraw">
      <PageHeader title={t('web.withdraw.title')} backTo="/assets" />
      <C2cChannelSwitch direction="withdrawal" current="crypto" />
      <p className="muted">{t('web.withdraw.intro')}</p>
      <WithdrawForm />
    </div>
  );
}

/** /assets/withdrawLog: every withdrawal. */
export function WithdrawLogPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-withdraw-log">
      <PageHeader title={t('web.withdraw.logTitle')} backTo="/assets" />
      <WithdrawalList scope="all" />
      <Link to="/assets/C2CWithdrawalList" className="btn btn-ghost btn-block" data-testid="to-c2c-withdrawals">
        {t('web.c2c.history.withdrawalTitle')}
      </Link>
    </div>
  );
}

/** /assets/WithdrawList: the open withdrawals with their places in the queue. */
export function WithdrawListPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-withdraw-open">
      <PageHeader title={t('web.withdraw.openTitle')} backTo="/assets" />
      <p className="muted">{t('web.withdraw.openIntro')}</p>
      <WithdrawalList scope="open" />
    </div>
  );
}

/** /assets/WithdrawDetails/{id} */
export function WithdrawDetailsPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-withdraw-details">
      <PageHeader title={t('web.withdraw.detailsTitle')} backTo="/assets/withdrawLog" />
      <WithdrawalDetails key={id} id={id} />
    </div>
  );
}

/** /assets/WithdrawPay/{id}: the confirmation after submitting; nothing is paid here. */
export function WithdrawPayPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-withdraw-pay">
      <PageHeader title={t('web.withdraw.pay.pageTitle')} backTo="/assets/withdrawLog" />
      <WithdrawPay key={id} id={id} />
    </div>
  );
}

/** /assets/WalletAddress/{selete}: the address book; `select` or `1` picks one for the withdrawal form. */
export function WalletAddressPage() {
  const { t } = useI18n();
  const { selete } = useParams();
  const picker = isPickerMode(selete);
  return (
    <div className="page" data-testid={picker ? 'page-address-picker' : 'page-addresses'}>
      <PageHeader title={picker ? t('web.address.pickTitle') : t('web.address.title')} backTo={picker ? '/assets/withdraw' : '/person/setting'} />
      <AddressBook picker={picker} />
    </div>
  );
}

/** /assets/card/{selete}: bank cards; `select` or `1` picks one for the page that asked. */
export function CardPage() {
  const { t } = useI18n();
  const { selete } = useParams();
  const picker = isPickerMode(selete);
  return (
    <div className="page" data-testid={picker ? 'page-card-picker' : 'page-cards'}>
      <PageHeader title={picker ? t('web.card.pickTitle') : t('web.card.title')} backTo="/assets" />
      <BankCards picker={picker} />
    </div>
  );
}

/** /assets/addcard */
export function AddCardPage() {
  const { t } = useI18n();
  return (
    <div className="page page-narrow" data-testid="page-addcard">
      <PageHeader title={t('web.card.addTitle')} backTo="/assets/card/manage" />
      <p className="muted">{t('web.card.addIntro')}</p>
      <AddCardForm />
    </div>
  );
}
