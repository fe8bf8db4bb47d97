import { BankCards } from '../../../features/wallet/BankCards.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /person/setting/bank: the bank cards, from the settings (manage view). */
export function BankPage() {
  const { t } = useI18n();
  return (
    <div className="page page-narrow" data-testid="page-cards">
      <PageHeader title={t('web.card.title')} backTo="/person/setting" />
      <BankCards picker={false} />
    </div>
  );
}
