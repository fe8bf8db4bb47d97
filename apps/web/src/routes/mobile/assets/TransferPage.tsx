import { TransferForm } from '../../../features/assets/TransferForm.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /assets/transfer: between the user's own accounts. */
export function TransferPage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <PageHeader title={t('web.transfer.title')} backTo="/assets" />
      <p className="muted">{t('web.transfer.intro')}</p>
      <TransferForm />
    </div>
  );
}
