import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Notice } from '../../shared/ui/components.tsx';

/** "Too many attempts: try again in N s", counting down; nothing once the wait is over. */
export function WaitNotice({ seconds }: { seconds: number }) {
  const { t } = useI18n();
  if (seconds <= 0) return null;
  return (
    <Notice tone="warning" title={t('web.auth.tooManyTitle')} testId="wait-notice">
      {t('web.auth.tryAgainIn', { seconds })}
    </Notice>
  );
}
