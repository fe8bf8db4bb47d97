import {
  getOptionsHouseContract,
  listAuditContract,
  listNotificationsContract,
  listP2pAppealsContract,
  listStaffDepositsContract,
  listStaffOptionOrdersContract,
  listStaffWithdrawalsContract,
  listStaffContract,
  listUsersContract,
  listVerificationsContract,
  staffLogoutContract,
  staffMeContract,
  type StaffRole,
} from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { AppealsPage } from '../features/appeals/AppealsPage.tsx';
import { AuditPage } from '../features/audit/AuditPage.tsx';
import { FirstLoginPage } from '../features/auth/FirstLoginPage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { DepositsPage } from '../features/finance/DepositsPage.tsx';
import { WithdrawalsPage } from '../features/finance/WithdrawalsPage.tsx';
import { OptionsPage } from '../features/options/OptionsPage.tsx';
import { OutboxPage } from '../features/outbox/OutboxPage.tsx';
import { MySessionsPage } from '../features/staff/MySessionsPage.tsx';
import { StaffPage } from '../features/staff/StaffPage.tsx';
import { UsersPage } from '../features/users/UsersPage.tsx';
import { VerificationsPage } from '../features/verifications/VerificationsPage.tsx';
import { api, setSessionLostHandler, staffToken } from '../shared/api.ts';
import { useI18n } from '../shared/i18n.tsx';
import { LanguageSelect } from '../shared/LanguageSelect.tsx';

type Staff = {
  id: string;
  username: string;
  roles: StaffRole[];
  /** The first-login step still missing (ADR 0020); until it is null only that step is shown. */
  setupStep: 'set_password' | 'enrol_totp' | null;
  oneTimePasswordExpiresAt: string | null;
};
type View = 'users' | 'audit' | 'verifications' | 'outbox' | 'deposits' | 'withdrawals' | 'appeals' | 'options' | 'staff' | 'mysessions';

