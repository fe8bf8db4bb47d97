import { SystemMessages } from '../../../features/messages/SystemMessages.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /message: the system messages. */
export function MessagePage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-message">
      <PageHeader title={t('web.message.title')} backTo="/my" />
      <SystemMessages />
    </div>
  );
}
