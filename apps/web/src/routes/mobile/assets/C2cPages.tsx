import { useParams } from 'react-router';
import { c2cCountryOf } from '../../../features/c2c/c2c-figures.ts';
import { C2cOrderView } from '../../../features/c2c/C2cOrder.tsx';
import { C2cChannelSwitch } from '../../../features/c2c/C2cParts.tsx';
import { C2cRequestList } from '../../../features/c2c/C2cRequestList.tsx';
import { C2cWithdrawalForm } from '../../../features/c2c/C2cWithdrawalForm.tsx';
import { isRecordId } from '../../../features/wallet/wallet-paths.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/**
 * The C2C pages (issue 19, ADR 0043), routes as spec section 2 writes them: the withdrawal form
 * /assets/C2CWithdrawal/{country} (`select` or any code not served: the country is still to be
 * chosen), the withdrawals /assets/C2CWithdrawalList and one of them /assets/C2CWithdrawalInfo/{id};
 * and a deposit's order, /assets/C2CDeposit/{id} (the deposit form is /assets/recharge?via=c2c, its
 * history /assets/rechargeLog?via=c2c).
 */

/** /assets/C2CWithdrawal/{country} */
export function C2CWithdrawalPage() {
  const { t } = useI18n();
  const { country } = useParams();
  const code = c2cCountryOf(country);
  return (
    <div className="page" data-testid="page-c2c-withdrawal">
      <PageHeader title={t('web.c2c.withdrawal.title')} backTo="/assets" />
      <C2cChannelSwitch direction="withdrawal" current="c2c" />
      <C2cWithdrawalForm country={code} />
    </div>
  );
}

/** /assets/C2CWithdrawalList */
export function C2CWithdrawalListPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-c2c-withdrawal-list">
      <PageHeader title={t('web.c2c.history.withdrawalTitle')} backTo="/assets" />
      <C2cRequestList kind="withdrawal" />
    </div>
  );
}

/** /assets/C2CWithdrawalInfo/{id} */
export function C2CWithdrawalInfoPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-c2c-withdrawal-info">
      <PageHeader title={t('web.c2c.withdrawal.orderTitle')} backTo="/assets/C2CWithdrawalList" />
      <C2cOrderView key={id} id={id} kind="withdrawal" />
    </div>
  );
}

/** /assets/C2CDeposit/{id} */
export function C2CDepositPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-c2c-deposit">
      <PageHeader title={t('web.c2c.deposit.orderTitle')} backTo="/assets/rechargeLog?via=c2c" />
      <C2cOrderView key={id} id={id} kind="deposit" />
    </div>
  );
}
