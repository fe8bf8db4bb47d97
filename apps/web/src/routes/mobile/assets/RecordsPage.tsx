import { RecordsList } from '../../../features/records/RecordsList.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /assets/records: the journal of every balance change (the desktop's "transaction records"). */
export function RecordsPage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <PageHeader title={t('web.records.title')} backTo="/assets" />
      <p className="muted">{t('web.records.intro')}</p>
      <RecordsList />
    </div>
  );
}
