import type { MessageKey } from '@keel/locales';
import { Link, Navigate, useRouteError } from 'react-router';
import { useI18n } from '../shared/i18n.tsx';
import { SiteDemoBanner } from './SiteDemoBanner.tsx';
import { useStaff } from './staff.ts';
import { firstAllowedView } from './views.ts';

/** /admin itself: the first view the member's roles open. */
export function FirstAllowedView() {
  const staff = useStaff();
  return <Navigate to={`/${firstAllowedView(staff.roles).path}`} replace />;
}

/** Why a URL shows no view (not found, not allowed), with the way to the member's first view. */
export function NoView({ testId, title, text }: { testId: string; title: MessageKey; text: MessageKey }) {
  const { t } = useI18n();
  return (
    <section data-testid={testId}>
      <h2>{t(title)}</h2>
      <p className="muted">{t(text)}</p>
      <Link to="/">{t('admin.nav.start')}</Link>
    </section>
  );
}

/** A path under /admin that names no view. */
export function NotFoundView() {
  return <NoView testId="not-found" title="admin.notFound.title" text="admin.notFound.text" />;
}

/**
 * A view that failed to load or to draw: most often its code after a new release (the page still
 * names the old files), which a reload fetches.
 */
export function RouteError() {
  const { t } = useI18n();
  const error = useRouteError();
  console.error(error);
  // It replaces the shell: the demo banner stays (ADR 0041).
  return (
    <>
      <SiteDemoBanner />
      <main className="login">
        <section className="card" role="alert" data-testid="route-error">
          <h1>{t('admin.routeError.title')}</h1>
          <p className="muted">{t('admin.routeError.text')}</p>
          <button type="button" onClick={() => window.location.reload()}>
            {t('admin.routeError.reload')}
          </button>
        </section>
      </main>
    </>
  );
}