const allowed = (roles: readonly StaffRole[], contract: { staffRoles?: readonly string[] }) =>
  roles.some((role) => (contract.staffRoles ?? []).includes(role));

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

  async function logout() {
    await api(staffLogoutContract).catch(() => {});
    staffToken.clear();
    setStaff(null);
  }
  /** This browser's session was ended from the sessions list: back to the login form. */
  function loggedOut() {
    staffToken.clear();
    setStaff(null);
  }

  if (checking) return <p className="muted center">{t('admin.loading')}</p>;
  if (!staff) return <LoginPage onLoggedIn={loadMe} />;
  if (staff.setupStep) return <FirstLoginPage staff={staff} onStepDone={loadMe} onLogout={logout} />;

  const canReadAudit = allowed(staff.roles, listAuditContract);
  // The user list (admin, compliance, support, finance; contacts masked for the last two, ADR 0023).
  const canListUsers = allowed(staff.roles, listUsersContract);
  // Pages the server would refuse are not offered (the server refuses them anyway).
  const canReview = allowed(staff.roles, listVerificationsContract);
  const canReadOutbox = allowed(staff.roles, listNotificationsContract);
  // The finance area (roles admin and finance): the deposit and withdrawal queues.
  const canReviewDeposits = allowed(staff.roles, listStaffDepositsContract);
  const canReviewWithdrawals = allowed(staff.roles, listStaffWithdrawalsContract);
  // P2P appeals (roles admin and support): the frozen escrow of an appealed order.
  const canResolveAppeals = allowed(staff.roles, listP2pAppealsContract);
  // Contracts, read only: the house's profit and loss (admin, finance) and every user's orders (admin, finance, support).
  const canReadOptionsHouse = allowed(staff.roles, getOptionsHouseContract);
  const canReadOptionOrders = allowed(staff.roles, listStaffOptionOrdersContract);
  const canReadOptions = canReadOptionsHouse || canReadOptionOrders;
  // Staff accounts (role admin, ADR 0020).
  const canManageStaff = allowed(staff.roles, listStaffContract);
  const viewAllowed: Record<View, boolean> = {
    users: canListUsers,
    audit: canReadAudit,
    verifications: canReview,
    outbox: canReadOutbox,
    deposits: canReviewDeposits,
    withdrawals: canReviewWithdrawals,
    appeals: canResolveAppeals,
    options: canReadOptions,
    staff: canManageStaff,
    mysessions: true,
  };
  // The view chosen, or else the first one these roles may open (content and merchant staff have no user list).
  const shown = viewAllowed[view] ? view : (Object.keys(viewAllowed) as View[]).find((each) => viewAllowed[each])!;

  return (
    <div className="shell">
      <header>
        <strong>{t('admin.title')}</strong>
        <nav>
          {canListUsers && (
            <button type="button" className={shown === 'users' ? 'tab active' : 'tab'} onClick={() => setView('users')}>
              {t('admin.nav.users')}
            </button>
          )}
          {canReadAudit && (
            <button type="button" className={shown === 'audit' ? 'tab active' : 'tab'} onClick={() => setView('audit')}>
              {t('admin.nav.audit')}
            </button>
          )}
          {canReview && (
            <button type="button" className={shown === 'verifications' ? 'tab active' : 'tab'} onClick={() => setView('verifications')}>
              {t('admin.verifications.nav')}
            </button>
          )}
          {canReadOutbox && (
            <button type="button" className={shown === 'outbox' ? 'tab active' : 'tab'} onClick={() => setView('outbox')}>
              {t('admin.outbox.nav')}
            </button>
          )}
          {canReviewDeposits && (
            <button type="button" className={shown === 'deposits' ? 'tab active' : 'tab'} onClick={() => setView('deposits')}>
              {t('admin.finance.nav.deposits')}
            </button>
          )}
          {canReviewWithdrawals && (
            <button type="button" className={shown === 'withdrawals' ? 'tab active' : 'tab'} onClick={() => setView('withdrawals')}>
              {t('admin.finance.nav.withdrawals')}
            </button>
          )}
          {canResolveAppeals && (
            <button type="button" className={shown === 'appeals' ? 'tab active' : 'tab'} onClick={() => setView('appeals')}>
              {t('admin.appeals.nav')}
            </button>
          )}
          {canReadOptions && (
            <button type="button" className={shown === 'options' ? 'tab active' : 'tab'} onClick={() => setView('options')}>
              {t('admin.options.nav')}
            </button>
          )}
          {canManageStaff && (
            <button type="button" className={shown === 'staff' ? 'tab active' : 'tab'} onClick={() => setView('staff')}>
              {t('admin.staff.nav')}
            </button>
          )}
          <button type="button" className={shown === 'mysessions' ? 'tab active' : 'tab'} onClick={() => setView('mysessions')}>
            {t('admin.sessions.mineNav')}
          </button>
        </nav>
        <span className="who">
          {staff.username} · {staff.roles.map((role) => t(`admin.role.${role}`)).join(', ')}
        </span>
        <LanguageSelect />
        <button type="button" className="secondary" onClick={logout}>
          {t('admin.logout')}
        </button>
      </header>
      <main>
        {shown === 'users' && <UsersPage roles={staff.roles} />}
        {shown === 'audit' && <AuditPage />}
        {shown === 'verifications' && <VerificationsPage />}
        {shown === 'outbox' && <OutboxPage />}
        {shown === 'deposits' && <DepositsPage staff={staff} />}
        {shown === 'withdrawals' && <WithdrawalsPage staff={staff} />}
        {shown === 'appeals' && <AppealsPage />}
        {shown === 'options' && <OptionsPage showHouse={canReadOptionsHouse} showOrders={canReadOptionOrders} />}
        {shown === 'staff' && <StaffPage me={staff} />}
        {shown === 'mysessions' && <MySessionsPage onLoggedOut={loggedOut} />}
      </main>
    </div>
  );
}
