import { Link } from 'react-router';
import { useOpenService } from '../../../features/service-fab/useOpenService.ts';
import { useLoggedIn } from '../../../shared/api/session.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Button, Card, PageHeader } from '../../../shared/ui/components.tsx';
import { ClockIcon } from '../../../shared/ui/icons.tsx';

/**
 * /forget: recovery by phone or e-mail needs a bound phone or e-mail, which accounts cannot have
 * yet, so this page says so plainly instead of showing a form that could not work.
 */
export function ForgetPage() {
  const { t } = useI18n();
  const loggedIn = useLoggedIn();
  const { open, busy } = useOpenService();
  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.forget.title')} backTo="/login" />
      <Card>
        <h2 className="card-title">
          <ClockIcon />
          {t('web.forget.heading')}
        </h2>
        <p>{t('web.forget.explain')}</p>
      </Card>
      <Card>
        <h2 className="card-title">{t('web.forget.helpTitle')}</h2>
        {loggedIn ? (
          <>
            <p>{t('web.forget.helpLoggedIn')}</p>
            <Button block busy={busy} onClick={() => void open()}>
              {t('web.forget.contactService')}
            </Button>
          </>
        ) : (
          <>
            <p>{t('web.forget.helpLoggedOut')}</p>
            <Link to="/login" className="btn btn-secondary btn-block">
              {t('web.forget.backToLogin')}
            </Link>
          </>
        )}
      </Card>
    </div>
  );
}
