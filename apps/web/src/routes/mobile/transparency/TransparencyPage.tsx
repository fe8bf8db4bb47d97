import { TransparencyView } from '../../../features/transparency/TransparencyView.tsx';
import { useLoggedIn } from '../../../shared/api/session.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /transparency: the platform's own accounts, the proof of liabilities and every published rule (public, issue 22). */
export function TransparencyPage() {
  const { t } = useI18n();
  const loggedIn = useLoggedIn();
  return (
    <div className="page transparency-page" data-testid="transparency-page">
      <PageHeader title={t('web.transparency.title')} backTo={loggedIn ? '/my' : '/login'} />
      <TransparencyView />
    </div>
  );
}
