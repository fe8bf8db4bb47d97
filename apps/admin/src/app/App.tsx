import { listAuditContract, staffLogoutContract, staffMeContract, type StaffRole } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { AuditPage } from '../features/audit/AuditPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { UsersPage } from '../features/users/UsersPage.tsx';
import { api, setSessionLostHandler, staffToken } from '../shared/api.ts';
import { useI18n } from '../shared/i18n.tsx';
import { LanguageSelect } from '../shared/LanguageSelect.tsx';

type Staff = { id: string; username: string; roles: StaffRole[] };
type View = 'users' | 'audit';

export function App() {
  const { t } = useI18n();
  const [staff, setStaff] = useState<Staff | null>(null);
  const [checking, setChecking] = useState(() => staffToken.get() !== null);
  const [view, setView] = useState<View>('users');

  const loadMe = useCallback(async () => {
    try {
      setStaff(await api(staffMeContract));
    } catch {
      setStaff(null);
    } finally {
      setChecking(false);
    }
  }, []);

  useEffect(() => {
    setSessionLostHandler(() => setStaff(null));
    if (staffToken.get()) void loadMe();
  }, [loadMe]);

  if (checking) return <p className="muted center">{t('admin.loading')}</p>;
  if (!staff) return <LoginPage onLoggedIn={loadMe} />;

  const canReadAudit = staff.roles.some((role) => (listAuditContract.staffRoles as readonly string[]).includes(role));
  async function logout() {
    await api(staffLogoutContract).catch(() => {});
    staffToken.clear();
    setStaff(null);
  }

  return (
    <div className="shell">
      <header>
        <strong>{t('admin.title')}</strong>
        <nav>
          <button type="button" className={view === 'users' ? 'tab active' : 'tab'} onClick={() => setView('users')}>
            {t('admin.nav.users')}
          </button>
          {canReadAudit && (
            <button type="button" className={view === 'audit' ? 'tab active' : 'tab'} onClick={() => setView('audit')}>
              {t('admin.nav.audit')}
            </button>
          )}
        </nav>
        <span className="who">
          {staff.username} · {staff.roles.map((role) => t(`admin.role.${role}`)).join(', ')}
        </span>
        <LanguageSelect />
        <button type="button" className="secondary" onClick={logout}>
          {t('admin.logout')}
        </button>
      </header>
      <main>{view === 'users' ? <UsersPage roles={staff.roles} /> : <AuditPage />}</main>
    </div>
  );
}
