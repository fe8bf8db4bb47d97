import { Link } from 'react-router';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { AlertIcon } from '../../../shared/ui/shell-icons.tsx';

function ErrorView({ title, body, testId }: { title: string; body: string; testId: string }) {
  const { t } = useI18n();
  return (
    <div className="page page-narrow error-page" data-testid={testId}>
      <span className="error-icon">
        <AlertIcon />
      </span>
      <h1>{title}</h1>
      <p className="muted">{body}</p>
      <Link to="/index" className="btn btn-primary btn-block">
        {t('web.error.home')}
      </Link>
    </div>
  );
}

/** /error/error, and what any page that fails to render shows. */
export function ErrorPage() {
  const { t } = useI18n();
  return <ErrorView title={t('web.error.title')} body={t('web.error.body')} testId="error-page" />;
}

/** /error/error2, and what an unknown address shows. */
export function NotFoundPage() {
  const { t } = useI18n();
  return <ErrorView title={t('web.error.notFoundTitle')} body={t('web.error.notFoundBody')} testId="not-found-page" />;
}
