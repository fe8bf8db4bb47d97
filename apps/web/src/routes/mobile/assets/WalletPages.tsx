import { useParams } from 'react-router';
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
import { PageHeader } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/** /assets/recharge: deposit. */
export function RechargePage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-recharge">
      <PageHeader title={t('web.deposit.title')} backTo="/assets" />
      <p className="muted">{t('web.deposit.intro')}</p>
      <DepositForm />
    </div>
  );
}

/** /assets/rechargeLog: the user's deposit requests. */
export function RechargeLogPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-recharge-log">
      <PageHeader title={t('web.deposit.logTitle')} backTo="/assets" />
      <DepositList />
    </div>
  );
}

/** /assets/withdraw: the withdrawal form and the published rules. */
export function WithdrawPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-withdraw">
      <PageHeader title={t('web.withdraw.title')} backTo="/assets" />
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
