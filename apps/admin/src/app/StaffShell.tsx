import { staffLogoutContract, staffMeContract } from '@keel/contracts';
import { lazy, Suspense } from 'react';
import { NavLink, Outlet, useMatches, useNavigation } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { useStaffToken } from '../shared/api.ts';
import { useI18n } from '../shared/i18n.tsx';
import { LanguageSelect } from '../shared/LanguageSelect.tsx';
import { endStaffSession, useContractMutation, useContractQuery } from '../shared/queries.ts';
import { NoView } from './RouteViews.tsx';
import { SiteDemoBanner } from './SiteDemoBanner.tsx';
import { StaffContext, useStaff } from './staff.ts';
import { type ViewName, viewAllowed, views } from './views.ts';

// Only members who still have a first-login step see it: its code (and the QR code drawing) loads then.
const FirstLoginPage = lazy(() => import('../features/auth/FirstLoginPage.tsx').then((module) => ({ default: module.FirstLoginPage })));

/**
 * The root of every /admin URL. Without a staff session the login form stands in for the view, at
 * the same URL, so a shared link (and the page a lost session left) opens after logging in; a
 * member with a first-login step left sees only that step (ADR 0020); anyone else the navigation
 * of the views their roles open and the view the URL names. On a demo deployment every one of
 * them has the demo banner above it (ADR 0041).
 */
export function StaffShell() {
  return (
    <>
      <SiteDemoBanner />
      <StaffPage />
    </>
  );
}

function StaffPage() {
  const { t } = useI18n();
  const token = useStaffToken();
  const me = useContractQuery(staffMeContract, undefined, { enabled: token !== null });
  const logout = useContractMutation(staffLogoutContract);
  // Whatever the server answers, this browser's session ends here.
  const logOut = () => logout.mutate({}, { onSettled: endStaffSession });

  if (token === null) return <LoginPage />;
  if (me.isPending) return <Loading />;
  if (!me.data) return <LoginPage />;
  const staff = me.data;
  if (staff.setupStep) {
    return (
      <Suspense fallback={<Loading />}>
        <FirstLoginPage staff={staff} onLogout={logOut} />
      </Suspense>
    );
  }

  return (
    <StaffContext.Provider value={staff}>
      <div className="shell">
        <header>
          <strong>{t('admin.title')}</strong>
          <nav>
            {views
              .filter((view) => viewAllowed(view.name, staff.roles))
              .map((view) => (
                <NavLink key={view.name} to={`/${view.path}`} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
                  {t(view.label)}
                </NavLink>
              ))}
          </nav>
          <span className="who">
            {staff.username} · {staff.roles.map((role) => t(`admin.role.${role}`)).join(', ')}
          </span>
          <LanguageSelect />
          <button type="button" className="secondary" onClick={logOut}>
            {t('admin.logout')}
          </button>
        </header>
        <ViewOutlet />
      </div>
    </StaffContext.Provider>
  );
}

export function Loading() {
  const { t } = useI18n();
  return <p className="muted center">{t('admin.loading')}</p>;
}

/**
 * The view the URL names, or a "not allowed" state when the member's roles do not open it (the
 * server would refuse its reads anyway). Busy while a view's code is still loading.
 */
function ViewOutlet() {
  const staff = useStaff();
  const navigation = useNavigation();
  const view = useMatches()
    .map((match) => (match.handle as { view?: ViewName } | undefined)?.view)
    .filter((name) => name !== undefined)
    .at(-1);
  return <main aria-busy={navigation.state === 'loading'}>{view && !viewAllowed(view, staff.roles) ? <NoView testId="not-allowed" title="admin.notAllowed.title" text="admin.notAllowed.text" /> : <Outlet />}</main>;
}

